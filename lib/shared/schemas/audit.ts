import { z } from "@/lib/shared/zod";

import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, type AuditActorType } from "../audit-actions";
import { UuidSchema } from "./attempts";
import { InstantSchema } from "./instant";

const Instant = z.iso.datetime({ offset: true, message: "must be an ISO 8601 time with an offset" });

/** The largest page `GET /api/admin/audit` answers; the CSV export pages through the whole log itself. */
export const AUDIT_PAGE_MAX = 200;
export const AUDIT_PAGE_DEFAULT = 50;

/**
 * The audit log's filters, the same for the API (`GET /api/admin/audit`) and the page (`/admin/audit`, kept in
 * its URL). `action` may repeat or be a comma list; `from` is inclusive, `to` exclusive.
 */
export const AuditQuerySchema = z
  .object({
    examId: UuidSchema.optional().describe("only this exam's events"),
    actorId: UuidSchema.optional().describe("only this person's actions (a staff user's or a candidate's id)"),
    action: z
      .array(z.enum(AUDIT_ACTIONS, { message: "is not a kind of audit event" }))
      .optional()
      .describe("only these kinds; repeat the parameter or separate kinds with commas"),
    from: Instant.optional().describe("events at or after this time"),
    to: Instant.optional().describe("events before this time"),
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,200}$/, { message: "is not a cursor this API gave" })
      .optional()
      .describe("`nextCursor` of the previous page"),
    limit: z.coerce
      .number({ message: "must be a number" })
      .int({ message: "must be a whole number" })
      .min(1, { message: "must be at least 1" })
      .max(AUDIT_PAGE_MAX, { message: `must be at most ${AUDIT_PAGE_MAX}` })
      .optional()
      .describe(`entries per page, newest first (default ${AUDIT_PAGE_DEFAULT}, at most ${AUDIT_PAGE_MAX})`),
    format: z
      .enum(["json", "csv"], { message: "must be json or csv" })
      .optional()
      .describe("`csv` (or `Accept: text/csv`): the whole filtered log as CSV"),
  })
  .refine((query) => !query.from || !query.to || Date.parse(query.from) < Date.parse(query.to), {
    message: "must be after from",
    path: ["to"],
  });

export type AuditQuery = z.output<typeof AuditQuerySchema>;

/** The raw query object of a URL's search params: `action` repeated or comma separated, empty values dropped. */
export function auditQueryInput(params: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of ["examId", "actorId", "from", "to", "cursor", "limit", "format"]) {
    const value = params.get(key);
    if (value !== null && value !== "") input[key] = value;
  }
  const actions = params
    .getAll("action")
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  if (actions.length > 0) input.action = actions;
  return input;
}

export type AuditPerson = { id: string; name: string; email: string };

/** One audit event as the API and the page show it: names are the ones on record now. */
export type AuditEntry = {
  id: string;
  at: string;
  actor: { type: AuditActorType; id: string | null; name: string | null; email: string | null };
  action: string;
  examId: string | null;
  /** The exam's title now, or its title when it was deleted. */
  examTitle: string | null;
  /** The candidate the event is about. */
  candidate: AuditPerson | null;
  /** The staff member the event is about (staff accounts, proctor assignments). */
  staffMember: AuditPerson | null;
  attemptId: string | null;
  data: Record<string, unknown>;
};

export type AuditPage = { entries: AuditEntry[]; nextCursor: string | null };

export const AuditActorTypeSchema = z.enum(AUDIT_ACTOR_TYPES);

const AuditPersonSchema = z.object({ id: UuidSchema, name: z.string(), email: z.string() });

export const AuditPageSchema = z.object({
  entries: z.array(
    z.object({
      id: UuidSchema,
      at: InstantSchema,
      actor: z.object({
        type: AuditActorTypeSchema,
        id: UuidSchema.nullable().describe("the staff user's or candidate's id; null for the API token and the system"),
        name: z.string().nullable().describe("their name on record now"),
        email: z.string().nullable(),
      }),
      action: z.string().describe("one of the kinds in lib/shared/audit-actions.ts"),
      examId: UuidSchema.nullable(),
      examTitle: z.string().nullable().describe("the exam's title now, or at its deletion"),
      candidate: AuditPersonSchema.nullable().describe("the candidate the event is about"),
      staffMember: AuditPersonSchema.nullable().describe("the staff member the event is about"),
      attemptId: UuidSchema.nullable(),
      data: z.record(z.string(), z.unknown()).describe("the kind's own facts (counts, seconds, reason, ...)"),
    }),
  ),
  nextCursor: z.string().nullable().describe("pass as `cursor` for the next (older) page; null at the end"),
}) satisfies z.ZodType<AuditPage>;
