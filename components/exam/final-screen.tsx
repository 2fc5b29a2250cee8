"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";

import type { SyncSnapshot } from "@/lib/client/sync/sync-state";
import type { AttemptView } from "@/lib/shared/schemas/attempts";

import { EmergencyExport } from "./emergency-export-button";
import { Icon } from "./icons";
import { SubmissionReceipt, type ReceiptFacts, type ReceiptSource } from "./receipt";
import { ReceiptDownload } from "./receipt-download";

// `final` on the final screen's section: the hook e2e/screenshots.spec.ts and e2e/a11y/axe.spec.ts wait for.
import styles from "./final-screen.module.css";

/**
 * What this device knows of the submission. Its own submit's answer comes first (it carries the signature);
 * otherwise the server's record (the page's server render, refreshed once the attempt closes), then what the
 * engine learned when the server refused a write (`ALREADY_SUBMITTED`).
 */
function receiptOf(state: SyncSnapshot, view: AttemptView, candidateName: string): ReceiptFacts {
  const response = state.submitResponse;
  const elsewhere = state.submittedElsewhere;
  const recorded = view.submission;
  const recordedSource = recorded?.source === "candidate" ? "elsewhere" : (recorded?.source ?? null);
  const source: ReceiptSource = response
    ? response.source === "candidate"
      ? "here"
      : response.source
    : recordedSource;
  return {
    attemptId: state.attemptId,
    examTitle: state.examTitle ?? view.examTitle,
    candidateName,
    submissionId:
      response?.submissionId ?? recorded?.submissionId ?? elsewhere?.submissionId ?? state.closed?.submissionId ?? null,
    submittedAt:
      response?.submittedAt ?? recorded?.submittedAt ?? elsewhere?.submittedAt ?? state.closed?.submittedAt ?? null,
    digest: response?.digest ?? recorded?.digest ?? elsewhere?.digest ?? state.closed?.digest ?? null,
    source,
    receipt: response?.receipt ?? null,
  };
}

/** Answers that reached the server only after the paper was frozen: kept there as late answers. */
function LateAnswersNote({ state }: { state: SyncSnapshot }) {
  const t = useTranslations("exam.final");
  const late = Object.values(state.answers).filter((answer) => answer.status === "late").length;
  if (late === 0) return null;
  return <p className="notice">{t("late", { count: late })}</p>;
}

type Props = {
  state: SyncSnapshot;
  /** The attempt as the server last rendered it: its submission says who submitted. */
  view: AttemptView;
  candidateName: string;
};

/** The end of the exam: a readable receipt when submitted, or an honest word when the exam closed otherwise. */
export function FinalScreen({ state, view, candidateName }: Props) {
  const t = useTranslations("exam.final");
  const isSubmitted =
    state.submitState === "submitted" ||
    state.closed?.reason === "ALREADY_SUBMITTED" ||
    state.submittedElsewhere !== null ||
    view.submission !== null;

  if (!isSubmitted) {
    return (
      <section className={`${styles.final} final`} aria-labelledby="final-title">
        <h2 id="final-title">{t("closedTitle")}</h2>
        <p>{t("closedText")}</p>
        <LateAnswersNote state={state} />
        {state.pendingCount > 0 ? (
          <>
            <p className="notice notice--warn">{t("closedPending", { count: state.pendingCount })}</p>
            <EmergencyExport attemptId={state.attemptId} pendingCount={state.pendingCount} headingLevel={3} />
          </>
        ) : null}
      </section>
    );
  }

  const facts = receiptOf(state, view, candidateName);
  const paperHref = `/attempts/${state.attemptId}/paper`;
  return (
    <section className={`${styles.final} final`} aria-labelledby="final-title">
      <p className={styles.badge}>
        <Icon name="saved" /> {t("badge")}
      </p>
      <h2 id="final-title">{t("title")}</h2>
      <SubmissionReceipt facts={facts} paperHref={paperHref} />
      <LateAnswersNote state={state} />
      {state.digestMismatch ? <p className="notice notice--warn">{t("digestMismatch")}</p> : null}
      {state.pendingCount > 0 ? (
        <EmergencyExport attemptId={state.attemptId} pendingCount={state.pendingCount} headingLevel={3} />
      ) : null}
      <p className={styles.actions}>
        <ReceiptDownload facts={facts} />
        <Link className="button" href={paperHref}>
          {t("viewPaper")}
        </Link>
        <Link className="button" href={`/attempts/${state.attemptId}/result`}>
          {t("viewResult")}
        </Link>
      </p>
      <p className="muted">{t("closeHint")}</p>
    </section>
  );
}
