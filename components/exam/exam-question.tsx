"use client";

import { useTranslations } from "next-intl";
import { memo } from "react";

import { QuestionHead } from "@/components/question-card";

import type { AnswerState, EditResult } from "@/lib/client/sync/sync-state";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import { AnswerControl } from "./answer-control";
import { Icon } from "./icons";
import { questionHeadingId } from "./ids";
import { SaveStatus } from "./save-status";

import styles from "./exam-question.module.css";

type Props = {
  question: CandidateQuestion;
  answer: AnswerState | undefined;
  isFlagged: boolean;
  deviceId: string | null;
  isLocked: boolean;
  /** The device's store has been read (see AnswerControl). */
  isHydrated: boolean;
  onEdit: (questionId: string, value: AnswerValue) => Promise<EditResult>;
  onToggleFlag: (questionId: string) => Promise<void>;
};

/** One question of the paper: prompt, the answer control, its save state and the review flag. */
export const ExamQuestion = memo(function ExamQuestion({
  question,
  answer,
  isFlagged,
  deviceId,
  isLocked,
  isHydrated,
  onEdit,
  onToggleFlag,
}: Props) {
  const t = useTranslations("exam.question");
  const headingId = questionHeadingId(question.id);
  const promptId = `${headingId}-prompt`;
  const statusId = `${headingId}-status`;
  return (
    <li className="question exam-question">
      <article aria-labelledby={headingId}>
        <QuestionHead id={headingId} question={question} level={2} isFocusable>
          {isFlagged ? (
            <span className={styles.flagMark}>
              <Icon name="flag" /> {t("flagged")}
            </span>
          ) : null}
        </QuestionHead>
        <p className="question__prompt" id={promptId}>
          {question.prompt}
        </p>
        <AnswerControl
          question={question}
          answer={answer}
          deviceId={deviceId}
          isLocked={isLocked}
          isHydrated={isHydrated}
          onEdit={(value) => onEdit(question.id, value)}
          describedBy={`${promptId} ${statusId}`}
        />
        <footer className={styles.foot}>
          <SaveStatus answer={answer} id={statusId} />
          {/* The label itself says whether the question is flagged, not only the pressed state. */}
          <button
            type="button"
            className={`button button--quiet ${styles.flagToggle}`}
            aria-pressed={isFlagged}
            onClick={() => void onToggleFlag(question.id)}
            disabled={isLocked}
          >
            <Icon name="flag" /> {isFlagged ? t("unflag") : t("flag")}
          </button>
        </footer>
      </article>
    </li>
  );
});
