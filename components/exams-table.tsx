import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";

import { ExamWindow } from "@/components/i18n/exam-window";
import { formatDuration, formatNumber } from "@/lib/shared/format";
import type { ExamStatus, ExamSummary } from "@/lib/shared/schemas/exams";

export function StatusBadge({ status }: { status: ExamStatus }) {
  const t = useTranslations("common");
  return <span className={`badge badge--${status}`}>{t(`examStatus.${status}`)}</span>;
}

const EXAM_LINKS = {
  admin: (id: string) => `/admin/exams/${id}`,
  proctor: (id: string) => `/proctor/exams/${id}`,
  grading: (id: string) => `/admin/exams/${id}/grading`,
} as const;

/**
 * Exams with their counts (one card per exam on a phone). Titles link to the exam's admin page (`"admin"`),
 * its live proctoring dashboard (`"proctor"`) or its grading page (`"grading"`).
 */
export function ExamsTable({
  exams,
  linkTo,
  label,
}: {
  exams: ExamSummary[];
  linkTo: "admin" | "proctor" | "grading";
  label: string;
}) {
  const t = useTranslations("common.examsTable");
  const locale = useLocale();
  const cols = {
    exam: t("exam"),
    status: t("status"),
    duration: t("duration"),
    window: t("window"),
    questions: t("questions"),
    candidates: t("candidates"),
    started: t("started"),
    submitted: t("submitted"),
  };
  return (
    <div className="table-wrap table-wrap--stack" role="region" aria-label={label} tabIndex={0}>
      <table className="data data--stack">
        <thead>
          <tr>
            <th scope="col">{cols.exam}</th>
            <th scope="col">{cols.status}</th>
            <th scope="col">{cols.duration}</th>
            <th scope="col">{cols.window}</th>
            <th scope="col" className="num">
              {cols.questions}
            </th>
            <th scope="col" className="num">
              {cols.candidates}
            </th>
            <th scope="col" className="num">
              {cols.started}
            </th>
            <th scope="col" className="num">
              {cols.submitted}
            </th>
          </tr>
        </thead>
        <tbody>
          {exams.map((exam) => (
            <tr key={exam.id}>
              <th scope="row" className="title-cell">
                <Link href={EXAM_LINKS[linkTo](exam.id)}>{exam.title}</Link>
              </th>
              <td data-label={cols.status}>
                <StatusBadge status={exam.status} />
              </td>
              <td data-label={cols.duration}>{formatDuration(exam.durationSeconds, locale)}</td>
              <td data-label={cols.window} className="window-cell">
                <ExamWindow opensAt={exam.opensAt} closesAt={exam.closesAt} />
              </td>
              <td data-label={cols.questions} className="num">
                {formatNumber(exam.questionCount, locale)}
              </td>
              <td data-label={cols.candidates} className="num">
                {formatNumber(exam.candidateCount, locale)}
              </td>
              <td data-label={cols.started} className="num">
                {formatNumber(exam.startedCount, locale)}
              </td>
              <td data-label={cols.submitted} className="num">
                {formatNumber(exam.submittedCount, locale)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
