"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";

import { formatClock } from "@/lib/client/proctor/describe";
import { forceSubmit } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";

import { ModalDialog } from "./modal-dialog";

/** Confirms, in words, what a force-submit does; the endpoint is idempotent, so pressing twice is harmless. */
export function ForceSubmitDialog({
  examId,
  attemptId,
  name,
  onClose,
}: {
  examId: string;
  attemptId: string;
  name: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => forceSubmit(attemptId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: proctorKeys.exam(examId) }),
  });
  const result = mutation.data;

  return (
    <ModalDialog title={`Force submit for ${name}`} onClose={onClose}>
      {result ? (
        <p role="status">
          {result.alreadySubmitted ? "This attempt was already submitted" : "Submitted"} at{" "}
          {formatClock(new Date(result.submittedAt).getTime())}
          {result.source ? ` (by ${result.source})` : ""}. Digest <code>{result.digest.slice(0, 12)}…</code>
        </p>
      ) : (
        <>
          <p>
            This submits {name}&rsquo;s attempt now, with the answers the server holds. Their page ends on its submitted
            screen and they can no longer change answers. Anything still only on their device arrives later as a late
            answer, kept for you to review. It cannot be undone.
          </p>
          <p className="form-error" role="alert">
            {mutation.error ? mutation.error.message : ""}
          </p>
        </>
      )}
      <div className="modal__actions">
        {result ? (
          <button type="button" className="button button--primary" onClick={onClose}>
            Close
          </button>
        ) : (
          <>
            <button type="button" className="button button--quiet" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={mutation.isPending}
              onClick={() => mutation.mutate()}
            >
              {mutation.isPending ? "Submitting…" : "Force submit now"}
            </button>
          </>
        )}
      </div>
    </ModalDialog>
  );
}
