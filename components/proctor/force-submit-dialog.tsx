"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { failureOf, forceSubmit } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { EXTEND_LIMITS } from "@/lib/shared/schemas/proctor";

import { ModalDialog } from "../modal-dialog";

/**
 * Confirms, in words, what a force-submit does, with an optional reason for the candidate's timeline; the
 * endpoint is idempotent, so pressing twice is harmless.
 */
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
  const t = useTranslations("proctor.forceSubmit");
  const tc = useTranslations("common");
  const words = useProctorWords();
  const describeFailure = useDescribeFailure();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (body: { reason?: string }) => forceSubmit(attemptId, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: proctorKeys.exam(examId) }),
  });
  const result = mutation.data;
  const error = formError ?? (mutation.error ? describeFailure(failureOf(mutation.error)) : null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    // The same bound as an extension's reason: both go to the audit log.
    if (trimmed.length > EXTEND_LIMITS.maxReasonLength) {
      setFormError(t("reasonTooLong", { max: words.number(EXTEND_LIMITS.maxReasonLength) }));
      return;
    }
    setFormError(null);
    mutation.mutate(trimmed ? { reason: trimmed } : {});
  };

  return (
    <ModalDialog title={t("title", { name })} onClose={onClose}>
      {result ? (
        <>
          <p role="status">
            {t.rich("done", {
              isAlready: result.alreadySubmitted ? "yes" : "no",
              time: words.clock(Date.parse(result.submittedAt)),
              source: result.source,
              digest: result.digest.slice(0, 12),
              code: (chunks) => <code>{chunks}</code>,
            })}
          </p>
          <div className="modal__actions">
            <button type="button" className="button button--primary" onClick={onClose}>
              {tc("close")}
            </button>
          </div>
        </>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          <p>{t("explanation", { name })}</p>
          <div className="field">
            <label htmlFor="force-submit-reason">{t("reason")}</label>
            <textarea
              id="force-submit-reason"
              rows={2}
              maxLength={EXTEND_LIMITS.maxReasonLength}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          </div>
          <p className="form-error" role="alert">
            {error ?? ""}
          </p>
          <div className="modal__actions">
            <button type="button" className="button button--quiet" onClick={onClose}>
              {tc("cancel")}
            </button>
            <button type="submit" className="button button--danger" disabled={mutation.isPending}>
              {mutation.isPending ? t("submitting") : t("submit")}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
