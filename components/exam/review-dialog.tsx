"use client";

import { useEffect, useRef } from "react";

import type { AnswerState, RecordedError, SubmitState } from "@/lib/client/sync/sync-state";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

type Props = {
  isOpen: boolean;
  questions: readonly CandidateQuestion[];
  answers: Readonly<Record<string, AnswerState>>;
  flagged: readonly string[];
  pendingCount: number;
  submitState: SubmitState;
  submitError: RecordedError | null;
  onClose: () => void;
  onSubmit: () => void;
  onJump: (questionId: string) => void;
};

function QuestionLinks({ items, onJump }: { items: readonly CandidateQuestion[]; onJump: (id: string) => void }) {
  return (
    <ul className="review__links">
      {items.map((question) => (
        <li key={question.id}>
          <button type="button" className="link-button" onClick={() => onJump(question.id)}>
            Question {question.position}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The last look before submitting (a native modal <dialog>: focus is kept inside, Escape closes it). "Submit
 * now" locks on the first click; the engine keeps one submit however often it is pressed.
 */
export function ReviewDialog({
  isOpen,
  questions,
  answers,
  flagged,
  pendingCount,
  submitState,
  submitError,
  onClose,
  onSubmit,
  onJump,
}: Props) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) dialog.showModal();
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);

  const unanswered = questions.filter((question) => answers[question.id] === undefined);
  const flaggedQuestions = questions.filter((question) => flagged.includes(question.id));
  const isSubmitting = submitState !== "unsubmitted";

  return (
    <dialog ref={ref} className="review" aria-labelledby="review-title" onClose={onClose}>
      <h2 id="review-title">Review and submit</h2>
      <p>
        You have answered {questions.length - unanswered.length} of {questions.length} questions.
      </p>
      {unanswered.length > 0 ? (
        <section aria-labelledby="review-unanswered">
          <h3 id="review-unanswered">Not answered ({unanswered.length})</h3>
          <QuestionLinks items={unanswered} onJump={onJump} />
        </section>
      ) : (
        <p>Every question has an answer.</p>
      )}
      {flaggedQuestions.length > 0 ? (
        <section aria-labelledby="review-flagged">
          <h3 id="review-flagged">Flagged for review ({flaggedQuestions.length})</h3>
          <QuestionLinks items={flaggedQuestions} onJump={onJump} />
        </section>
      ) : null}
      {pendingCount > 0 ? (
        <p className="notice">
          {pendingCount} {pendingCount === 1 ? "answer is" : "answers are"} still only on this device; submitting sends{" "}
          {pendingCount === 1 ? "it" : "them"} with your paper.
        </p>
      ) : null}
      <p>After you submit, your answers can no longer change.</p>
      {submitError ? (
        <p className="notice notice--warn" role="alert">
          The server did not accept the submission: {submitError.message} Your answers are kept on this device. Press
          Submit now to send the same paper again.
        </p>
      ) : null}
      <div className="review__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={isSubmitting && !submitError}
          onClick={onSubmit}
        >
          {isSubmitting && !submitError ? "Submitting…" : "Submit now"}
        </button>
        <button type="button" className="button" onClick={onClose} disabled={isSubmitting && !submitError}>
          Back to the exam
        </button>
      </div>
    </dialog>
  );
}
