"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";

import { Field, TextAreaField } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { formatInstant } from "@/lib/shared/format";
import { ReceiptVerdictSchema } from "@/lib/shared/schemas/receipts";

import styles from "./receipts.module.css";

/**
 * Staff paste a candidate's receipt file, or upload it, and read the server's verdict (docs/results.md, "Receipt
 * verifier"): valid or not and why, the submission it names (current, or earlier and reopened since), the exam,
 * the candidate, the time, and whether the frozen paper still has the receipt's digest. Text that is not JSON is
 * refused here; JSON that is not a receipt file is the server's 422, said beside the field.
 */
export function ReceiptVerifier() {
  const t = useTranslations("receipts");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState("");
  const [inputError, setInputError] = useState<string | null>(null);
  const check = useApiAction((json: unknown) =>
    callApi("/api/admin/receipts/verify", { method: "POST", json, schema: ReceiptVerdictSchema }),
  );
  const verdict = check.data ?? null;
  // JSON that is not a receipt file is the server's 422: said as such, with what the server found.
  const isNotReceipt = check.failure?.kind === "http" && check.failure.status === 422;
  const error = inputError ?? (isNotReceipt ? t("notReceipt", { problem: check.error }) : check.error || null);
  const verdictRef = useRef<HTMLHeadingElement>(null);

  async function verify(source: string) {
    check.reset();
    if (source.trim() === "") return setInputError(t("emptyInput"));
    let json: unknown;
    try {
      // A file an editor saved again may start with a byte order mark, which JSON.parse refuses.
      json = JSON.parse(source.replace(/^\uFEFF/, ""));
    } catch {
      return setInputError(t("notJson"));
    }
    setInputError(null);
    await check.run(json);
  }

  // The verdict is what the reader came for: take them there once it is on the page (it is also announced,
  // role="status"). An effect, not a frame callback: the frame may come before React has put the heading there.
  useEffect(() => {
    if (verdict) verdictRef.current?.focus();
  }, [verdict]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void verify(text);
  }

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    let content: string;
    try {
      content = await file.text();
    } catch {
      check.reset();
      return setInputError(t("fileUnreadable"));
    }
    setText(content);
    setFileName(file.name);
    await verify(content);
  }

  const time = (instant: string) => {
    const date = new Date(instant);
    return Number.isNaN(date.getTime()) ? instant : formatInstant(date, locale, timeZone);
  };

  return (
    <>
      <form className={`form ${styles.form}`} onSubmit={onSubmit} noValidate>
        <TextAreaField
          id="receipt-text"
          label={t("paste")}
          hint={t("pasteHint")}
          isInvalid={error !== null}
          describedBy={error ? "receipt-error" : undefined}
          controlClassName={styles.textarea}
          value={text}
          spellCheck={false}
          onChange={(event) => {
            setText(event.target.value);
            setFileName("");
          }}
        />
        <Field
          id="receipt-file"
          label={t("upload")}
          hint={fileName ? `${t("uploadHint")} ${t("fileRead", { name: fileName })}` : t("uploadHint")}
          type="file"
          accept="application/json,.json"
          onChange={(event) => void onFile(event)}
        />
        <FormError id="receipt-error" message={error} />
        <div>
          <button type="submit" className="button button--primary" disabled={check.isPending}>
            {check.isPending ? t("verifying") : t("verify")}
          </button>
        </div>
      </form>

      <section aria-labelledby="receipt-verdict-heading" role="status" className={styles.verdictRegion}>
        {verdict ? (
          <div className={verdict.valid ? styles.verdictValid : styles.verdictInvalid}>
            <h2 id="receipt-verdict-heading" ref={verdictRef} tabIndex={-1} className={styles.verdictTitle}>
              {verdict.valid ? t("valid") : t("invalid")}
            </h2>
            <p>{verdict.reason === null ? t("validSummary") : t(`reason.${verdict.reason}`)}</p>
            <dl className={styles.facts}>
              <div>
                <dt>{t("facts.exam")}</dt>
                <dd>{verdict.examTitle ?? t("unknown")}</dd>
              </div>
              <div>
                <dt>{t("facts.candidate")}</dt>
                <dd>
                  {verdict.candidateName === null
                    ? t("unknown")
                    : `${verdict.candidateName} (${verdict.candidateEmail ?? ""})`}
                </dd>
              </div>
              <div>
                <dt>{t("facts.submittedAt")}</dt>
                <dd>{time(verdict.submittedAt)}</dd>
              </div>
              {verdict.version !== null ? (
                <div>
                  <dt>{t("facts.submission")}</dt>
                  <dd>
                    {verdict.current
                      ? t("submissionCurrent", { version: verdict.version })
                      : t("submissionEarlier", {
                          version: verdict.version,
                          time: verdict.supersededAt ? time(verdict.supersededAt) : t("unknown"),
                        })}
                  </dd>
                </div>
              ) : null}
              {verdict.digestMatchesPaper !== null ? (
                <div>
                  <dt>{t("facts.digest")}</dt>
                  <dd className={verdict.digestMatchesPaper ? styles.ok : styles.bad}>
                    {verdict.digestMatchesPaper ? t("digestMatches") : t("digestDiffers")}
                  </dd>
                </div>
              ) : null}
              <div>
                <dt>{t("facts.attempt")}</dt>
                <dd>
                  <code>{verdict.attemptId}</code>
                </dd>
              </div>
            </dl>
            {verdict.claimed.examTitle !== null || verdict.claimed.candidateName !== null ? (
              <p className="muted">
                {t("claimed", {
                  exam: verdict.claimed.examTitle ?? t("unknown"),
                  candidate: verdict.claimed.candidateName ?? t("unknown"),
                })}
              </p>
            ) : null}
          </div>
        ) : (
          <h2 id="receipt-verdict-heading" className="visually-hidden">
            {t("verdictHeading")}
          </h2>
        )}
      </section>
    </>
  );
}
