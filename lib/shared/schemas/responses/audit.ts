import { z } from "@/lib/shared/zod";

import { UuidSchema } from "@/lib/shared/schemas/attempts";
import { AuditActorTypeSchema, type AuditPage } from "@/lib/shared/schemas/audit";

import { Instant } from "./common";

/**
 * The audit log's pages. The 200/201 bodies as zod schemas, for the routes' documentation (their `doc`, docs/api.md)
 * and for clients that read them; each `satisfies` the type the server builds its answer with, so the two cannot
 * drift apart.
 */

const AuditPersonSchema = z.object({ id: UuidSchema, name: z.string(), email: z.string() });

export const AuditPageSchema = z.object({
  entries: z.array(
    z.object({
      id: UuidSchema,
      at: Instant,
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
