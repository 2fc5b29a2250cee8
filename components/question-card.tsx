import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { LIMITS } from "@/lib/shared/limits";
import type { CandidateQuestion, QuestionType } from "@/lib/shared/schemas/exams";

import styles from "./question-card.module.css";

/** How to answer each type, in the reader's language (common.answerHints). */
export function useAnswerHint(): (type: QuestionType) => string {
  const t = useTranslations("common.answerHints");
  return (type) =>
    type === "short_text"
      ? t(type, { max: LIMITS.shortTextChars })
      : type === "essay"
        ? t(type, { max: LIMITS.essayChars })
        : t(type);
}

/**
 * A question's head, wherever a question is shown (exam page, paper, preview, staff pages): its number as the
 * heading the article is labelled by, then its type and points; `children` adds marks after them (flagged).
 */
export function QuestionHead({
  id,
  question,
  level,
  isFocusable = false,
  children,
}: {
  id: string;
  question: Pick<CandidateQuestion, "position" | "type" | "points">;
  level: 2 | 3;
  /** The heading takes focus when the candidate jumps to the question. */
  isFocusable?: boolean;
  children?: ReactNode;
}) {
  const tc = useTranslations("common");
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <header className="question__head">
      <Heading id={id} className="question__title" tabIndex={isFocusable ? -1 : undefined}>
        {tc("question.heading", { position: question.position })}
      </Heading>
      <span className="question__meta">
        {tc(`questionTypes.${question.type}`)} · {tc("question.points", { points: question.points })}
      </span>
      {children}
    </header>
  );
}

/** A question as the card shows it: the candidate's view (staff pass the key separately). */
export type QuestionCardQuestion = CandidateQuestion;

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
  const t = useTranslations("common.question");
  const answerHint = useAnswerHint();
  const headingId = `question-${question.id}`;
  return (
    <li className="question">
      <article aria-labelledby={headingId}>
        <QuestionHead id={headingId} question={question} level={headingLevel} />
        <p className="question__prompt">{question.prompt}</p>
        {question.options && question.options.length > 0 ? (
          <ul className={styles.options} aria-label={t("optionsFor", { position: question.position })}>
            {question.options.map((option) => {
              const isKey = keyOptionIds.includes(option.id);
              return (
                <li key={option.id} className={isKey ? `${styles.option} ${styles.key}` : styles.option}>
                  <span className={styles.id}>{option.id}</span>
                  <span className={styles.label}>{option.label}</span>
                  {isKey ? <span className={styles.keyMark}>{t("answerKey")}</span> : null}
                </li>
              );
            })}
          </ul>
        ) : null}
        <p className="question__hint muted">{answerHint(question.type)}</p>
        {children}
      </article>
    </li>
  );
}
