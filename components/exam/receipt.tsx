import { useLocale, useTimeZone, useTranslations } from "next-intl";

import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { formatInstant } from "@/lib/shared/format";
import type { SUBMISSION_SOURCES } from "@/lib/shared/schemas/proctor";

import styles from "./receipt.module.css";

/**
 * Who submitted, as far as this screen knows: `here` is the candidate on this very device (it holds the
 * server's answer to its own submit), `elsewhere` the candidate on another device or browser (the server
 * says the candidate submitted, this device did not); the others come from the server's record of the
 * submission (`candidate` where the device does not matter, the submitted-paper page); null when this
 * device has not heard yet (offline).
 */
export type ReceiptSource = "here" | "elsewhere" | (typeof SUBMISSION_SOURCES)[number] | null;

export type ReceiptFacts = {
  attemptId: string;
  examTitle: string;
  candidateName: string;
  submissionId: string | null;
  submittedAt: string | null;
  digest: string | null;
  source: ReceiptSource;
  /** The server's signature over attempt id, submission time and digest, when this screen holds it. */
  receipt: string | null;
};

/** The first 12 hex digits in groups of four: enough to compare by eye ("3f2a 9c1b 77e0"). */
export function shortDigest(digest: string): string {
  return (digest.slice(0, 12).match(/.{1,4}/g) ?? []).join(" ");
}

/** The file "Download receipt" saves: what the screen shows, and the signature whoever checks it needs. */
export function receiptFile(facts: ReceiptFacts) {
  return {
    format: "holdfast-receipt",
    v: 1,
    examTitle: facts.examTitle,
    candidateName: facts.candidateName,
    attemptId: facts.attemptId,
    submissionId: facts.submissionId,
    submittedAt: facts.submittedAt,
    source: facts.source === "here" || facts.source === "elsewhere" ? "candidate" : facts.source,
    digest: facts.digest,
    digestAlgorithm: "SHA-256 of the canonical JSON of { questionId: answer }",
    receipt: facts.receipt,
    receiptAlgorithm: 'HMAC-SHA256(server secret, "holdfast-receipt-v1", attemptId, submittedAt, digest), base64url',
  };
}

/**
 * A submission receipt as a person reads it: who submitted, the exam, the candidate, when (in the screen's one
 * time zone, named below), the receipt number and the digest, short and in full, and how to check them. Used
 * by the exam page's final screen (client) and the submitted-paper page (server); `exam` namespace.
 */
export function SubmissionReceipt({ facts, paperHref }: { facts: ReceiptFacts; paperHref: string | null }) {
  const t = useTranslations("exam.receipt");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const unknown = t("unknown");
  return (
    <div>
      <p className={styles.source}>{t(`source.${facts.source ?? "unknown"}`)}</p>
      <dl className={styles.facts}>
        <div>
          <dt>{t("exam")}</dt>
          <dd>{facts.examTitle}</dd>
        </div>
        <div>
          <dt>{t("candidate")}</dt>
          <dd>{facts.candidateName}</dd>
        </div>
        <div>
          <dt>{t("submittedAt")}</dt>
          <dd>{facts.submittedAt ? formatInstant(facts.submittedAt, locale, timeZone) : unknown}</dd>
        </div>
        <div>
          <dt>{t("submissionId")}</dt>
          <dd>
            <code>{facts.submissionId ?? unknown}</code>
          </dd>
        </div>
        <div>
          <dt>{t("digest")}</dt>
          <dd>
            {facts.digest ? (
              <>
                <strong className={styles.shortDigest}>{shortDigest(facts.digest)}</strong>
                <span className={styles.fullDigest}>
                  {t("fullDigest")} <code className={styles.digest}>{facts.digest}</code>
                </span>
              </>
            ) : (
              unknown
            )}
          </dd>
        </div>
      </dl>
      <TimeZoneNote />
      <h3 className={styles.verifyTitle}>{t("verifyTitle")}</h3>
      <p>{paperHref ? t("verifyDigestWithPaper") : t("verifyDigest")}</p>
      <p>{facts.receipt ? t("verifySignature") : t("noSignature")}</p>
    </div>
  );
}
