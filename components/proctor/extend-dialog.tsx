"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import type { ApiCallResult } from "@/lib/client/call-api";
import { extendAttempt, extendMany } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { EXTEND_LIMITS } from "@/lib/shared/schemas/proctor";
import type { BulkExtendResult, ExtendResponse } from "@/lib/shared/schemas/proctor-actions";

import { Field } from "../ui/field";
import { ReasonDialog } from "../ui/reason-dialog";
import { useApiAction } from "../ui/use-action";

import styles from "./extend-dialog.module.css";

const PRESET_MINUTES = [5, 10, 15, 30] as const;

export type ExtendTarget =
  /** `id`: the attempt's, or the enrollment's before the candidate starts. */
  { kind: "one"; id: string; name: string } | { kind: "many"; enrollmentIds: string[] };

type Done = { kind: "one"; result: ExtendResponse } | { kind: "many"; results: BulkExtendResult[] };

/**
 * "Extend time" for one candidate or a selection: a preset or custom minutes and a required reason, checked
 * here against the API's own limits and named field by field; what the server refuses is said in the
 * reader's language by its error code (useDescribeFailure). A bulk submission carries one Idempotency-Key per opening of
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
  const t = useTranslations("proctor.extend");
  const words = useProctorWords();
  const [choice, setChoice] = useState<string>("10");
  const [customMinutes, setCustomMinutes] = useState("");
  const [minutesError, setMinutesError] = useState<string | null>(null);
  const [idempotencyKey] = useState(() => crypto.randomUUID());

  const extend = useApiAction(
    async (body: { seconds: number; reason: string }): Promise<ApiCallResult<Done>> => {
      if (target.kind === "one") {
        const answer = await extendAttempt(target.id, body, idempotencyKey);
        return answer.ok ? { ok: true, body: { kind: "one", result: answer.body } } : answer;
      }
      const answer = await extendMany(examId, { ...body, enrollmentIds: target.enrollmentIds }, idempotencyKey);
      return answer.ok ? { ok: true, body: { kind: "many", results: answer.body.results } } : answer;
    },
    { refreshes: proctorKeys.exam(examId) },
  );

  const maxMinutes = EXTEND_LIMITS.maxSeconds / 60;
  const minutes = choice === "custom" ? Number(customMinutes.trim()) : Number(choice);
  const areMinutesValid = Number.isInteger(minutes) && minutes >= 1 && minutes <= maxMinutes;
  const validateMinutes = () => {
    setMinutesError(areMinutesValid ? null : t("wholeMinutes", { max: words.number(maxMinutes) }));
    return areMinutesValid;
  };

  const title =
    target.kind === "one"
      ? t("titleOne", { name: target.name })
      : t("titleMany", { count: target.enrollmentIds.length });

  return (
    <ReasonDialog
      title={title}
      reason={{
        id: "extend-reason",
        label: t("reason"),
        placeholder: t("reasonPlaceholder"),
        isRequired: true,
        minLength: EXTEND_LIMITS.minReasonLength,
        maxLength: EXTEND_LIMITS.maxReasonLength,
        describeProblem: (problem) =>
          problem === "missing"
            ? t("giveReason")
            : problem === "tooShort"
              ? t("reasonTooShort", { min: words.number(EXTEND_LIMITS.minReasonLength) })
              : t("reasonTooLong", { max: words.number(EXTEND_LIMITS.maxReasonLength) }),
      }}
      onValidate={validateMinutes}
      onConfirm={(reason) => void extend.run({ seconds: minutes * 60, reason })}
      isPending={extend.isPending}
      error={extend.error}
      done={extend.data ? <ExtendResult done={extend.data} /> : null}
      confirmLabel={t("submit")}
      pendingLabel={t("submitting")}
      onClose={() => onClose(extend.data !== undefined)}
    >
      <fieldset className={styles.presets}>
        <legend>{t("extraTime")}</legend>
        {PRESET_MINUTES.map((preset) => (
          <label key={preset} className={styles.preset}>
            <input
              type="radio"
              name="minutes"
              value={String(preset)}
              checked={choice === String(preset)}
              onChange={() => setChoice(String(preset))}
            />
            {t("preset", { minutes: words.number(preset) })}
          </label>
        ))}
        <label className={styles.preset}>
          <input
            type="radio"
            name="minutes"
            value="custom"
            checked={choice === "custom"}
            onChange={() => setChoice("custom")}
          />
          {t("custom")}
        </label>
      </fieldset>
      {choice === "custom" ? (
        <Field
          id="extend-custom"
          label={t("minutes")}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={customMinutes}
          error={minutesError}
          onChange={(event) => setCustomMinutes(event.target.value)}
        />
      ) : null}
    </ReasonDialog>
  );
}

function ExtendResult({ done }: { done: Done }) {
  const t = useTranslations("proctor.extend");
  const words = useProctorWords();
  if (done.kind === "one") {
    return (
      <p role="status">
        {t("extendedOne", { duration: words.duration(done.result.seconds * 1000) })}
        {done.result.deadline !== null
          ? t("newDeadline", { time: words.clock(Date.parse(done.result.deadline)) })
          : t("countsAtStart")}
      </p>
    );
  }
  const counts = new Map<BulkExtendResult["outcome"], number>();
  for (const result of done.results) counts.set(result.outcome, (counts.get(result.outcome) ?? 0) + 1);
  return (
    <div role="status">
      <p>{t("doneFor", { count: done.results.length })}</p>
      <ul className={styles.outcomes}>
        {[...counts].map(([outcome, count]) => (
          <li key={outcome}>
            {t.rich("outcome", {
              outcome: t(`outcomes.${outcome}`),
              count: words.number(count),
              strong: (chunks) => <strong>{chunks}</strong>,
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}
