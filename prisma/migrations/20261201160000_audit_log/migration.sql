-- The audit log (docs/admin-api.md, "Audit log"): read newest first by (at, id), by person, and never
-- changed once written.

CREATE INDEX "audit_events_at_id_idx" ON "audit_events"("at" DESC, "id" DESC);

CREATE INDEX "audit_events_actor_id_at_idx" ON "audit_events"("actor_id", "at");

-- Entries cannot be edited or deleted, whatever the application (or a bug in it) asks. A statement trigger,
-- so even an UPDATE or DELETE that matches no row is refused. TRUNCATE is left to the operator and to tests
-- that empty a scratch database: the application never truncates.
-- The body's semicolons are written \073 in an E'' string: Prisma's migration runner splits a script at every
-- semicolon, even inside quotes.
CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  RAISE EXCEPTION ''audit_events is append-only: % is refused'', TG_OP USING ERRCODE = ''insufficient_privilege''\073
END\073
';

CREATE TRIGGER "audit_events_append_only"
  BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_refuse_change"();
