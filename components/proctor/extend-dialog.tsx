"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { extendAttempt, extendMany, failureOf } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { EXTEND_LIMITS } from "@/lib/shared/schemas/proctor";
import type { BulkExtendResult, ExtendResponse } from "@/lib/shared/schemas/proctor-actions";

import { ModalDialog } from "../modal-dialog";

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
  const tc = useTranslations("common");
  const words = useProctorWords();
  const describeFailure = useDescribeFailure();
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
    const minutes = choice === "custom" ? Number(customMinutes.trim()) : Number(choice);
    const maxMinutes = EXTEND_LIMITS.maxSeconds / 60;
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > maxMinutes) {
      setFormError(t("wholeMinutes", { max: words.number(maxMinutes) }));
      return;
    }
    const trimmed = reason.trim();
    if (trimmed.length === 0) {
      setFormError(t("giveReason"));
      return;
    }
    if (trimmed.length < EXTEND_LIMITS.minReasonLength) {
      setFormError(t("reasonTooShort", { min: words.number(EXTEND_LIMITS.minReasonLength) }));
      return;
    }
    if (trimmed.length > EXTEND_LIMITS.maxReasonLength) {
      setFormError(t("reasonTooLong", { max: words.number(EXTEND_LIMITS.maxReasonLength) }));
      return;
    }
    setFormError(null);
    mutation.mutate({ seconds: minutes * 60, reason: trimmed });
  };

  const title =
    target.kind === "one"
      ? t("titleOne", { name: target.name })
      : t("titleMany", { count: target.enrollmentIds.length });
  const error = formError ?? (mutation.error ? describeFailure(failureOf(mutation.error)) : null);

  return (
    <ModalDialog title={title} onClose={close}>
      {mutation.data ? (
        <>
          <ExtendResult done={mutation.data} />
          <div className="modal__actions">
            <button type="button" className="button button--primary" onClick={close}>
              {tc("close")}
            </button>
          </div>
        </>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate>
          <fieldset className="presets">
            <legend>{t("extraTime")}</legend>
            {PRESET_MINUTES.map((minutes) => (
              <label key={minutes} className="preset">
                <input
                  type="radio"
                  name="minutes"
                  value={String(minutes)}
                  checked={choice === String(minutes)}
                  onChange={() => setChoice(String(minutes))}
                />
                {t("preset", { minutes: words.number(minutes) })}
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
              {t("custom")}
            </label>
          </fieldset>
          {choice === "custom" ? (
            <div className="field">
              <label htmlFor="extend-custom">{t("minutes")}</label>
              <input
                id="extend-custom"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                value={customMinutes}
                onChange={(event) => setCustomMinutes(event.target.value)}
              />
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="extend-reason">{t("reason")}</label>
            <textarea
              id="extend-reason"
              rows={3}
              required
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              maxLength={EXTEND_LIMITS.maxReasonLength}
              placeholder={t("reasonPlaceholder")}
            />
          </div>
          <p className="form-error" role="alert">
            {error ?? ""}
          </p>
          <div className="modal__actions">
            <button type="button" className="button button--quiet" onClick={close}>
              {tc("cancel")}
            </button>
            <button type="submit" className="button button--primary" disabled={mutation.isPending}>
              {mutation.isPending ? t("submitting") : t("submit")}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
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
      <ul className="outcomes">
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
