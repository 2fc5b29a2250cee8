/**
 * Every kind of audit event, in one list: `recordAuditEvent` accepts only these, the audit API's `action`
 * filter checks against them, and the audit page has a sentence for each (messages/<locale>/audit.json,
 * `sentences`). A new staff action adds its kind here, its sentence in both languages, and records it in the
 * same transaction as the change (docs/admin-api.md, "Audit log").
 */
export const AUDIT_ACTIONS = [
  // Exams
  "exam.created",
  "exam.updated",
  "exam.status_changed",
  "exam.duplicated",
  "exam.deleted",
  // Enrollment and join links
  "candidates.enrolled",
  "candidates.imported",
  "enrollment.join_link_revoked",
  "enrollment.join_link_reissued",
  "enrollment.extra_time_lowered",
  // During the exam
  "attempt.extended",
  "attempt.force_submitted",
  "announcement.sent",
  "attempt.reopened",
  "emergency_export.imported",
  "exam.paused",
  "exam.resumed",
  // Results
  "grade.saved",
  "results.released",
  "results.withdrawn",
  "results.regraded",
  "late_answer.accepted",
  "late_answer.rejected",
  // Results delivery (webhooks)
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "delivery.retried",
  "delivery.cancelled",
  "endpoint.retried",
  // Proctors, graders and staff accounts
  "proctor.assigned",
  "proctor.unassigned",
  "grader.assigned",
  "grader.unassigned",
  "staff.created",
  "staff.disabled",
  "staff.enabled",
  "staff.password_reset",
  "staff.password_changed",
  "staff.signed_in",
  "staff.signed_out_everywhere",
  // Candidates' own steps
  "candidate.joined",
  "attempt.started",
  "attempt.submitted",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** Who an audit event names as its actor. */
export const AUDIT_ACTOR_TYPES = ["staff", "candidate", "api-token", "system"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];
