import Link from "next/link";

import { EXAM_STATUS_LABELS, formatDuration, formatWindow } from "@/lib/shared/format";
import type { ExamStatus } from "@/lib/shared/schemas/exams";

export type ExamRow = {
  id: string;
  title: string;
  status: ExamStatus;
  durationSeconds: number;
  opensAt: Date | null;
  closesAt: Date | null;
  questionCount: number;
  candidateCount: number;
  startedCount: number;
  submittedCount: number;
};

export function StatusBadge({ status }: { status: ExamStatus }) {
  return <span className={`badge badge--${status}`}>{EXAM_STATUS_LABELS[status]}</span>;
}

/**
 * Exams with their counts (one card per exam on a phone). Titles link to the exam's admin page (`"admin"`)
 * or its live proctoring dashboard (`"proctor"`).
 */
export function ExamsTable({ exams, linkTo, label }: { exams: ExamRow[]; linkTo: "admin" | "proctor"; label: string }) {
  return (
    <div className="table-wrap table-wrap--stack" role="region" aria-label={label} tabIndex={0}>
      <table className="data data--stack">
        <thead>
          <tr>
            <th scope="col">Exam</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Window</th>
            <th scope="col" className="num">
              Questions
            </th>
            <th scope="col" className="num">
              Candidates
            </th>
            <th scope="col" className="num">
              Started
            </th>
            <th scope="col" className="num">
              Submitted
            </th>
          </tr>
        </thead>
        <tbody>
          {exams.map((exam) => (
            <tr key={exam.id}>
              <th scope="row" className="title-cell">
                <Link href={linkTo === "admin" ? `/admin/exams/${exam.id}` : `/proctor/exams/${exam.id}`}>
                  {exam.title}
                </Link>
              </th>
              <td data-label="Status">
                <StatusBadge status={exam.status} />
              </td>
              <td data-label="Duration">{formatDuration(exam.durationSeconds)}</td>
              <td data-label="Window" className="window-cell">
                {formatWindow(exam.opensAt, exam.closesAt)}
              </td>
              <td data-label="Questions" className="num">
                {exam.questionCount}
              </td>
              <td data-label="Candidates" className="num">
                {exam.candidateCount}
              </td>
              <td data-label="Started" className="num">
                {exam.startedCount}
              </td>
              <td data-label="Submitted" className="num">
                {exam.submittedCount}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
