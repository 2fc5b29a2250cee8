"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";

import type { ConnectionState } from "@/lib/client/sync/sync-state";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { formatClock, formatInstant } from "@/lib/shared/format";

import { useNow } from "./use-now";

import page from "./exam-page.module.css";

export type TimeStage = "plenty" | "low" | "last-minute" | "over";

/** The first warning comes at the largest of these (in minutes) that is at most a quarter of the exam. */
const LOW_WARNING_MINUTES = [10, 5, 2] as const;
const MINUTE_MS = 60_000;

export type WarningThresholds = { lowMs: number | null; lastMinuteMs: number | null };

/**
 * When the countdown warns, relative to the time the candidate had (duration, extra time and any extension):
 * a warning must say something the candidate did not know at the start, so none comes before the last quarter
 * of the exam. A 10-minute exam warns at 2 minutes and at 1; a 5-minute one only in its last minute; an exam of
 * 40 minutes or more at 10 minutes and at 1.
 */
export function warningThresholds(totalMs: number): WarningThresholds {
  const quarter = totalMs / 4;
  const low = LOW_WARNING_MINUTES.find((minutes) => minutes * MINUTE_MS <= quarter);
  return {
    lowMs: low === undefined ? null : low * MINUTE_MS,
    lastMinuteMs: MINUTE_MS <= quarter ? MINUTE_MS : null,
  };
}

export function stageOf(remainingMs: number, thresholds: WarningThresholds): TimeStage {
  if (remainingMs <= 0) return "over";
  if (thresholds.lastMinuteMs !== null && remainingMs <= thresholds.lastMinuteMs) return "last-minute";
  if (thresholds.lowMs !== null && remainingMs <= thresholds.lowMs) return "low";
  return "plenty";
}

/** 3725 s -> "1:02:05"; 65 s -> "1:05". Digits and colons read the same in every locale we speak. */
export function clock(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** Whole minutes and seconds a proctor added, never rounded up: a candidate must not be told of time they lack. */
export function extensionParts(addedMs: number): { minutes: number; seconds: number } {
  const total = Math.floor(addedMs / 1000);
  return { minutes: Math.floor(total / 60), seconds: total % 60 };
}

/**
 * The deadline moved later while the page was open by a proctor's extension: say so, calmly, until it moves
 * again. A resume also moves it, by the paused time, which is no extra time: not counted. Derived while
 * rendering from the previous deadline and pause, not in an effect.
 */
function useExtension(deadline: string | null, pausedAt: string | null): number | null {
  const [shown, setShown] = useState<{ deadline: string | null; pausedAt: string | null; addedMs: number | null }>({
    deadline,
    pausedAt,
    addedMs: null,
  });
  if (shown.deadline !== deadline || shown.pausedAt !== pausedAt) {
    // A resume (paused, then not): its move of the deadline is the paused time given back. An extension made
    // while paused still moves it, and is said.
    const isResume = shown.pausedAt !== null && pausedAt === null;
    const added =
      !isResume && shown.deadline !== null && deadline !== null ? Date.parse(deadline) - Date.parse(shown.deadline) : 0;
    const next = { deadline, pausedAt, addedMs: added > 0 ? added : shown.addedMs };
    setShown(next);
    return next.addedMs;
  }
  return shown.addedMs;
}

type TimeFacts = {
  deadline: string | null;
  /** Writes are accepted until then (deadline + grace): answers that arrive by then still count. */
  acceptsUntil: string | null;
  /** When the attempt started: the exam's length, with the deadline, decides when to warn. */
  startedAt: string;
  serverOffsetMs: number;
  /** While paused (server time since when): the clock stands still at deadline − pausedAt (ADR 016). */
  pausedAt: string | null;
};

type TimeLeft = {
  remaining: number | null;
  stage: TimeStage;
  /** The "Less than N minutes left" of the stage (empty while there is plenty). */
  when: string;
  /** Answers that reach the server before this instant still count (null when that time has passed). */
  countsUntil: string | null;
};

/** Time left by the server's clock, and what the stage is called, for the bar and the warning below it. */
function useTimeLeft({ deadline, acceptsUntil, startedAt, serverOffsetMs, pausedAt }: TimeFacts): TimeLeft {
  const t = useTranslations("exam.countdown");
  const now = useNow();
  const serverNow = pausedAt !== null ? Date.parse(pausedAt) : now === null ? null : now + serverOffsetMs;
  const remaining = serverNow === null || deadline === null ? null : Date.parse(deadline) - serverNow;
  const thresholds = warningThresholds(deadline === null ? 0 : Date.parse(deadline) - Date.parse(startedAt));
  const stage = remaining === null ? "plenty" : stageOf(remaining, thresholds);
  const when = {
    plenty: "",
    low: t("low", { minutes: Math.round((thresholds.lowMs ?? 0) / MINUTE_MS) }),
    "last-minute": t("lastMinute"),
    over: t("over"),
  }[stage];
  const countsUntil =
    acceptsUntil !== null && serverNow !== null && Date.parse(acceptsUntil) > serverNow ? acceptsUntil : null;
  return { remaining, stage, when, countsUntil };
}

type Props = TimeFacts & {
  pendingCount: number;
  connection: ConnectionState;
  /** The emergency file is on the page (time up, answers waiting, no connection): the bar links to it. */
  emergencyHref: string | null;
};

/**
 * The sticky bar's clock: time left by the server's clock, the deadline minus (device time + the measured
 * offset); the device clock only displays (contract guarantee 5). The warnings, relative to the exam's length,
 * are short here and announced politely as the stage changes; with answers still on the device the note says
 * what to do in a few words, never that everything is kept (DeadlineWarning, below the bar, says it in full).
 */
export function Countdown(props: Props) {
  const { pendingCount, connection, emergencyHref } = props;
  const t = useTranslations("exam.countdown");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const { remaining, stage, when, countsUntil } = useTimeLeft(props);
  const addedMs = useExtension(props.deadline, props.pausedAt);

  let what = "";
  if (stage !== "plenty") {
    if (pendingCount === 0) what = stage === "over" ? t("short.overAllOnServer") : t("short.allOnServer");
    else if (stage !== "over")
      what = t(connection === "ok" ? "short.sending" : "short.reconnect", { count: pendingCount });
    else if (countsUntil)
      what = t("short.reconnectBy", {
        count: pendingCount,
        time: formatClock(countsUntil, locale, timeZone, false),
      });
    else what = t("short.emergency", { count: pendingCount });
  }
  // Announced: the stage, and the warning when answers are stuck on the device. Not every change of the
  // count, which would speak at each keystroke near the deadline. With plenty of time there is neither (the
  // connection banner says the rest); the joined message is not formatted from two empty parts, which a
  // precompiled catalogue turns into no string at all (and next-intl into the message's key).
  const announcement =
    pendingCount > 0 && connection !== "ok" && what !== "" ? t("short.announcement", { when, what }) : when;
  const stageMark = (chunks: ReactNode) => <strong>{chunks}</strong>;

  return (
    <div className={page.countdown}>
      <p className={page.clock}>
        <span className={page.clockLabel}>{t("timeLeft")}</span>{" "}
        <strong role="timer" aria-label={t("timeLeft")}>
          {remaining === null ? "–:––" : clock(remaining)}
        </strong>
        {props.pausedAt !== null ? <span className={page.paused}> {t("paused")}</span> : null}
      </p>
      <p className={page.note}>
        {stage === "plenty"
          ? null
          : emergencyHref && pendingCount > 0
            ? t.rich("short.noteWithLink", {
                when,
                what,
                stage: stageMark,
                link: (chunks) => <a href={emergencyHref}>{chunks}</a>,
              })
            : t.rich("short.note", { when, what, stage: stageMark })}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <p className={page.extended} role="status">
        {addedMs !== null ? t("extended", extensionParts(addedMs)) : ""}
      </p>
    </div>
  );
}

/**
 * Below the bar, near the deadline with answers still on this device: what will happen to them and what to do
 * (stay on the page, reconnect, the emergency file), in full. Nothing when every answer is on the server.
 */
export function DeadlineWarning(props: TimeFacts & { pendingCount: number; connection: ConnectionState }) {
  const { pendingCount, connection } = props;
  const t = useTranslations("exam.countdown");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const { stage, when, countsUntil } = useTimeLeft(props);
  if (stage === "plenty" || pendingCount === 0) return null;
  const values = { count: pendingCount };
  const what =
    stage !== "over"
      ? t(connection === "ok" ? "sendingNow" : "reconnectNear", values)
      : countsUntil
        ? t("reconnectOver", { ...values, time: formatClock(countsUntil, locale, timeZone, false) })
        : t("lateOver", values);
  return (
    <p className={`notice notice--warn ${page.deadlineWarning}`}>
      {t.rich("warning", {
        when,
        pending: t("pending", values),
        what,
        strong: (chunks) => <strong>{chunks}</strong>,
      })}
    </p>
  );
}

/**
 * The deadline as a date and time, and the one time zone every time on the exam page is shown in (the banner's
 * "last saved" too). Outside the sticky bar: a fact to read once, not to keep in view. While the exam is paused
 * the deadline moves on with every second of the pause (ADR 016): the note says so instead of a time that is no
 * longer true, and the new time shows once the exam resumes.
 */
export function DeadlineNote({ deadline, isPaused }: { deadline: string | null; isPaused: boolean }) {
  const t = useTranslations("exam.countdown");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  return (
    <div className={page.deadline}>
      {deadline ? (
        <p>{isPaused ? t("deadlinePaused") : t("deadline", { time: formatInstant(deadline, locale, timeZone) })}</p>
      ) : null}
      <TimeZoneNote />
    </div>
  );
}
