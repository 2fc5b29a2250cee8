import { isAuditAction } from "./audit-actions";
import type { Translate } from "./i18n/translate";
import { formatDuration } from "./format";
import type { AuditEntry } from "./schemas/audit";
import { EXAM_STATUSES } from "./schemas/exams";
import { StaffRoleSchema } from "./schemas/staff";

const numberIn = (data: Record<string, unknown>, key: string): number => {
  const value = data[key];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
};

/** The actor's name, or what stands for an actor without one (the API token, the system, a deleted account). */
export function auditActorName(entry: AuditEntry, t: Translate): string {
  if (entry.actor.name !== null) return entry.actor.name;
  if (entry.actor.type === "api-token") return t("actors.apiToken");
  if (entry.actor.type === "system") return t("actors.system");
  return t("actors.unknown");
}

/**
 * One audit entry as a sentence in the reader's language ("Ana Admin extended Lee’s time by 10 minutes"):
 * `t` is the `audit` namespace, `tc` the `common` one. A kind without a sentence yet reads "actor: kind".
 */
export function describeAuditEntry(entry: AuditEntry, t: Translate, tc: Translate, locale: string): string {
  const data = entry.data;
  const status = (value: unknown) =>
    EXAM_STATUSES.find((known) => known === value) ? tc(`examStatus.${String(value)}`) : String(value ?? "");
  const role = StaffRoleSchema.safeParse(data.role);
  const values = {
    actor: auditActorName(entry, t),
    action: entry.action,
    candidate: entry.candidate?.name ?? t("someCandidate"),
    staff: entry.staffMember?.name ?? t("someStaff"),
    exam: entry.examTitle ?? t("someExam"),
    duration: formatDuration(Math.abs(numberIn(data, "seconds")), locale),
    count: entry.action === "candidates.imported" ? numberIn(data, "new") : numberIn(data, "count"),
    corrections: numberIn(data, "corrections"),
    version: numberIn(data, "supersededVersion"),
    from: status(data.from),
    to: status(data.to),
    role: role.success ? tc(`roles.${role.data}`) : "",
    isSelf: entry.actor.type === "candidate" ? "yes" : "other",
    recipients: data.recipients === "all" ? "all" : "other",
    excerpt: typeof data.excerpt === "string" ? data.excerpt : "",
    position: numberIn(data, "position"),
    points: numberIn(data, "points"),
    marker: typeof data.marker === "string" ? data.marker : "first",
    attempts: numberIn(data, "attempts"),
    reason: typeof data.reason === "string" ? data.reason : "",
    scope: data.scope === "selection" ? "selection" : "exam",
    url: typeof data.url === "string" ? data.url : "",
    deliveryId: typeof data.deliveryId === "string" ? data.deliveryId : "",
  };
  return isAuditAction(entry.action) ? t(`sentences.${entry.action}`, values) : t("sentences.other", values);
}
