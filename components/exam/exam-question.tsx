"use client";

import { memo } from "react";

import type { AnswerState, EditResult } from "@/lib/client/sync/sync-state";
const QUESTION_TYPE_LABELS = {
  single_choice: "Single choice",
  multiple_choice: "Multiple choice",
  short_text: "Short text",
  essay: "Essay",
  numeric: "Numeric",
} as const; // TODO(i18n, issue 11)
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import { AnswerControl } from "./answer-control";
import { Icon } from "./icons";
import { SaveStatus } from "./save-status";

export const questionHeadingId = (questionId: string) => `question-${questionId}`;

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
  const headingId = questionHeadingId(question.id);
  const promptId = `${headingId}-prompt`;
  const statusId = `${headingId}-status`;
  return (
    <li className="question exam-question">
      <article aria-labelledby={headingId}>
        <header className="question__head">
          <h2 id={headingId} className="question__title" tabIndex={-1}>
            Question {question.position}
          </h2>
          <span className="question__meta">
            {QUESTION_TYPE_LABELS[question.type]} · {question.points} {question.points === 1 ? "point" : "points"}
          </span>
          {isFlagged ? (
            <span className="flag-mark">
              <Icon name="flag" /> Flagged
            </span>
          ) : null}
        </header>
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
        <footer className="exam-question__foot">
          <SaveStatus answer={answer} id={statusId} />
          <button
            type="button"
            className="button button--quiet flag-toggle"
            aria-pressed={isFlagged}
            onClick={() => void onToggleFlag(question.id)}
            disabled={isLocked}
          >
            <Icon name="flag" /> Flag for review
          </button>
        </footer>
      </article>
    </li>
  );
});
