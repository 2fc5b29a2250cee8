"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";

import { ModalDialog } from "@/components/modal-dialog";

import styles from "./webhooks.module.css";

/**
 * A signing secret, shown this once (after adding an endpoint or rotating its secret): selectable text, a copy
 * button, and plainly that it will not be shown again. Nothing keeps it once the dialog closes.
 */
export function SecretDialog({
  title,
  intro,
  secret,
  onClose,
}: {
  title: string;
  intro: string;
  secret: string;
  onClose: () => void;
}) {
  const t = useTranslations("webhooks.secret");
  const [copyStatus, setCopyStatus] = useState("");
  const introId = useId();

  async function onCopy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopyStatus(t("copied"));
    } catch {
      setCopyStatus(t("copyFailed"));
    }
  }

  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      describedBy={introId}
      isTitleFocused
      className={styles.dialog}
      titleClassName={styles.dialogTitle}
    >
      <p id={introId}>{intro}</p>
      <p className={styles.secretLabel}>{t("label")}</p>
      <p>
        <code className={styles.secret} data-testid="webhook-secret">
          {secret}
        </code>
      </p>
      <div className={styles.dialogActions}>
        <span className={styles.copyStatus} role="status" aria-live="polite">
          {copyStatus}
        </span>
        <button type="button" className="button" onClick={() => void onCopy()}>
          {t("copy")}
        </button>
        <button type="button" className="button button--primary" onClick={onClose}>
          {t("done")}
        </button>
      </div>
    </ModalDialog>
  );
}
