"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";

import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import type { AnswerState, RecordedError, SubmitState } from "@/lib/client/sync/sync-state";
import { isBlankAnswer } from "@/lib/shared/answers";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import { failureOf } from "./connection-banner";

import styles from "./review-dialog.module.css";

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
  const t = useTranslations("common");
  return (
    <ul className={styles.links}>
      {items.map((question) => (
        <li key={question.id}>
          <button type="button" className="link-button" onClick={() => onJump(question.id)}>
            {t("question.heading", { position: question.position })}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The last look before submitting (a native modal <dialog>: focus is kept inside, Escape closes it). It opens
 * with focus on its title, so a screen reader starts reading from the top. "Submit now" locks on the first
 * click; the engine keeps one submit however often it is pressed.
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
  const t = useTranslations("exam.review");
  const describe = useDescribeFailure();
  const ref = useRef<HTMLDialogElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) {
      dialog.showModal();
      titleRef.current?.focus();
    }
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);

  // A cleared answer (null) is no answer.
  const unanswered = questions.filter((question) => isBlankAnswer(answers[question.id]?.value));
  const flaggedQuestions = questions.filter((question) => flagged.includes(question.id));
  const isSubmitting = submitState !== "unsubmitted";

  return (
    <dialog ref={ref} className={styles.review} aria-labelledby="review-title" onClose={onClose}>
      <h2 id="review-title" ref={titleRef} tabIndex={-1}>
        {t("title")}
      </h2>
      <p>{t("answered", { answered: questions.length - unanswered.length, total: questions.length })}</p>
      {unanswered.length > 0 ? (
        <section aria-labelledby="review-unanswered">
          <h3 id="review-unanswered">{t("notAnswered", { count: unanswered.length })}</h3>
          <QuestionLinks items={unanswered} onJump={onJump} />
        </section>
      ) : (
        <p>{t("allAnswered")}</p>
      )}
      {flaggedQuestions.length > 0 ? (
        <section aria-labelledby="review-flagged">
          <h3 id="review-flagged">{t("flagged", { count: flaggedQuestions.length })}</h3>
          <QuestionLinks items={flaggedQuestions} onJump={onJump} />
        </section>
      ) : null}
      {pendingCount > 0 ? <p className="notice">{t("pending", { count: pendingCount })}</p> : null}
      <p>{t("final")}</p>
      {submitError ? (
        <p className="notice notice--warn" role="alert">
          {t("refused", { reason: describe(failureOf(submitError)) })}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button
          type="button"
          className="button button--primary"
          disabled={isSubmitting && !submitError}
          onClick={onSubmit}
        >
          {isSubmitting && !submitError ? t("submitting") : t("submit")}
        </button>
        <button type="button" className="button" onClick={onClose} disabled={isSubmitting && !submitError}>
          {t("back")}
        </button>
      </div>
    </dialog>
  );
}
