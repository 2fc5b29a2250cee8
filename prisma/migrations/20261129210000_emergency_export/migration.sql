-- Emergency export (ADR 006): answers from an uploaded emergency file that reach a frozen attempt are kept
-- as late answers with via = 'export'.
ALTER TABLE "late_answers" DROP CONSTRAINT "late_answers_via_known";
ALTER TABLE "late_answers" ADD CONSTRAINT "late_answers_via_known" CHECK ("via" IN ('autosave', 'submit', 'export'));
