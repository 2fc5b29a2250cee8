import type { AnswerState } from "@/lib/client/sync/sync-state";

import { Icon } from "./icons";

/** What the candidate reads about one question's answer: words first, the icon only repeats them. */
export function saveStatusText(answer: AnswerState | undefined): string {
  if (!answer) return "Not answered yet";
  switch (answer.status) {
    case "saved":
      return "Saved to server";
    case "pending":
      return "On this device, waiting to send";
    case "rejected":
      return "Not accepted by the server";
    case "late":
      return "Reached the server after the exam closed: kept as a late answer";
  }
}

export function SaveStatus({ answer, id }: { answer: AnswerState | undefined; id?: string }) {
  const kind = answer ? answer.status : "empty";
  return (
    <p className={`save-status save-status--${kind}`} id={id}>
      <Icon name={kind} />
      <span>{saveStatusText(answer)}</span>
      {answer?.status === "rejected" ? (
        <span className="save-status__detail">
          {answer.message ? `${answer.message}. ` : ""}Your answer is kept on this device; change it to send it again.
        </span>
      ) : null}
    </p>
  );
}
