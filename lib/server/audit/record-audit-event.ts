import "server-only";

import { db, type Prisma } from "../db/client";

export type AuditActor =
  { type: "staff"; id: string } | { type: "candidate"; id: string } | { type: "api-token" } | { type: "system" };

/** Appends one row to the audit trail. Audit rows are never updated or deleted by the app. */
export async function recordAuditEvent(
  options: {
    actor: AuditActor;
    action: string;
    examId?: string;
    enrollmentId?: string;
    attemptId?: string;
    data?: Prisma.InputJsonObject;
  },
  client: Pick<typeof db, "auditEvent"> = db,
): Promise<void> {
  await client.auditEvent.create({
    data: {
      actorType: options.actor.type,
      actorId: "id" in options.actor ? options.actor.id : null,
      action: options.action,
      examId: options.examId ?? null,
      enrollmentId: options.enrollmentId ?? null,
      attemptId: options.attemptId ?? null,
      data: options.data ?? {},
    },
  });
}
