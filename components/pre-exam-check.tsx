"use client";

import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";

import {
  assessAll,
  describeCheck,
  verdictOf,
  type CheckMessage,
  type CheckResult,
  type Measurements,
  type Verdict,
} from "@/lib/client/pre-exam-check";
import {
  measureConnection,
  measureEstimate,
  measureIndexedDb,
  measurePersistence,
  measureServiceWorker,
} from "@/lib/client/pre-exam-measure";

import styles from "./pre-exam-check.module.css";

type Key = keyof Measurements;

/** The browser's facilities, looked up when a check runs (never during the server render). */
const PROBES: { [K in Key]-?: () => Promise<NonNullable<Measurements[K]>> } = {
  connection: () =>
    measureConnection({
      fetch: (input, init) => fetch(input, init),
      isOnline: () => navigator.onLine,
      now: () => Date.now(),
      monotonicNow: () => performance.now(),
    }),
  persistence: () => measurePersistence(navigator.storage as StorageManager | undefined),
  estimate: () => measureEstimate(navigator.storage as StorageManager | undefined),
  indexedDb: () => measureIndexedDb(typeof indexedDB === "undefined" ? undefined : indexedDB),
  serviceWorker: () => measureServiceWorker("serviceWorker" in navigator ? navigator.serviceWorker : undefined),
};

const ALL_KEYS = Object.keys(PROBES) as Key[];

type Generations = Record<Key, number>;
type SetMeasurements = (update: (previous: Measurements) => Measurements) => void;

/** Starts the given checks; each result lands when it is ready, unless a newer run of that check started since. */
function measure(keys: readonly Key[], generations: Generations, setMeasurements: SetMeasurements) {
  for (const key of keys) {
    const generation = ++generations[key];
    void PROBES[key]().then((value) => {
      if (generations[key] === generation) setMeasurements((previous) => ({ ...previous, [key]: value }));
    });
  }
}

/** Shows the given checks as running again, then starts them. */
function restart(keys: readonly Key[], generations: Generations, setMeasurements: SetMeasurements) {
  setMeasurements((previous) => {
    const next = { ...previous };
    for (const key of keys) delete next[key];
    return next;
  });
  measure(keys, generations, setMeasurements);
}

/** A check's sentences in the reader's language (`candidate.check`). */
function useSay(): (message: CheckMessage) => string {
  const t = useTranslations("candidate.check");
  const locale = useLocale();
  return (message) => describeCheck(message, (key, values) => t(key, values), locale);
}

function Finding({ result }: { result: CheckResult }) {
  const t = useTranslations("candidate.check");
  const say = useSay();
  return (
    <li>
      <a href={`#check-${result.id}`}>
        {t.rich("verdict.finding", {
          title: t(`titles.${result.id}`),
          summary: say(result.summary),
          strong: (chunks) => <strong>{chunks}</strong>,
        })}
      </a>
    </li>
  );
}

function Summary({ verdict, examHref }: { verdict: Verdict; examHref: string }) {
  const t = useTranslations("candidate.check.verdict");
  const headline = {
    checking: t("checking"),
    ready: t("ready"),
    "ready-with-notes": verdict.kind === "ready-with-notes" ? t("readyWithNotes", { count: verdict.notes.length }) : "",
    "not-ready": t("notReady"),
  }[verdict.kind];
  return (
    <section className={styles.summary} data-verdict={verdict.kind} aria-labelledby="check-summary" aria-live="polite">
      <h2 id="check-summary" className={styles.headline}>
        {headline}
      </h2>
      {verdict.kind === "checking" ? <p>{t("checkingText")}</p> : null}
      {verdict.kind === "ready" ? <p>{t("readyText")}</p> : null}
      {verdict.kind === "ready-with-notes" ? (
        <>
          <p>{t("notesIntro")}</p>
          <ul className={styles.findings}>
            {verdict.notes.map((note) => (
              <Finding key={note.id} result={note} />
            ))}
          </ul>
        </>
      ) : null}
      {verdict.kind === "not-ready" ? (
        <>
          <p>{t("fixIntro")}</p>
          <ul className={styles.findings}>
            {verdict.fixes.map((fix) => (
              <Finding key={fix.id} result={fix} />
            ))}
          </ul>
        </>
      ) : null}
      {verdict.kind === "ready" || verdict.kind === "ready-with-notes" ? (
        <p className={styles.next}>
          <Link className="button button--primary" href={examHref}>
            {t("goToExam")}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

function Check({ result }: { result: CheckResult }) {
  const t = useTranslations("candidate.check");
  const say = useSay();
  const headingId = `check-${result.id}-title`;
  return (
    <li
      id={`check-${result.id}`}
      className={styles.check}
      data-status={result.status}
      aria-labelledby={headingId}
      aria-busy={result.status === "running"}
    >
      <div className={styles.checkHead}>
        <h3 id={headingId} className={styles.checkTitle}>
          {t(`titles.${result.id}`)}
        </h3>
        <span className={styles.status}>{t(`statuses.${result.status}`)}</span>
      </div>
      <p className={styles.result}>{say(result.summary)}</p>
      {result.detail ? <p className={styles.detail}>{say(result.detail)}</p> : null}
    </li>
  );
}

/**
 * Runs every check of lib/client/pre-exam-check.ts in this browser and shows the results as they come,
 * with the verdict on top. The connection is measured again whenever the browser goes on- or offline.
 * These are probes of the device, not server data, so they run from an effect rather than React Query.
 */
export function PreExamCheck({ examHref }: { examHref: string }) {
  const t = useTranslations("candidate.check");
  const [measurements, setMeasurements] = useState<Measurements>({});
  // A result from an older run of the same check (the candidate pressed Check again meanwhile) is dropped.
  const generations = useRef<Generations>({
    connection: 0,
    persistence: 0,
    estimate: 0,
    indexedDb: 0,
    serviceWorker: 0,
  });

  useEffect(() => {
    measure(ALL_KEYS, generations.current, setMeasurements);
    const onConnectionChange = () => restart(["connection"], generations.current, setMeasurements);
    window.addEventListener("online", onConnectionChange);
    window.addEventListener("offline", onConnectionChange);
    return () => {
      window.removeEventListener("online", onConnectionChange);
      window.removeEventListener("offline", onConnectionChange);
    };
  }, []);

  const results = assessAll(measurements);
  const verdict = verdictOf(results);

  return (
    <div className={styles.root}>
      <Summary verdict={verdict} examHref={examHref} />
      <h2 id="checks-heading" className={styles.checksHeading}>
        {t("checksHeading")}
      </h2>
      <ul className={styles.checks} aria-labelledby="checks-heading">
        {results.map((result) => (
          <Check key={result.id} result={result} />
        ))}
      </ul>
      <button
        className="button"
        type="button"
        onClick={() => restart(ALL_KEYS, generations.current, setMeasurements)}
        disabled={results.some((result) => result.status === "running")}
      >
        {t("checkAgain")}
      </button>
    </div>
  );
}
