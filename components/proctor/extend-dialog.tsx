"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { formatClock } from "@/lib/client/proctor/describe";
import { extendAttempt, extendMany } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import type { BulkExtendResult, ExtendResponse } from "@/lib/shared/schemas/proctor-actions";

import { ModalDialog } from "./modal-dialog";

const PRESET_MINUTES = [5, 10, 15, 30] as const;

export type ExtendTarget =
  /** `id`: the attempt's, or the enrollment's before the candidate starts. */
  { kind: "one"; id: string; name: string } | { kind: "many"; enrollmentIds: string[] };

type Done = { kind: "one"; result: ExtendResponse } | { kind: "many"; results: BulkExtendResult[] };

/**
 * "Extend time" for one candidate or a selection: a preset or custom minutes and a required reason. The
 * server's own error sentence is shown as is. A bulk submission carries one Idempotency-Key per opening of
 * the dialog (one and many alike), so a double click or a retry extends each candidate once.
 */
export function ExtendDialog({
  examId,
  target,
  onClose,
}: {
  examId: string;
  target: ExtendTarget;
  /** `hasExtended`: the request succeeded before the dialog closed (the selection can be cleared). */
  onClose: (hasExtended: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<string>("10");
  const [customMinutes, setCustomMinutes] = useState("");
  const [reason, setReason] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const [idempotencyKey] = useState(() => crypto.randomUUID());

  const mutation = useMutation({
    mutationFn: async (body: { seconds: number; reason: string }): Promise<Done> => {
      if (target.kind === "one") {
        return { kind: "one", result: await extendAttempt(target.id, body, idempotencyKey) };
      }
      const result = await extendMany(examId, { ...body, enrollmentIds: target.enrollmentIds }, idempotencyKey);
      return { kind: "many", results: result.results };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: proctorKeys.exam(examId) }),
  });
  const close = () => onClose(mutation.isSuccess);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const minutes = choice === "custom" ? Number(customMinutes) : Number(choice);
    if (!Number.isInteger(minutes) || minutes < 1) {
      setFormError("Enter a whole number of minutes, 1 or more.");
      return;
    }
    if (reason.trim().length === 0) {
      setFormError("Give a reason: it is kept in the audit log with your name.");
      return;
    }
    setFormError(null);
    mutation.mutate({ seconds: minutes * 60, reason: reason.trim() });
  };

  const title =
    target.kind === "one"
      ? `Extend time for ${target.name}`
      : `Extend time for ${target.enrollmentIds.length} ${target.enrollmentIds.length === 1 ? "candidate" : "candidates"}`;
  const error = formError ?? (mutation.error ? mutation.error.message : null);

  return (
    <ModalDialog title={title} onClose={close}>
      {mutation.data ? (
        <>
          <ExtendResult done={mutation.data} />
          <div className="modal__actions">
            <button type="button" className="button button--primary" onClick={close}>
              Close
            </button>
          </div>
        </>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          <fieldset className="presets">
            <legend>Extra time</legend>
            {PRESET_MINUTES.map((minutes) => (
              <label key={minutes} className="preset">
                <input
                  type="radio"
                  name="minutes"
                  value={String(minutes)}
                  checked={choice === String(minutes)}
                  onChange={() => setChoice(String(minutes))}
                />
                {minutes} min
              </label>
            ))}
            <label className="preset">
              <input
                type="radio"
                name="minutes"
                value="custom"
                checked={choice === "custom"}
                onChange={() => setChoice("custom")}
              />
              Custom
            </label>
          </fieldset>
          {choice === "custom" ? (
            <div className="field">
              <label htmlFor="extend-custom">Minutes</label>
              <input
                id="extend-custom"
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={customMinutes}
                onChange={(event) => setCustomMinutes(event.target.value)}
              />
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="extend-reason">Reason</label>
            <textarea
              id="extend-reason"
              rows={3}
              required
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              placeholder="For example: fire alarm in room 2, 10 minutes lost"
            />
          </div>
          <p className="form-error" role="alert">
            {error ?? ""}
          </p>
          <div className="modal__actions">
            <button type="button" className="button button--quiet" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={mutation.isPending}>
              {mutation.isPending ? "Extending…" : "Extend"}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}

const OUTCOME_WORDS: Record<BulkExtendResult["outcome"], string> = {
  extended: "Extended",
  pending_start: "Not started yet: the time counts when they start",
  already_submitted: "Already submitted, not extended",
  not_found: "Not in this exam",
};

function ExtendResult({ done }: { done: Done }) {
  if (done.kind === "one") {
    return (
      <p role="status">
        Time extended by {Math.round(done.result.seconds / 60)} min.
        {done.result.deadline !== null
          ? ` The new deadline is ${formatClock(Date.parse(done.result.deadline))}.`
          : " It counts when the candidate starts."}
      </p>
    );
  }
  const counts = new Map<BulkExtendResult["outcome"], number>();
  for (const result of done.results) counts.set(result.outcome, (counts.get(result.outcome) ?? 0) + 1);
  return (
    <div role="status">
      <p>
        Done for {done.results.length} {done.results.length === 1 ? "candidate" : "candidates"}:
      </p>
      <ul className="outcomes">
        {[...counts].map(([outcome, count]) => (
          <li key={outcome}>
            {OUTCOME_WORDS[outcome]}: <strong>{count}</strong>
          </li>
        ))}
      </ul>
    </div>
  );
}
