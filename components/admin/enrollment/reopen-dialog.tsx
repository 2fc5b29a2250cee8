"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { ModalDialog } from "@/components/modal-dialog";
import { Field, TextAreaField } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { formatInstant, formatNumber } from "@/lib/shared/format";
import { EXTEND_LIMITS } from "@/lib/shared/schemas/proctor";
import { ReopenResponseSchema, type ReopenResponse } from "@/lib/shared/schemas/reopen";

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
  const [reason, setReason] = useState("");
  const [minutes, setMinutes] = useState("15");
  const [errors, setErrors] = useState<{ reason?: string; minutes?: string }>({});
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const reopen = useApiAction((body: { reason: string; seconds: number }) =>
    callApi(`/api/admin/attempts/${attemptId}/reopen`, {
      method: "POST",
      json: body,
      headers: { "Idempotency-Key": idempotencyKey },
      schema: ReopenResponseSchema,
    }),
  );
  const done = reopen.data ?? null;

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
    await reopen.run({ reason: trimmed, seconds: wanted * 60 });
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
          <TextAreaField
            id="reopen-reason"
            label={t("reason")}
            error={errors.reason}
            rows={3}
            required
            value={reason}
            maxLength={EXTEND_LIMITS.maxReasonLength}
            onChange={(event) => setReason(event.target.value)}
          />
          <Field
            id="reopen-minutes"
            label={t("minutes")}
            hint={t("minutesHint")}
            error={errors.minutes}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={minutes}
            onChange={(event) => setMinutes(event.target.value)}
          />
          <FormError message={reopen.error} />
          <div className={styles.dialogActions}>
            <button type="button" className="button button--quiet" onClick={() => onClose(null)}>
              {t("cancel")}
            </button>
            <button type="submit" className="button button--primary" disabled={reopen.isPending}>
              {reopen.isPending ? t("reopening") : t("submit")}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
