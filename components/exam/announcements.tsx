"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useId, useState, useSyncExternalStore } from "react";

import type { AnnouncementInbox } from "@/lib/client/sync/announcements";
import { formatInstant } from "@/lib/shared/format";

import styles from "./announcements.module.css";

const NONE: ReturnType<AnnouncementInbox["getSnapshot"]> = [];

/**
 * Staff's announcements on the exam page (docs/sync-protocol.md, "Announcements"): a calm region near the
 * top, never a dialog, never taking focus from an answer. The list of those not dismissed is a polite live
 * region, present from the first paint, so a new one is read out once the candidate's screen reader is idle.
 * Dismissing is remembered on this device; "Announcements (N)" lists every one, and shows a dismissed one again.
 */
export function Announcements({ inbox }: { inbox: AnnouncementInbox }) {
  const t = useTranslations("exam.announcements");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  // The server render has none: the device's store is read after hydration.
  const records = useSyncExternalStore(inbox.subscribe, inbox.getSnapshot, () => NONE);
  const [isListOpen, setIsListOpen] = useState(false);
  const listId = useId();
  const titleId = useId();
  const shown = records.filter((record) => record.dismissed === 0);
  const sentAt = (iso: string) => t("sentAt", { time: formatInstant(iso, locale, timeZone) });

  return (
    // Rendered even when empty: a live region must be in the page before what it announces.
    <section
      className={records.length === 0 ? `${styles.announcements} ${styles.empty}` : styles.announcements}
      aria-labelledby={titleId}
    >
      <h2 id={titleId} className="visually-hidden">
        {t("title")}
      </h2>
      <ul className={styles.shown} aria-live="polite" aria-relevant="additions">
        {/* Newest first: the one just sent is the one the candidate needs. */}
        {[...shown].reverse().map((record) => (
          // `announcement`: the hook e2e/screenshots.spec.ts and e2e/a11y/axe.spec.ts count announcements by.
          <li key={record.id} className={`notice ${styles.announcement} announcement`}>
            <p>
              <strong>{t("fromStaff")}</strong> <span className="muted">{sentAt(record.sentAt)}</span>
            </p>
            <p className={styles.message} id={`${titleId}-${record.id}`}>
              {record.message}
            </p>
            <button
              type="button"
              className={`button button--quiet ${styles.dismiss}`}
              // Which one it dismisses, read after its name (not inside the live region's text).
              aria-describedby={`${titleId}-${record.id}`}
              onClick={() => void inbox.dismiss(record.id)}
            >
              {t("dismiss")}
            </button>
          </li>
        ))}
      </ul>
      {records.length === 0 ? null : (
        <>
          <button
            type="button"
            className={`button button--quiet ${styles.toggle}`}
            aria-expanded={isListOpen}
            aria-controls={listId}
            onClick={() => setIsListOpen((isOpen) => !isOpen)}
          >
            {t("toggle", { count: records.length })}
          </button>
          <ol id={listId} className={styles.all} hidden={!isListOpen}>
            {records.map((record) => (
              <li key={record.id}>
                <span className="muted">{sentAt(record.sentAt)}</span> <span>{record.message}</span>{" "}
                {record.dismissed === 1 ? (
                  <button
                    type="button"
                    className="button button--quiet"
                    onClick={() => void inbox.showAgain(record.id)}
                  >
                    {t("showAgain")}
                  </button>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
