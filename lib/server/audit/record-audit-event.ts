import "server-only";

import type { AuditAction } from "@/lib/shared/audit-actions";

import type { AuditActor } from "../auth/actor";
import { db, type Prisma } from "../db/client";

/**
 * Appends one row to the audit trail, inside the caller's transaction when it passes `client`, so the entry
 * exists exactly when the change does. Rows are never updated or deleted: a trigger refuses it
 * (prisma/migrations/20261201160000_audit_log, ADR 014).
 */
export async function recordAuditEvent(
  options: {
    actor: AuditActor;
    action: AuditAction;
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
