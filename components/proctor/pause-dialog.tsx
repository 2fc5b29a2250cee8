"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { changePause, failureOf } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { PAUSE_LIMITS } from "@/lib/shared/schemas/pauses";

import { ModalDialog } from "../modal-dialog";

/** The whole exam, or a selection of its candidates by enrollment id. */
export type PauseScope = { kind: "exam" } | { kind: "many"; enrollmentIds: string[] };

/**
 * "Pause" (with a required reason, which candidates see) or "Resume", for the whole exam or a selection
 * (ADR 016). One Idempotency-Key per opening of the dialog, so a double click or a retry acts once; the reason
 * is checked here against the API's own limits, and what the server refuses is said in the reader's language.
 */
export function PauseDialog({
  examId,
  action,
  scope,
  onClose,
}: {
  examId: string;
  action: "pause" | "resume";
  scope: PauseScope;
  /** `isDone`: the request succeeded before the dialog closed (the selection can be cleared). */
  onClose: (isDone: boolean) => void;
}) {
  const t = useTranslations("proctor.pause");
  const tc = useTranslations("common");
  const words = useProctorWords();
  const describeFailure = useDescribeFailure();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const enrollmentIds = scope.kind === "many" ? { enrollmentIds: scope.enrollmentIds } : {};

  const mutation = useMutation({
    mutationFn: (trimmed: string) =>
      changePause(
        examId,
        action === "pause"
          ? { action, body: { reason: trimmed, ...enrollmentIds } }
          : { action, body: { ...enrollmentIds } },
        idempotencyKey,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: proctorKeys.exam(examId) }),
  });
  const close = () => onClose(mutation.isSuccess);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (action === "pause") {
      if (trimmed.length === 0) return setFormError(t("giveReason"));
      if (trimmed.length < PAUSE_LIMITS.minReasonLength) {
        return setFormError(t("reasonTooShort", { min: words.number(PAUSE_LIMITS.minReasonLength) }));
      }
      if (trimmed.length > PAUSE_LIMITS.maxReasonLength) {
        return setFormError(t("reasonTooLong", { max: words.number(PAUSE_LIMITS.maxReasonLength) }));
      }
    }
    setFormError(null);
    mutation.mutate(trimmed);
  };

  const title =
    scope.kind === "exam"
      ? t(action === "pause" ? "titlePauseExam" : "titleResumeExam")
      : t(action === "pause" ? "titlePauseMany" : "titleResumeMany", { count: scope.enrollmentIds.length });
  const error = formError ?? (mutation.error ? describeFailure(failureOf(mutation.error)) : null);

  return (
    <ModalDialog title={title} onClose={close}>
      {mutation.data ? (
        <>
          <p role="status">
            {t(mutation.data.action === "pause" ? "paused" : "resumed", { count: mutation.data.attempts })}
          </p>
          <div className="modal__actions">
            <button type="button" className="button button--primary" onClick={close}>
              {tc("close")}
            </button>
          </div>
        </>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          <p>{action === "pause" ? t("explainPause", { scope: scope.kind }) : t("explainResume")}</p>
          {action === "pause" ? (
            <div className="field">
              <label htmlFor="pause-reason">{t("reason")}</label>
              <textarea
                id="pause-reason"
                rows={3}
                required
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                maxLength={PAUSE_LIMITS.maxReasonLength}
                placeholder={t("reasonPlaceholder")}
              />
            </div>
          ) : null}
          <p className="form-error" role="alert">
            {error ?? ""}
          </p>
          <div className="modal__actions">
            <button type="button" className="button button--quiet" onClick={close}>
              {tc("cancel")}
            </button>
            <button type="submit" className="button button--primary" disabled={mutation.isPending}>
              {mutation.isPending ? t("submitting") : t(action === "pause" ? "submitPause" : "submitResume")}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
