"use client";

import { useTranslations } from "next-intl";
import { memo } from "react";

import type { AnswerState } from "@/lib/client/sync/sync-state";
import { isBlankAnswer } from "@/lib/shared/answers";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import { Icon } from "./icons";

import styles from "./question-navigator.module.css";

type Props = {
  questions: readonly CandidateQuestion[];
  answers: Readonly<Record<string, AnswerState>>;
  flagged: readonly string[];
  onJump: (questionId: string) => void;
};

/**
 * What the navigator shows of each answer is only whether it exists and its save state: a keystroke (a new
 * value, version or time in the same state) does not re-render the 20-odd buttons and their labels.
 */
function sameMarks(before: Props, after: Props): boolean {
  if (before.questions !== after.questions || before.flagged !== after.flagged || before.onJump !== after.onJump)
    return false;
  return after.questions.every(
    (question) =>
      before.answers[question.id]?.status === after.answers[question.id]?.status &&
      isAnswered(before.answers[question.id]) === isAnswered(after.answers[question.id]),
  );
}

/** Answered: a value that says something (a cleared answer, null, is no answer). */
function isAnswered(answer: AnswerState | undefined): answer is AnswerState {
  return answer !== undefined && !isBlankAnswer(answer.value);
}

/** Numbered buttons, one per question, showing answered / flagged / not answered and the save state. */
export const QuestionNavigator = memo(function QuestionNavigator({ questions, answers, flagged, onJump }: Props) {
  const t = useTranslations("exam.navigator");
  const answeredCount = questions.filter((question) => isAnswered(answers[question.id])).length;

  /** Everything a numbered button says, for screen readers: "Question 2: answered, saved to server, flagged". */
  function describe(question: CandidateQuestion, answer: AnswerState | undefined, isFlagged: boolean): string {
    const state = isAnswered(answer) ? t(`answered.${answer.status}`) : t("notAnswered");
    return t(isFlagged ? "buttonFlagged" : "button", { position: question.position, state });
  }

  return (
    <nav className={styles.navigator} aria-label={t("label")}>
      <h2 className={styles.title}>
        {t("title")}{" "}
        <span className="muted">· {t("answeredCount", { answered: answeredCount, total: questions.length })}</span>
      </h2>
      <ol className={styles.list}>
        {questions.map((question) => {
          const answer = answers[question.id];
          const isFlagged = flagged.includes(question.id);
          const kind = isAnswered(answer) ? answer.status : "empty";
          return (
            <li key={question.id}>
              <button
                type="button"
                className={`${styles.button} ${styles[kind]}`}
                aria-label={describe(question, answer, isFlagged)}
                onClick={() => onJump(question.id)}
              >
                <span>{question.position}</span>
                <span className={styles.marks}>
                  <Icon name={kind} />
                  {isFlagged ? <Icon name="flag" /> : null}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
      <p className={`${styles.legend} muted`}>
        <span>
          <Icon name="saved" /> {t("legendSaved")}
        </span>
        <span>
          <Icon name="pending" /> {t("legendPending")}
        </span>
        <span>
          <Icon name="empty" /> {t("legendEmpty")}
        </span>
        <span>
          <Icon name="flag" /> {t("legendFlagged")}
        </span>
      </p>
    </nav>
  );
}, sameMarks);
