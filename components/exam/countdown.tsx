"use client";

import { useState } from "react";

import { formatInstant } from "@/lib/shared/format";

import { useNow } from "./use-now";

type Stage = "plenty" | "ten-minutes" | "one-minute" | "over";

const NOTES: Record<Stage, string> = {
  plenty: "",
  "ten-minutes": "Less than 10 minutes left. Your answers are saved as you go.",
  "one-minute": "Less than a minute left. Everything you have answered is kept.",
  over: "Time is up. The server will submit the answers it holds.",
};

function stageOf(remainingMs: number): Stage {
  if (remainingMs <= 0) return "over";
  if (remainingMs <= 60_000) return "one-minute";
  if (remainingMs <= 10 * 60_000) return "ten-minutes";
  return "plenty";
}

/** 3725 s -> "1:02:05"; 65 s -> "1:05". */
function clock(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** "Your proctor gave you 10 more minutes." — for a deadline moved later by `addedMs`. */
export function extensionMessage(addedMs: number): string {
  const total = Math.round(addedMs / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  const parts = [
    ...(minutes > 0 ? [`${minutes} more ${minutes === 1 ? "minute" : "minutes"}`] : []),
    ...(seconds > 0 || minutes === 0
      ? [`${seconds} ${minutes > 0 ? "" : "more "}${seconds === 1 ? "second" : "seconds"}`]
      : []),
  ];
  // Never rounded up: a candidate must not be told of time they do not have.
  return `Your proctor gave you ${parts.join(" and ")}.`;
}

/**
 * The deadline moved later while the page was open (only a proctor's extension does that): say so, calmly,
 * until it moves again. Derived while rendering from the previous deadline, not in an effect.
 */
function useExtensionNotice(deadline: string | null): string | null {
  const [shown, setShown] = useState<{ deadline: string | null; notice: string | null }>({ deadline, notice: null });
  if (shown.deadline !== deadline) {
    const added = shown.deadline !== null && deadline !== null ? Date.parse(deadline) - Date.parse(shown.deadline) : 0;
    const next = { deadline, notice: added > 0 ? extensionMessage(added) : shown.notice };
    setShown(next);
    return next.notice;
  }
  return shown.notice;
}

/**
 * Time left by the server's clock: the deadline minus (device time + the measured offset). The device clock
 * only displays (contract guarantee 5). The warnings are announced politely, once each, as the stage changes.
 */
export function Countdown({ deadline, serverOffsetMs }: { deadline: string | null; serverOffsetMs: number }) {
  const now = useNow();
  const remaining = now === null || deadline === null ? null : Date.parse(deadline) - (now + serverOffsetMs);
  const stage = remaining === null ? "plenty" : stageOf(remaining);
  const extension = useExtensionNotice(deadline);
  return (
    <div className={`countdown countdown--${stage}`}>
      <p className="countdown__clock">
        <span className="countdown__label">Time left</span>{" "}
        <strong role="timer" aria-label="Time left">
          {remaining === null ? "–:––" : clock(remaining)}
        </strong>
      </p>
      <p className="countdown__note" aria-live="polite">
        {NOTES[stage]}
      </p>
      <p className="countdown__extended" role="status">
        {extension ?? ""}
      </p>
      {deadline ? (
        <p className="countdown__deadline muted">Deadline: {formatInstant(deadline, "en", "UTC")} (server time)</p>
      ) : null}
    </div>
  );
}
