"use client";

import { useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";

import { FormError } from "@/components/ui/form-error";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";

import styles from "./leave-device.module.css";

/** The service worker's kept pages (public/sw.js, `holdfast-pages-<version>`): the exam as it was last shown. */
const KEPT_PAGES_PREFIX = "holdfast-pages-";

async function forgetKeptPages() {
  if (typeof caches === "undefined") return;
  for (const name of await caches.keys()) {
    if (name.startsWith(KEPT_PAGES_PREFIX)) await caches.delete(name);
  }
}

type Props = {
  /** Answers on this device the server has not acknowledged: leaving does not send them. */
  pendingCount: number;
  isSubmitted: boolean;
};

/**
 * Leaving the exam on a shared computer: ends this browser's candidate session on the server (the cookie
 * goes with it) and forgets the copies of the exam pages the service worker keeps for offline reloads, so
 * the next person finds nothing. It asks first, and says plainly what leaving means: answers still on this
 * device stay in this browser, unsent, until the join link is opened here again.
 */
export function LeaveDevice({ pendingCount, isSubmitted }: Props) {
  const t = useTranslations("exam.leave");
  const describe = useDescribeFailure();
  const warningId = useId();
  const warningRef = useRef<HTMLParagraphElement>(null);
  const [isConfirming, setIsConfirming] = useState(false);
  const [isLeaving, setIsLeaving] = useState(false);
  const [error, setError] = useState("");

  async function onLeave() {
    setIsLeaving(true);
    setError("");
    const result = await callApi("/api/session", { method: "DELETE" });
    if (!result.ok) {
      setError(describe(result.failure));
      setIsLeaving(false);
      return;
    }
    await forgetKeptPages().catch(() => undefined);
    // A full navigation: this page's sync engine stops with it.
    window.location.replace("/?left=1");
  }

  const warning = isSubmitted
    ? t("submitted")
    : pendingCount > 0
      ? t("pending", { count: pendingCount })
      : t("notSubmitted");

  return (
    <section className={styles.leave} aria-labelledby={`${warningId}-title`}>
      <h2 id={`${warningId}-title`} className={styles.title}>
        {t("title")}
      </h2>
      {!isConfirming ? (
        <>
          <p className="muted">{t("intro")}</p>
          <button
            type="button"
            className="button"
            onClick={() => {
              setIsConfirming(true);
              requestAnimationFrame(() => warningRef.current?.focus());
            }}
          >
            {t("start")}
          </button>
        </>
      ) : (
        <div className={pendingCount > 0 && !isSubmitted ? "notice notice--warn" : "notice"}>
          <p id={warningId} ref={warningRef} tabIndex={-1}>
            {warning}
          </p>
          <div className={styles.actions}>
            <button
              type="button"
              className="button button--primary"
              onClick={() => void onLeave()}
              disabled={isLeaving}
              aria-describedby={warningId}
            >
              {isLeaving ? t("leaving") : pendingCount > 0 && !isSubmitted ? t("confirmAnyway") : t("confirm")}
            </button>
            <button type="button" className="button" onClick={() => setIsConfirming(false)} disabled={isLeaving}>
              {t("stay")}
            </button>
          </div>
          <FormError message={error} />
        </div>
      )}
    </section>
  );
}
