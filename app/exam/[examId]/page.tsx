import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { CandidateHeader } from "@/components/site-header";
import { StartAttemptButton } from "@/components/start-attempt-button";
import { currentCandidate } from "@/lib/server/auth/current-principal";
import { findExamForCandidate, type CandidateExam } from "@/lib/server/exams/find-exam-for-candidate";
import { formatDuration, formatInstant, formatWindow } from "@/lib/shared/format";

// TODO(i18n, issue 11): translated by the candidate pass.
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

export const metadata: Metadata = { title: "Your exam" };

type Props = { params: Promise<{ examId: string }> };

/** What the candidate can do now: start, resume, read their submitted paper, or wait. */
function NextStep({ exam }: { exam: CandidateExam }) {
  const { attempt } = exam;
  if (attempt?.status === "submitted") {
    return (
      <div className="next-step">
        <p>You have submitted this exam. Thank you.</p>
        <Link className="button" href={`/attempts/${attempt.id}`}>
          View your paper
        </Link>
      </div>
    );
  }
  if (attempt) {
    return (
      <div className="next-step">
        <p>
          Your exam is under way. Your deadline is <strong>{formatInstant(attempt.deadline, L, Z)}</strong> (server
          time).
        </p>
        <StartAttemptButton examId={exam.id} label="Resume" />
      </div>
    );
  }
  if (exam.availability === "closed") {
    return (
      <div className="next-step">
        <p className="notice notice--warn">This exam has closed. It can no longer be started.</p>
      </div>
    );
  }
  if (exam.availability === "not_open") {
    return (
      <div className="next-step">
        <p className="notice">
          This exam is not open yet.
          {exam.opensAt
            ? ` It opens at ${formatInstant(exam.opensAt, L, Z)}; come back then and reload this page.`
            : " Your organiser will open it; reload this page then."}
        </p>
      </div>
    );
  }
  const total = exam.durationSeconds + exam.extraSeconds;
  return (
    <div className="next-step">
      <p>
        Your time starts when you press Start: you will have {formatDuration(total, L)}
        {exam.closesAt ? `, and at the latest until the exam closes at ${formatInstant(exam.closesAt, L, Z)}` : ""}.
      </p>
      <StartAttemptButton examId={exam.id} label="Start" />
    </div>
  );
}

export default async function ExamStartPage({ params }: Props) {
  const { examId } = await params;
  const candidate = await currentCandidate();
  if (!candidate || !UuidSchema.safeParse(examId).success) notFound();
  const exam = await findExamForCandidate({ examId, candidate });
  if (!exam) notFound();

  return (
    <>
      <CandidateHeader name={candidate.name} />
      <main className="page page--reading">
        <p className="eyebrow">Your exam</p>
        <h1>{exam.title}</h1>
        {exam.description ? <p className="prose">{exam.description}</p> : null}

        <dl className="facts">
          <div>
            <dt>Duration</dt>
            <dd>
              {formatDuration(exam.durationSeconds, L)}
              {exam.extraSeconds > 0 ? <>, plus {formatDuration(exam.extraSeconds, L)} extra time for you</> : null}
            </dd>
          </div>
          <div>
            <dt>Questions</dt>
            <dd>{exam.questionCount}</dd>
          </div>
          <div className="facts__wide">
            <dt>When</dt>
            <dd>{formatWindow(exam.opensAt, exam.closesAt, W, L, Z)}</dd>
          </div>
        </dl>

        <section aria-labelledby="rules-heading">
          <h2 id="rules-heading">Rules</h2>
          {exam.rules ? (
            <p className="prose">{exam.rules}</p>
          ) : (
            <p className="muted">Your organiser set no extra rules.</p>
          )}
          <p className="muted">
            The deadline is kept by the server, not by your device&apos;s clock. If you switch devices, open your join
            link on the new one and choose Resume.
          </p>
          <p>
            <Link href={`/exam/${exam.id}/check`}>Check this device</Link> before you start: it takes a few seconds.
          </p>
        </section>

        <NextStep exam={exam} />
      </main>
    </>
  );
}
