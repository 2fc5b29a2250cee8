"use client";

import type { SyncSnapshot } from "@/lib/client/sync/sync-state";
import { formatInstant } from "@/lib/shared/format";

import { EmergencyExport } from "./emergency-export-button";
import { Icon } from "./icons";

type Receipt = {
  attemptId: string;
  submissionId: string | null;
  submittedAt: string | null;
  digest: string | null;
  receipt: string | null;
  examTitle: string | null;
};

function receiptOf(state: SyncSnapshot): Receipt {
  const response = state.submitResponse;
  const elsewhere = state.submittedElsewhere;
  return {
    attemptId: state.attemptId,
    submissionId: response?.submissionId ?? elsewhere?.submissionId ?? state.closed?.submissionId ?? null,
    submittedAt: response?.submittedAt ?? elsewhere?.submittedAt ?? state.closed?.submittedAt ?? null,
    digest: response?.digest ?? elsewhere?.digest ?? state.closed?.digest ?? null,
    receipt: response?.receipt ?? null,
    examTitle: state.examTitle,
  };
}

function downloadReceipt(receipt: Receipt) {
  const blob = new Blob([`${JSON.stringify(receipt, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `holdfast-receipt-${receipt.attemptId}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Answers that reached the server only after the paper was frozen: kept there as late answers. */
function LateAnswersNote({ state }: { state: SyncSnapshot }) {
  const late = Object.values(state.answers).filter((answer) => answer.status === "late").length;
  if (late === 0) return null;
  return (
    <p className="notice">
      {late} {late === 1 ? "answer" : "answers"} from this device reached the server after the paper was frozen.{" "}
      {late === 1 ? "It is" : "They are"} not part of the submitted paper, but the server kept{" "}
      {late === 1 ? "it" : "them"} as late {late === 1 ? "answer" : "answers"} with the time{" "}
      {late === 1 ? "it" : "they"} arrived; your proctor can see {late === 1 ? "it" : "them"} and decide.
    </p>
  );
}

/** The end of the exam: the receipt when submitted, or an honest word when the exam closed otherwise. */
export function FinalScreen({ state }: { state: SyncSnapshot }) {
  const isSubmitted =
    state.submitState === "submitted" ||
    state.closed?.reason === "ALREADY_SUBMITTED" ||
    state.submittedElsewhere !== null;
  const receipt = receiptOf(state);

  if (!isSubmitted) {
    return (
      <section className="final" aria-labelledby="final-title">
        <h2 id="final-title">This exam has closed</h2>
        <p>
          The deadline has passed. The server submitted the answers it held at the deadline; answers can no longer
          change.
        </p>
        <LateAnswersNote state={state} />
        {state.pendingCount > 0 ? (
          <p className="notice notice--warn">
            {state.pendingCount} {state.pendingCount === 1 ? "answer" : "answers"} on this device had not reached the
            server. {state.pendingCount === 1 ? "It is" : "They are"} kept on this device; tell your proctor.
          </p>
        ) : null}
        {state.pendingCount > 0 ? (
          <EmergencyExport attemptId={state.attemptId} pendingCount={state.pendingCount} headingLevel={3} />
        ) : null}
      </section>
    );
  }

  const isOurs = state.submitResponse !== null;
  return (
    <section className="final" aria-labelledby="final-title">
      <p className="final__badge">
        <Icon name="saved" /> Submitted
      </p>
      <h2 id="final-title">Your answers were submitted</h2>
      {!isOurs ? (
        <p>Your paper was submitted from another device, by your proctor, or by the server at the deadline.</p>
      ) : null}
      <dl className="facts final__facts">
        <div>
          <dt>Submitted at</dt>
          <dd>{receipt.submittedAt ? formatInstant(receipt.submittedAt, "en", "UTC") : "Not known on this device"}</dd>
        </div>
        <div className="facts__wide">
          <dt>Submission id</dt>
          <dd>
            <code>{receipt.submissionId ?? "Not known on this device"}</code>
          </dd>
        </div>
        <div className="facts__wide">
          <dt>Digest of your paper (SHA-256)</dt>
          <dd>
            <code className="digest">{receipt.digest ?? "Not known on this device"}</code>
          </dd>
        </div>
      </dl>
      <LateAnswersNote state={state} />
      {state.digestMismatch ? (
        <p className="notice notice--warn">
          The paper the server received differs from what this device holds. Your proctor can see this; keep this
          receipt.
        </p>
      ) : null}
      {state.pendingCount > 0 ? (
        <EmergencyExport attemptId={state.attemptId} pendingCount={state.pendingCount} headingLevel={3} />
      ) : null}
      <p>
        <button type="button" className="button button--primary" onClick={() => downloadReceipt(receipt)}>
          Download receipt
        </button>
      </p>
      <p className="muted">
        {receipt.receipt
          ? "The receipt is signed by the server: it proves what was submitted and when."
          : "The server's signed receipt is kept by the device that submitted; this file records what this device knows."}{" "}
        You can close this page.
      </p>
    </section>
  );
}
