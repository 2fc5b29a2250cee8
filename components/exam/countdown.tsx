"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useState } from "react";

import type { ConnectionState } from "@/lib/client/sync/sync-state";
import { formatClock, formatInstant } from "@/lib/shared/format";

import { useNow } from "./use-now";

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
function clock(remainingMs: number): string {
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
 * The deadline moved later while the page was open (only a proctor's extension does that): say so, calmly,
 * until it moves again. Derived while rendering from the previous deadline, not in an effect.
 */
function useExtension(deadline: string | null): number | null {
  const [shown, setShown] = useState<{ deadline: string | null; addedMs: number | null }>({
    deadline,
    addedMs: null,
  });
  if (shown.deadline !== deadline) {
    const added = shown.deadline !== null && deadline !== null ? Date.parse(deadline) - Date.parse(shown.deadline) : 0;
    const next = { deadline, addedMs: added > 0 ? added : shown.addedMs };
    setShown(next);
    return next.addedMs;
  }
  return shown.addedMs;
}

type Props = {
  deadline: string | null;
  /** Writes are accepted until then (deadline + grace): answers that arrive by then still count. */
  acceptsUntil: string | null;
  /** When the attempt started: the exam's length, with the deadline, decides when to warn. */
  startedAt: string;
  serverOffsetMs: number;
  pendingCount: number;
  connection: ConnectionState;
};

/**
 * Time left by the server's clock: the deadline minus (device time + the measured offset). The device clock
 * only displays (contract guarantee 5). The warnings, relative to the exam's length, are announced politely as
 * the stage changes; near the deadline with answers still on the device, the note says what will happen and
 * what to do (stay, reconnect, the emergency file), never that everything is kept.
 */
export function Countdown({ deadline, acceptsUntil, startedAt, serverOffsetMs, pendingCount, connection }: Props) {
  const t = useTranslations("exam.countdown");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const now = useNow();
  const remaining = now === null || deadline === null ? null : Date.parse(deadline) - (now + serverOffsetMs);
  const thresholds = warningThresholds(deadline === null ? 0 : Date.parse(deadline) - Date.parse(startedAt));
  const stage = remaining === null ? "plenty" : stageOf(remaining, thresholds);
  const addedMs = useExtension(deadline);

  let note = "";
  // Announced: the stage, and the warning when answers are stuck on the device. Not every change of the
  // count, which would speak at each keystroke near the deadline.
  let announcement = "";
  if (stage !== "plenty") {
    const when =
      stage === "over"
        ? t("over")
        : stage === "last-minute"
          ? t("lastMinute")
          : t("low", { minutes: Math.round((thresholds.lowMs ?? 0) / MINUTE_MS) });
    let what: string;
    if (pendingCount === 0) {
      what = stage === "over" ? t("overAllOnServer") : t("allOnServer");
    } else if (stage !== "over") {
      what = `${t("pending", { count: pendingCount })} ${connection === "ok" ? t("sendingNow", { count: pendingCount }) : t("reconnectNear", { count: pendingCount })}`;
    } else {
      const isStillCounting = acceptsUntil !== null && now !== null && Date.parse(acceptsUntil) > now + serverOffsetMs;
      what = `${t("pending", { count: pendingCount })} ${
        isStillCounting && acceptsUntil
          ? t("reconnectOver", { count: pendingCount, time: formatClock(acceptsUntil, locale, timeZone, false) })
          : t("lateOver", { count: pendingCount })
      }`;
    }
    note = `${when} ${what}`;
    announcement = pendingCount > 0 && connection !== "ok" ? note : when;
  }

  return (
    <div className={`countdown countdown--${stage}`}>
      <p className="countdown__clock">
        <span className="countdown__label">{t("timeLeft")}</span>{" "}
        <strong role="timer" aria-label={t("timeLeft")}>
          {remaining === null ? "–:––" : clock(remaining)}
        </strong>
      </p>
      <p className="countdown__note">{note}</p>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <p className="countdown__extended" role="status">
        {addedMs !== null ? t("extended", extensionParts(addedMs)) : ""}
      </p>
      {deadline ? (
        <p className="countdown__deadline muted">
          {t("deadline", { time: formatInstant(deadline, locale, timeZone) })}
        </p>
      ) : null}
    </div>
  );
}
