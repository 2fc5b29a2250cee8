"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from "react";

import styles from "./confirm-dialog.module.css";

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
 * A native modal <dialog> (the browser keeps focus inside and returns it to the button that opened it),
 * named by its heading and described by its text. Focus starts on the heading, so a screen reader reads the
 * question first and a stray Enter does not confirm; Escape is Cancel.
 */
function ConfirmDialog({ request, onAnswer }: { request: ConfirmRequest; onAnswer: (ok: boolean) => void }) {
  const t = useTranslations("common");
  const ref = useRef<HTMLDialogElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const answered = useRef(false);
  const titleId = useId();
  const textId = useId();

  const answer = (ok: boolean) => {
    if (answered.current) return;
    answered.current = true;
    onAnswer(ok);
  };

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    titleRef.current?.focus();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onClose={() => answer(false)}
    >
      <h2 id={titleId} ref={titleRef} tabIndex={-1} className={styles.title}>
        {request.title}
      </h2>
      <p id={textId}>{request.text}</p>
      <div className={styles.actions}>
        <button type="button" className="button" onClick={() => answer(false)}>
          {t("cancel")}
        </button>
        <button type="button" className={`button ${styles.confirm}`} onClick={() => answer(true)}>
          {request.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
