import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { QuestionCard } from "@/components/question-card";
import { CandidateHeader } from "@/components/site-header";
import { findAttemptView } from "@/lib/server/attempts/attempt-view";
import { currentCandidate } from "@/lib/server/auth/current-principal";
import { formatDuration, formatInstant } from "@/lib/shared/format";
import { UuidSchema, type AnswerValue } from "@/lib/shared/schemas/attempts";

export const metadata: Metadata = { title: "Exam" };

type Props = { params: Promise<{ attemptId: string }> };

function describeAnswer(value: AnswerValue): string {
  return Array.isArray(value) ? value.join(", ") : String(value);
}

/** Time left by the server's clock when the page was rendered; the page does not tick (yet). */
function timeLeft(deadline: string, serverTime: string): string {
  const seconds = Math.floor((Date.parse(deadline) - Date.parse(serverTime)) / 1000);
  if (seconds <= 0) return "The deadline has passed.";
  const amount = seconds < 60 ? "Less than a minute" : `About ${formatDuration(Math.floor(seconds / 60) * 60)}`;
  return `${amount} left when this page loaded, at ${formatInstant(serverTime)}.`;
}

export default async function AttemptPage({ params }: Props) {
  const { attemptId } = await params;
  const candidate = await currentCandidate();
  if (!candidate || !UuidSchema.safeParse(attemptId).success) notFound();
  // Scoped to this session's enrollment: another candidate's attempt id is simply not found.
  const view = await findAttemptView({ attemptId, enrollmentId: candidate.enrollmentId });
  if (!view) notFound();

  const answers = new Map(view.answers.map((answer) => [answer.questionId, answer.value]));

  return (
    <>
      <CandidateHeader name={candidate.name} />
      <main className="page page--reading">
        <p className="eyebrow">Exam</p>
        <h1>{view.examTitle}</h1>

        <section className="deadline" aria-label="Time">
          {view.submission ? (
            <p>
              <strong>Submitted</strong> at {formatInstant(view.submission.submittedAt)}.
            </p>
          ) : (
            <>
              <p>
                Deadline: <strong>{formatInstant(view.deadline)}</strong> (server time)
              </p>
              <p className="muted">{timeLeft(view.deadline, view.serverTime)}</p>
            </>
          )}
        </section>

        <p className="quiet">This page shows your paper read-only; answering here arrives in a later release.</p>

        <ol className="questions" aria-label="Questions">
          {view.questions.map((question) => {
            const answer = answers.get(question.id);
            return (
              <QuestionCard key={question.id} question={question} headingLevel={2}>
                {answer !== undefined ? (
                  <p className="saved-answer">
                    Saved answer: <strong>{describeAnswer(answer)}</strong>
                  </p>
                ) : null}
              </QuestionCard>
            );
          })}
        </ol>
      </main>
    </>
  );
}
