"use client";

import { useTranslations } from "next-intl";
import { useCallback, useId, useRef, useState, type ReactNode } from "react";

import { ModalDialog } from "./modal-dialog";

import styles from "./ui/dialog.module.css";

export type ConfirmRequest = {
  /** The question, as the dialog's heading and accessible name: "Disable Pat?". */
  title: string;
  /** What happens if the reader goes ahead, in a sentence or two. */
  text: string;
  /** The verb on the button that goes ahead ("Disable"); Cancel is always the other choice. */
  confirmLabel: string;
};

/**
 * An in-page confirmation for a staff action, in place of `window.confirm` (which cannot be styled, is not
 * translated by the page and is blocked in some embedded browsers). `confirm(request)` shows the dialog and
 * resolves `true` only when the reader presses the confirm button; Cancel, Escape or closing resolves `false`.
 * Render `dialog` once anywhere in the component. Needs the `common` messages.
 */
export function useConfirm(): { confirm: (request: ConfirmRequest) => Promise<boolean>; dialog: ReactNode } {
  const [open, setOpen] = useState<{ request: ConfirmRequest; resolve: (ok: boolean) => void } | null>(null);
  const confirm = useCallback(
    (request: ConfirmRequest) => new Promise<boolean>((resolve) => setOpen({ request, resolve })),
    [],
  );
  const dialog = open ? (
    <ConfirmDialog
      request={open.request}
      onAnswer={(ok) => {
        setOpen(null);
        open.resolve(ok);
      }}
    />
  ) : null;
  return { confirm, dialog };
}

/**
 * The confirmation on the shared modal (ModalDialog): named by its question, described by its text, focus on
 * the question; Escape or closing is Cancel, and only the first answer counts.
 */
function ConfirmDialog({ request, onAnswer }: { request: ConfirmRequest; onAnswer: (ok: boolean) => void }) {
  const t = useTranslations("common");
  const answered = useRef(false);
  const textId = useId();

  const answer = (ok: boolean) => {
    if (answered.current) return;
    answered.current = true;
    onAnswer(ok);
  };

  return (
    <ModalDialog
      title={request.title}
      onClose={() => answer(false)}
      describedBy={textId}
      isTitleFocused
      className={styles.dialog}
      titleClassName={styles.question}
    >
      <p id={textId}>{request.text}</p>
      <div className={styles.actions}>
        <button type="button" className="button" onClick={() => answer(false)}>
          {t("cancel")}
        </button>
        <button type="button" className={`button ${styles.confirm}`} onClick={() => answer(true)}>
          {request.confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
