"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import type { AttemptPause } from "@/lib/client/sync/sync-state";

import { clock } from "./countdown";

import styles from "./pause-banner.module.css";

/** The banner's text: the submit buttons point at it to say why they are unavailable. */
export const PAUSE_NOTE_ID = "exam-pause-note";

/**
 * A proctor's pause (ADR 016), calmly: a notice in the page's flow, never a dialog that takes focus from an
 * answer. Its live region is always on the page, so the pause, and later the resume, are announced politely.
 * The remaining time is the frozen deadline − pausedAt, by the server's clock. Once the time is up the resume is
 * no longer said.
 */
export function PauseBanner({
  pause,
  deadline,
  isTimeUp,
}: {
  pause: AttemptPause | null;
  deadline: string | null;
  /** Past the deadline: the resume is old news, and "you can change your answers" no longer true. */
  isTimeUp: boolean;
}) {
  const t = useTranslations("exam.pause");
  // Derived while rendering: a pause seen and then gone is a resume, said until the next pause.
  const [wasPaused, setWasPaused] = useState(pause !== null);
  if (pause !== null && !wasPaused) setWasPaused(true);
  const remaining = pause !== null && deadline !== null ? Date.parse(deadline) - Date.parse(pause.pausedAt) : null;

  return (
    <div role="status" className={styles.banner}>
      {pause !== null ? (
        // `notice--pause`: the hook e2e/screenshots.spec.ts and e2e/a11y/axe.spec.ts find the banner by.
        <section className={`notice ${styles.pause} notice--pause`} aria-labelledby="exam-pause-title">
          <h2 id="exam-pause-title">{t("title", { reason: pause.reason })}</h2>
          <p id={PAUSE_NOTE_ID}>
            {t("text", { time: remaining === null ? "–:––" : clock(remaining) })} {t("submitLocked")}
          </p>
        </section>
      ) : wasPaused && !isTimeUp ? (
        <p className="quiet">{t("resumed")}</p>
      ) : null}
    </div>
  );
}
