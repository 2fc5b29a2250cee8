import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { EmergencyExportUpload } from "@/components/emergency-export-upload";
import { StatusBadge } from "@/components/exams-table";
import { QuestionCard } from "@/components/question-card";
import { StaffHeader } from "@/components/site-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import {
  findExamForStaff,
  type StaffExamCandidate,
  type StaffExamQuestion,
} from "@/lib/server/exams/find-exam-for-staff";
import { formatDuration, formatInstant, formatWindow } from "@/lib/shared/format";

// TODO(i18n, issue 11): translated by the staff pass.
const ATTEMPT_STATUS_LABELS = {
  not_started: "Not started",
  in_progress: "In progress",
  submitted: "Submitted",
} as const;
const L = "en";
const Z = "UTC";
const W = (key: string, v?: Record<string, string>) =>
  ({
    always: "Always open",
    from: `From ${v?.opensAt}`,
    until: `Until ${v?.closesAt}`,
    range: `${v?.opensAt} to ${v?.closesAt}`,
  })[key] ?? key;
import { UuidSchema } from "@/lib/shared/schemas/attempts";

export const metadata: Metadata = { title: "Exam" };

type Props = { params: Promise<{ examId: string }> };

function keyOptionIds(question: StaffExamQuestion): string[] {
  if (
    typeof question.answerKey === "string" &&
    (question.type === "single_choice" || question.type === "multiple_choice")
  ) {
    return [question.answerKey];
  }
  return Array.isArray(question.answerKey) ? question.answerKey : [];
}

/** The answer key of a question that has no options to mark, in words. */
function AnswerKeyLine({ question }: { question: StaffExamQuestion }) {
  if (question.type === "single_choice" || question.type === "multiple_choice") {
    return keyOptionIds(question).length === 0 ? <p className="answer-key">No answer key: graded by hand.</p> : null;
  }
  if (question.type === "numeric" && typeof question.answerKey === "number") {
    return (
      <p className="answer-key">
        Answer key: <strong>{question.answerKey}</strong>
        {question.tolerance ? ` (± ${question.tolerance})` : ""}
      </p>
    );
  }
  if (question.type === "short_text" && typeof question.answerKey === "string") {
    return (
      <p className="answer-key">
        Accepted answer: <strong>{question.answerKey}</strong>
      </p>
    );
  }
  return <p className="answer-key">No answer key: graded by hand.</p>;
}

function AttemptCell({ attempt }: { attempt: StaffExamCandidate["attempt"] }) {
  if (!attempt) return <>{ATTEMPT_STATUS_LABELS.not_started}</>;
  if (attempt.status === "submitted") {
    return (
      <>
        {ATTEMPT_STATUS_LABELS.submitted}
        {attempt.submittedAt ? <span className="muted"> {formatInstant(attempt.submittedAt, L, Z)}</span> : null}
      </>
    );
  }
  return (
    <>
      {ATTEMPT_STATUS_LABELS.in_progress}
      <span className="muted"> until {formatInstant(attempt.deadline, L, Z)}</span>
    </>
  );
}

export default async function AdminExamPage({ params }: Props) {
  const { examId } = await params;
  const staff = await requireStaff({ path: `/admin/exams/${encodeURIComponent(examId)}`, role: "admin" });
  if (!UuidSchema.safeParse(examId).success) notFound();
  const exam = await findExamForStaff({ examId, staff });
  if (!exam) notFound();

  return (
    <>
      <StaffHeader staff={staff} current="admin" />
      <main className="page">
        <p className="breadcrumb">
          <Link href="/admin">All exams</Link>
        </p>
        <h1>{exam.title}</h1>
        <p>
          <Link href={`/proctor/exams/${exam.id}`}>Open the live proctoring dashboard</Link>
        </p>
        {exam.description ? <p className="prose">{exam.description}</p> : null}

        <dl className="facts">
          <div>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={exam.status} />
            </dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd>{formatDuration(exam.durationSeconds, L)}</dd>
          </div>
          <div>
            <dt>Grace period</dt>
            <dd>{formatDuration(exam.graceSeconds, L)}</dd>
          </div>
          <div>
            <dt>Window</dt>
            <dd>{formatWindow(exam.opensAt, exam.closesAt, W, L, Z)}</dd>
          </div>
        </dl>

        {exam.rules ? (
          <section aria-labelledby="rules-heading">
            <h2 id="rules-heading">Rules</h2>
            <p className="prose">{exam.rules}</p>
          </section>
        ) : null}

        <section aria-labelledby="questions-heading">
          <h2 id="questions-heading">Questions ({exam.questions.length})</h2>
          <p className="muted">Answer keys are shown to staff only; candidates never receive them.</p>
          <ol className="questions" aria-labelledby="questions-heading">
            {exam.questions.map((question) => (
              <QuestionCard
                key={question.id}
                question={question}
                headingLevel={3}
                keyOptionIds={keyOptionIds(question)}
              >
                <AnswerKeyLine question={question} />
              </QuestionCard>
            ))}
          </ol>
        </section>

        <section aria-labelledby="candidates-heading">
          <h2 id="candidates-heading">Candidates ({exam.candidates.length})</h2>
          {exam.candidates.length === 0 ? (
            <p className="notice">
              No candidates yet. Enroll them with <code>POST /api/admin/exams/{exam.id}/candidates</code>.
            </p>
          ) : (
            <>
              <p className="muted">
                Each join link is that candidate&apos;s personal credential: send it only to them. It works on any of
                their devices until the exam closes.
              </p>
              <div className="table-wrap table-wrap--stack" role="region" aria-label="Candidates" tabIndex={0}>
                <table className="data data--stack">
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Email</th>
                      <th scope="col">Extra time</th>
                      <th scope="col">Attempt</th>
                      <th scope="col">Join link</th>
                    </tr>
                  </thead>
                  <tbody>
                    {exam.candidates.map((candidate) => (
                      <tr key={candidate.id}>
                        <th scope="row" className="name-cell">
                          {candidate.name}
                        </th>
                        <td data-label="Email" className="email-cell">
                          {candidate.email}
                        </td>
                        <td data-label="Extra time">
                          {candidate.extraSeconds > 0 ? formatDuration(candidate.extraSeconds, L) : "None"}
                        </td>
                        <td data-label="Attempt">
                          <AttemptCell attempt={candidate.attempt} />
                        </td>
                        <td data-label="Join link" className="join-cell">
                          {candidate.joinUrl ? (
                            <code className="join-url">{candidate.joinUrl}</code>
                          ) : (
                            <span className="muted">Revoked</span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </section>

        <section aria-labelledby="emergency-upload-heading">
          <h2 id="emergency-upload-heading">Emergency files</h2>
          <p className="muted">
            A candidate whose time ran out with answers stuck on their device can download an encrypted emergency file
            from the exam page. Upload it here: answers for a running attempt are applied like an autosave (the newest
            edit wins); answers for a closed attempt are kept as late answers and never change the submitted paper.
          </p>
          <EmergencyExportUpload examId={exam.id} />
        </section>
      </main>
    </>
  );
}
