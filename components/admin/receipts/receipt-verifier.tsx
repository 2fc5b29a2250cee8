"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";

import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { formatInstant } from "@/lib/shared/format";
import type { ReceiptVerdict } from "@/lib/shared/schemas/receipts";

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
  const describeFailure = useDescribeFailure();
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [verdict, setVerdict] = useState<ReceiptVerdict | null>(null);
  const [isPending, setIsPending] = useState(false);
  const verdictRef = useRef<HTMLHeadingElement>(null);

  async function verify(source: string) {
    setVerdict(null);
    if (source.trim() === "") return setError(t("emptyInput"));
    let json: unknown;
    try {
      // A file an editor saved again may start with a byte order mark, which JSON.parse refuses.
      json = JSON.parse(source.replace(/^\uFEFF/, ""));
    } catch {
      return setError(t("notJson"));
    }
    setError(null);
    setIsPending(true);
    const response = await callApi("/api/admin/receipts/verify", { method: "POST", json });
    setIsPending(false);
    if (!response.ok) {
      const isNotReceipt = response.failure.kind === "http" && response.failure.status === 422;
      const problem = describeFailure(response.failure);
      return setError(isNotReceipt ? t("notReceipt", { problem }) : problem);
    }
    setVerdict(response.body as ReceiptVerdict);
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
      setVerdict(null);
      return setError(t("fileUnreadable"));
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
        <div className="field">
          <label htmlFor="receipt-text">{t("paste")}</label>
          <textarea
            id="receipt-text"
            className={styles.textarea}
            value={text}
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "receipt-error receipt-text-hint" : "receipt-text-hint"}
            onChange={(event) => {
              setText(event.target.value);
              setFileName("");
            }}
          />
          <p className="field-hint" id="receipt-text-hint">
            {t("pasteHint")}
          </p>
        </div>
        <div className="field">
          <label htmlFor="receipt-file">{t("upload")}</label>
          <input
            id="receipt-file"
            type="file"
            accept="application/json,.json"
            onChange={(event) => void onFile(event)}
            aria-describedby={fileName ? "receipt-file-hint receipt-file-read" : "receipt-file-hint"}
          />
          <p className="field-hint" id="receipt-file-hint">
            {t("uploadHint")}
          </p>
          {fileName ? (
            <p className="muted" id="receipt-file-read">
              {t("fileRead", { name: fileName })}
            </p>
          ) : null}
        </div>
        <p className="form-error" id="receipt-error" role="alert">
          {error ?? ""}
        </p>
        <div>
          <button type="submit" className="button button--primary" disabled={isPending}>
            {isPending ? t("verifying") : t("verify")}
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
