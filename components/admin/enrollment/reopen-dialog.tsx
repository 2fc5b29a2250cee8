"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { ModalDialog } from "@/components/modal-dialog";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { formatInstant, formatNumber } from "@/lib/shared/format";
import { EXTEND_LIMITS } from "@/lib/shared/schemas/proctor";
import type { ReopenResponse } from "@/lib/shared/schemas/reopen";

import styles from "./enrollment.module.css";

const MAX_MINUTES = EXTEND_LIMITS.maxSeconds / 60;

/**
 * "Reopen" a submitted attempt (ADR 017): a required reason and the minutes of new time, checked here against
 * the API's own limits, each error next to its field; what the server refuses (the window closed meanwhile, a
 * reopening by someone else) is said in the reader's language by its error code. One Idempotency-Key per
 * opening of the dialog, so a double click or a retry reopens once.
 */
export function ReopenDialog({
  attemptId,
  name,
  version,
  onClose,
}: {
  attemptId: string;
  name: string;
  /** The submission that stays on record. */
  version: number;
  /** `response`: the reopening, when it succeeded before the dialog closed. */
  onClose: (response: ReopenResponse | null) => void;
}) {
  const t = useTranslations("enrollment.reopen");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const describeFailure = useDescribeFailure();
  const [reason, setReason] = useState("");
  const [minutes, setMinutes] = useState("15");
  const [errors, setErrors] = useState<{ reason?: string; minutes?: string; form?: string }>({});
  const [isPending, setIsPending] = useState(false);
  const [done, setDone] = useState<ReopenResponse | null>(null);
  const [idempotencyKey] = useState(() => crypto.randomUUID());

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = reason.trim();
    const wanted = Number(minutes.trim());
    const next: typeof errors = {};
    if (trimmed.length < EXTEND_LIMITS.minReasonLength)
      next.reason = t("reasonTooShort", { min: EXTEND_LIMITS.minReasonLength });
    else if (trimmed.length > EXTEND_LIMITS.maxReasonLength)
      next.reason = t("reasonTooLong", { max: EXTEND_LIMITS.maxReasonLength });
    if (!/^\d+$/.test(minutes.trim()) || wanted < 1 || wanted > MAX_MINUTES)
      next.minutes = t("minutesInvalid", { max: formatNumber(MAX_MINUTES, locale) });
    setErrors(next);
    if (next.reason || next.minutes) return;
    setIsPending(true);
    const response = await callApi(`/api/admin/attempts/${attemptId}/reopen`, {
      method: "POST",
      json: { reason: trimmed, seconds: wanted * 60 },
      headers: { "Idempotency-Key": idempotencyKey },
    });
    setIsPending(false);
    if (!response.ok) {
      setErrors({ form: describeFailure(response.failure) });
      return;
    }
    setDone(response.body as ReopenResponse);
  }

  return (
    <ModalDialog
      title={t("title", { name })}
      onClose={() => onClose(done)}
      describedBy={done ? undefined : "reopen-intro"}
      className={styles.dialog}
      titleClassName={styles.dialogTitle}
    >
      {done ? (
        <>
          <p role="status">{t("done", { name, time: formatInstant(done.deadline, locale, timeZone) })}</p>
          <div className={styles.dialogActions}>
            <button type="button" className="button button--primary" onClick={() => onClose(done)}>
              {t("close")}
            </button>
          </div>
        </>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          <p id="reopen-intro">{t("intro", { version })}</p>
          <div className="field">
            <label htmlFor="reopen-reason">{t("reason")}</label>
            <textarea
              id="reopen-reason"
              rows={3}
              required
              value={reason}
              maxLength={EXTEND_LIMITS.maxReasonLength}
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={errors.reason ? "reopen-reason-error" : undefined}
              onChange={(event) => setReason(event.target.value)}
            />
            {errors.reason ? (
              <p className="form-error" id="reopen-reason-error">
                {errors.reason}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="reopen-minutes">{t("minutes")}</label>
            <input
              id="reopen-minutes"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              value={minutes}
              aria-invalid={errors.minutes ? true : undefined}
              aria-describedby={errors.minutes ? "reopen-minutes-error" : "reopen-minutes-hint"}
              onChange={(event) => setMinutes(event.target.value)}
            />
            {errors.minutes ? (
              <p className="form-error" id="reopen-minutes-error">
                {errors.minutes}
              </p>
            ) : (
              <p className="muted" id="reopen-minutes-hint">
                {t("minutesHint")}
              </p>
            )}
          </div>
          <p className="form-error" role="alert">
            {errors.form ?? ""}
          </p>
          <div className={styles.dialogActions}>
            <button type="button" className="button button--quiet" onClick={() => onClose(null)}>
              {t("cancel")}
            </button>
            <button type="submit" className="button button--primary" disabled={isPending}>
              {isPending ? t("reopening") : t("submit")}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
