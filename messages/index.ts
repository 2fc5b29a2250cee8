import type { AppLocale } from "@/lib/shared/i18n/locales";

import enApidocs from "./en/apidocs.json";
import enAccount from "./en/account.json";
import enAudit from "./en/audit.json";
import enAuthoring from "./en/authoring.json";
import enCandidate from "./en/candidate.json";
import enCommon from "./en/common.json";
import enEnrollment from "./en/enrollment.json";
import enErrors from "./en/errors.json";
import enExam from "./en/exam.json";
import enGrading from "./en/grading.json";
import enProctor from "./en/proctor.json";
import enStaff from "./en/staff.json";
import enLateAnswers from "./en/lateAnswers.json";
import enReceipts from "./en/receipts.json";
import enStatistics from "./en/statistics.json";
import enWebhooks from "./en/webhooks.json";
import zhApidocs from "./zh-CN/apidocs.json";
import zhAccount from "./zh-CN/account.json";
import zhAudit from "./zh-CN/audit.json";
import zhAuthoring from "./zh-CN/authoring.json";
import zhCandidate from "./zh-CN/candidate.json";
import zhCommon from "./zh-CN/common.json";
import zhEnrollment from "./zh-CN/enrollment.json";
import zhErrors from "./zh-CN/errors.json";
import zhExam from "./zh-CN/exam.json";
import zhGrading from "./zh-CN/grading.json";
import zhProctor from "./zh-CN/proctor.json";
import zhStaff from "./zh-CN/staff.json";
import zhLateAnswers from "./zh-CN/lateAnswers.json";
import zhReceipts from "./zh-CN/receipts.json";
import zhStatistics from "./zh-CN/statistics.json";
import zhWebhooks from "./zh-CN/webhooks.json";

/**
 * Every interface message, by locale and namespace. A namespace is the set of messages one part of the
 * interface needs, so a page hands its client components only their own (see `pickMessages`):
 * - common: header, language switch, time-zone note, shared words (every page)
 * - errors: the sentence for each API error code and the field names of validation errors
 * - candidate: start, check, join-problem and not-found pages for candidates
 * - exam: the exam page (its client component travels with the page the service worker keeps)
 * - staff: sign-in, the admin and proctor lists
 * - proctor: the live dashboard
 * - apidocs: the staff's API reference page (/admin/api)
 * - enrollment: the admin's candidates page (add, CSV import, join links, extra time) and join slips
 * - account: a staff member's own account page, the admin's staff accounts page and exam proctors
 * - authoring: the exam editor, its preview, and the status and actions of an exam
 * - audit: the admin's audit log page (/admin/audit): filters, and one sentence per kind of event
 * - lateAnswers: an exam's late-answers page (/admin/exams/[examId]/late-answers) and its decision dialog
 * - receipts: the receipt verifier (/admin/receipts)
 * - grading: the grading overview, a question's grading queue and the disagreements to settle
 * - statistics: an exam's results page (/admin/exams/{examId}/results): release, downloads, figures, charts
 * - webhooks: an exam's webhook endpoints (/admin/exams/{examId}/webhooks), the deliveries and one delivery
 */
export const MESSAGES = {
  en: {
    common: enCommon,
    errors: enErrors,
    candidate: enCandidate,
    exam: enExam,
    staff: enStaff,
    proctor: enProctor,
    apidocs: enApidocs,
    enrollment: enEnrollment,
    account: enAccount,
    authoring: enAuthoring,
    audit: enAudit,
    lateAnswers: enLateAnswers,
    receipts: enReceipts,
    grading: enGrading,
    statistics: enStatistics,
    webhooks: enWebhooks,
  },
  "zh-CN": {
    common: zhCommon,
    errors: zhErrors,
    candidate: zhCandidate,
    exam: zhExam,
    staff: zhStaff,
    proctor: zhProctor,
    apidocs: zhApidocs,
    enrollment: zhEnrollment,
    account: zhAccount,
    authoring: zhAuthoring,
    audit: zhAudit,
    lateAnswers: zhLateAnswers,
    receipts: zhReceipts,
    grading: zhGrading,
    statistics: zhStatistics,
    webhooks: zhWebhooks,
  },
} satisfies Record<AppLocale, Record<string, unknown>>;

export type Namespace = keyof (typeof MESSAGES)["en"];
export type Messages = (typeof MESSAGES)["en"];

/** Only the namespaces a client component tree needs, for its NextIntlClientProvider. */
export function pickMessages(locale: AppLocale, namespaces: readonly Namespace[]): Partial<Messages> {
  const all = MESSAGES[locale];
  return Object.fromEntries(namespaces.map((ns) => [ns, all[ns]]));
}
