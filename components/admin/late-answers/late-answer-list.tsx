"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useEffect, useRef, useState, useTransition } from "react";

import { deviceShortId } from "@/lib/shared/proctor/device-id";
import { formatInstant, formatNumber } from "@/lib/shared/format";
import { readAnswer, type AnswerReading } from "@/lib/shared/results/answer-text";
import { UNITS_PER_POINT } from "@/lib/shared/scoring/score-units";
import type { LateAnswerDecisionKind, LateAnswerReview } from "@/lib/shared/schemas/results";

import { DecisionDialog, type DecisionOutcome } from "./decision-dialog";
import styles from "./late-answers.module.css";

export type LateAnswerQuestionView = {
  id: string;
  position: number;
  type: string;
  options: { id: string; label: string }[] | null;
};

export type LateAnswerCandidateView = {
  attemptId: string;
  name: string;
  email: string;
  total: { scoreUnits: number; maxUnits: number; pending: number } | null;
  lateAnswers: LateAnswerReview[];
};

/**
 * An exam's late answers by candidate (docs/results.md, "Late answers"): each beside what the frozen paper holds
 * for that question, with the server's times, the device and how it came, and the decision once taken. Accept
 * and Reject open a dialog; after a decision (or a 409 because someone decided first) the page reads the server
 * again (router.refresh), so the decision and the candidate's total are the server's.
 */
export function LateAnswerList({
  examId,
  candidates,
  questions,
}: {
  examId: string;
  candidates: LateAnswerCandidateView[];
  questions: LateAnswerQuestionView[];
}) {
  const t = useTranslations("lateAnswers");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [open, setOpen] = useState<{ late: LateAnswerReview; decision: LateAnswerDecisionKind; name: string } | null>(
    null,
  );
  const [notices, setNotices] = useState<Record<string, string>>({});
  const headings = useRef(new Map<string, HTMLHeadingElement>());
  const focusAfterClose = useRef<string | null>(null);
  // The buttons that opened a dialog are gone once it decided: the answer's heading takes the focus instead, once
  // the dialog has closed (a modal dialog keeps focus inside it, and gives it back to its opener as it closes).
  useEffect(() => {
    if (open !== null || focusAfterClose.current === null) return;
    headings.current.get(focusAfterClose.current)?.focus();
    focusAfterClose.current = null;
  }, [open]);
  const questionOf = new Map(questions.map((question) => [question.id, question]));

  const listFormat = new Intl.ListFormat(locale, { type: "conjunction" });
  const words = (reading: AnswerReading): string => {
    switch (reading.kind) {
      case "none":
        return t("noAnswer");
      case "choices":
        return listFormat.format(reading.labels);
      case "number":
        return formatNumber(reading.value, locale, 10);
      case "text":
        return reading.text;
    }
  };
  const points = (units: number) => formatNumber(units / UNITS_PER_POINT, locale, 4);
  const time = (instant: string | null) => (instant ? formatInstant(instant, locale, timeZone) : t("none"));

  function onDialogClose(outcome: DecisionOutcome) {
    const decided = open;
    setOpen(null);
    if (!decided || outcome === null) return;
    setNotices((current) => {
      const next = { ...current };
      if (outcome.kind === "conflict") next[decided.late.id] = outcome.message;
      else delete next[decided.late.id];
      return next;
    });
    focusAfterClose.current = decided.late.id;
    startTransition(() => router.refresh());
  }

  if (candidates.length === 0) return <p className={styles.empty}>{t("empty")}</p>;

  return (
    <>
      {candidates.map((candidate) => (
        <section key={candidate.attemptId} className={styles.candidate} aria-labelledby={`c-${candidate.attemptId}`}>
          <h2 id={`c-${candidate.attemptId}`} className={styles.candidateName}>
            {candidate.name} <span className={styles.email}>{candidate.email}</span>
          </h2>
          <p className={styles.total} data-testid="late-answers-total">
            {candidate.total === null
              ? t("totalNone")
              : candidate.total.pending > 0
                ? t("totalPending", {
                    score: points(candidate.total.scoreUnits),
                    max: points(candidate.total.maxUnits),
                    pending: candidate.total.pending,
                  })
                : t("total", { score: points(candidate.total.scoreUnits), max: points(candidate.total.maxUnits) })}
          </p>
          <ol className={styles.answers}>
            {candidate.lateAnswers.map((late) => {
              const question = questionOf.get(late.questionId);
              const frozen = readAnswer(late.frozenValue, question);
              const arrived = readAnswer(late.value, question);
              const headingId = `late-${late.id}`;
              return (
                <li key={late.id} className={styles.answer}>
                  <article aria-labelledby={headingId}>
                    <h3
                      id={headingId}
                      tabIndex={-1}
                      className={styles.question}
                      ref={(node) => {
                        if (node) headings.current.set(late.id, node);
                        else headings.current.delete(late.id);
                      }}
                    >
                      {t("question", { position: late.position })}
                    </h3>
                    <div className={styles.compare}>
                      <div className={styles.value}>
                        <p className={styles.valueLabel}>{t("frozen")}</p>
                        <p className={frozen.kind === "none" ? styles.valueNone : styles.valueText}>{words(frozen)}</p>
                      </div>
                      <div className={`${styles.value} ${styles.valueLate}`}>
                        <p className={styles.valueLabel}>{t("late")}</p>
                        <p className={arrived.kind === "none" ? styles.valueNone : styles.valueText}>
                          {words(arrived)}
                        </p>
                      </div>
                    </div>
                    <dl className={styles.facts}>
                      <div>
                        <dt>{t("facts.deadline")}</dt>
                        <dd>{time(late.deadline)}</dd>
                      </div>
                      <div>
                        <dt>{t("facts.submittedAt")}</dt>
                        <dd>{time(late.submittedAt)}</dd>
                      </div>
                      <div>
                        <dt>{t("facts.receivedAt")}</dt>
                        <dd>{time(late.receivedAt)}</dd>
                      </div>
                      <div>
                        <dt>{t("facts.device")}</dt>
                        <dd>
                          <code title={late.deviceId}>{deviceShortId(late.deviceId)}</code>
                        </dd>
                      </div>
                      <div>
                        <dt>{t("facts.via")}</dt>
                        <dd>{t("via", { via: late.via })}</dd>
                      </div>
                    </dl>
                    {notices[late.id] ? (
                      <p className={`notice notice--warn ${styles.notice}`} role="alert">
                        {notices[late.id]}
                      </p>
                    ) : null}
                    {late.decision ? (
                      <div
                        className={
                          late.decision.decision === "accepted" ? styles.decisionAccepted : styles.decisionRejected
                        }
                      >
                        <p className={styles.decisionLine}>
                          {t(`decision.${late.decision.decision}`, {
                            by: late.decision.by,
                            time: time(late.decision.at),
                          })}
                        </p>
                        {late.decision.reason ? (
                          <p className={styles.reason}>{t("decision.reason", { reason: late.decision.reason })}</p>
                        ) : null}
                      </div>
                    ) : (
                      <div className={styles.actions}>
                        <p className={styles.undecided}>{t("undecided")}</p>
                        <button
                          type="button"
                          className="button button--primary"
                          aria-label={t("acceptLabel", { position: late.position, name: candidate.name })}
                          onClick={() => setOpen({ late, decision: "accepted", name: candidate.name })}
                        >
                          {t("accept")}
                        </button>
                        <button
                          type="button"
                          className="button"
                          aria-label={t("rejectLabel", { position: late.position, name: candidate.name })}
                          onClick={() => setOpen({ late, decision: "rejected", name: candidate.name })}
                        >
                          {t("reject")}
                        </button>
                      </div>
                    )}
                  </article>
                </li>
              );
            })}
          </ol>
        </section>
      ))}
      {open ? (
        <DecisionDialog
          examId={examId}
          lateAnswer={open.late}
          decision={open.decision}
          candidateName={open.name}
          lateText={words(readAnswer(open.late.value, questionOf.get(open.late.questionId)))}
          onClose={onDialogClose}
        />
      ) : null}
    </>
  );
}
