"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useState } from "react";

import { Field } from "@/components/ui/field";
import { ReasonDialog } from "@/components/ui/reason-dialog";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { formatInstant, formatNumber } from "@/lib/shared/format";
import { EXTEND_LIMITS } from "@/lib/shared/schemas/proctor";
import type { ReopenResponse } from "@/lib/shared/schemas/reopen";
import { ReopenResponseSchema } from "@/lib/shared/schemas/responses/proctor";

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
  const [minutes, setMinutes] = useState("15");
  const [minutesError, setMinutesError] = useState<string | null>(null);
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
  const wanted = Number(minutes.trim());

  function validateMinutes(): boolean {
    const isValid = /^\d+$/.test(minutes.trim()) && wanted >= 1 && wanted <= MAX_MINUTES;
    setMinutesError(isValid ? null : t("minutesInvalid", { max: formatNumber(MAX_MINUTES, locale) }));
    return isValid;
  }

  return (
    <ReasonDialog
      title={t("title", { name })}
      intro={t("intro", { version })}
      reason={{
        id: "reopen-reason",
        label: t("reason"),
        isRequired: true,
        minLength: EXTEND_LIMITS.minReasonLength,
        maxLength: EXTEND_LIMITS.maxReasonLength,
        // Empty or short, the same sentence: at least so many characters.
        describeProblem: (problem) =>
          problem === "tooLong"
            ? t("reasonTooLong", { max: EXTEND_LIMITS.maxReasonLength })
            : t("reasonTooShort", { min: EXTEND_LIMITS.minReasonLength }),
      }}
      afterReason={
        <Field
          id="reopen-minutes"
          label={t("minutes")}
          hint={t("minutesHint")}
          error={minutesError}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={minutes}
          onChange={(event) => setMinutes(event.target.value)}
        />
      }
      onValidate={validateMinutes}
      onConfirm={(reason) => void reopen.run({ reason, seconds: wanted * 60 })}
      isPending={reopen.isPending}
      error={reopen.error}
      done={
        done ? <p role="status">{t("done", { name, time: formatInstant(done.deadline, locale, timeZone) })}</p> : null
      }
      confirmLabel={t("submit")}
      pendingLabel={t("reopening")}
      cancelLabel={t("cancel")}
      closeLabel={t("close")}
      onClose={() => onClose(done)}
      className={styles.dialog}
      titleClassName={styles.dialogTitle}
    />
  );
}
