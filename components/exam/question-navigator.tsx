"use client";

import type { AnswerState } from "@/lib/client/sync/sync-state";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import { Icon } from "./icons";
import { saveStatusText } from "./save-status";

type Props = {
  questions: readonly CandidateQuestion[];
  answers: Readonly<Record<string, AnswerState>>;
  flagged: readonly string[];
  onJump: (questionId: string) => void;
};

/** Everything a numbered button says, for screen readers: "Question 2: answered, saved to server, flagged". */
function describe(question: CandidateQuestion, answer: AnswerState | undefined, isFlagged: boolean): string {
  const parts = [`Question ${question.position}`];
  parts.push(answer ? `answered, ${saveStatusText(answer).toLowerCase()}` : "not answered");
  if (isFlagged) parts.push("flagged");
  return `${parts[0]}: ${parts.slice(1).join(", ")}`;
}

/** Numbered buttons, one per question, showing answered / flagged / not answered and the save state. */
export function QuestionNavigator({ questions, answers, flagged, onJump }: Props) {
  const answeredCount = questions.filter((question) => answers[question.id] !== undefined).length;
  return (
    <nav className="navigator" aria-label="Question navigator">
      <h2 className="navigator__title">
        Questions{" "}
        <span className="muted">
          · {answeredCount} of {questions.length} answered
        </span>
      </h2>
      <ol className="navigator__list">
        {questions.map((question) => {
          const answer = answers[question.id];
          const isFlagged = flagged.includes(question.id);
          const kind = answer ? answer.status : "empty";
          return (
            <li key={question.id}>
              <button
                type="button"
                className={`navigator__button navigator__button--${kind}`}
                aria-label={describe(question, answer, isFlagged)}
                onClick={() => onJump(question.id)}
              >
                <span className="navigator__number">{question.position}</span>
                <span className="navigator__marks">
                  <Icon name={kind} />
                  {isFlagged ? <Icon name="flag" /> : null}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
      <p className="navigator__legend muted">
        <span>
          <Icon name="saved" /> saved to server
        </span>
        <span>
          <Icon name="pending" /> on this device, waiting
        </span>
        <span>
          <Icon name="empty" /> not answered
        </span>
        <span>
          <Icon name="flag" /> flagged
        </span>
      </p>
    </nav>
  );
}
