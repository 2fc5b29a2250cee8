import type { ReactNode } from "react";

import { QUESTION_TYPE_LABELS } from "@/lib/shared/format";
import { LIMITS } from "@/lib/shared/limits";
import type { Option, QuestionType } from "@/lib/shared/schemas/exams";

const ANSWER_HINTS: Record<QuestionType, string> = {
  single_choice: "Choose one option.",
  multiple_choice: "Choose every option that applies.",
  short_text: `A short written answer, up to ${LIMITS.shortTextChars.toLocaleString("en-GB")} characters.`,
  essay: `A written answer, up to ${LIMITS.essayChars.toLocaleString("en-GB")} characters.`,
  numeric: "A number.",
};

export type QuestionCardQuestion = {
  id: string;
  position: number;
  type: QuestionType;
  prompt: string;
  points: number;
  options?: Option[];
};

/**
 * One question, read-only: number, type, points, prompt and options. Staff pages pass `keyOptionIds` to
 * mark the answer key (in words, not only colour); `children` adds a line below (a key, a saved answer).
 */
export function QuestionCard({
  question,
  headingLevel,
  keyOptionIds = [],
  children,
}: {
  question: QuestionCardQuestion;
  headingLevel: 2 | 3;
  keyOptionIds?: readonly string[];
  children?: ReactNode;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const headingId = `question-${question.id}`;
  return (
    <li className="question">
      <article aria-labelledby={headingId}>
        <header className="question__head">
          <Heading id={headingId} className="question__title">
            Question {question.position}
          </Heading>
          <span className="question__meta">
            {QUESTION_TYPE_LABELS[question.type]} · {question.points} {question.points === 1 ? "point" : "points"}
          </span>
        </header>
        <p className="question__prompt">{question.prompt}</p>
        {question.options && question.options.length > 0 ? (
          <ul className="options" aria-label={`Options for question ${question.position}`}>
            {question.options.map((option) => {
              const isKey = keyOptionIds.includes(option.id);
              return (
                <li key={option.id} className={isKey ? "option option--key" : "option"}>
                  <span className="option__id">{option.id}</span>
                  <span className="option__label">{option.label}</span>
                  {isKey ? <span className="key-mark">Answer key</span> : null}
                </li>
              );
            })}
          </ul>
        ) : null}
        <p className="question__hint muted">{ANSWER_HINTS[question.type]}</p>
        {children}
      </article>
    </li>
  );
}
