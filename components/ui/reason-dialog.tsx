"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";

import { ModalDialog } from "@/components/modal-dialog";

import { TextAreaField } from "./field";
import { FormError } from "./form-error";
import { checkReason, type ReasonLimits, type ReasonProblem } from "./reason-check";

export type { ReasonLimits, ReasonProblem };

import styles from "./dialog.module.css";

export type ReasonField = ReasonLimits & {
  /** The textarea's id (stable, so a test or a label elsewhere can find it). */
  id: string;
  label: string;
  placeholder?: string;
  rows?: number;
  /** The sentence for each problem, in the reader's language and with the limits' numbers formatted. */
  describeProblem: (problem: ReasonProblem) => string;
};

export type ReasonDialogProps = {
  /** The dialog's heading and accessible name. */
  title: string;
  /** What the action does, said before the fields; it describes the dialog. */
  intro?: string;
  /** The reason's textarea; null for an action without one (resuming). */
  reason: ReasonField | null;
  /** Extra fields (minutes, presets), between the reason's explanation and the reason; each shows its own error. */
  children?: ReactNode;
  /** Extra fields that come after the reason (a reopening's minutes); each shows its own error. */
  afterReason?: ReactNode;
  /**
   * Checks the extra fields on submit (and shows their errors inline); false stops the submission. Called even
   * when the reason is wrong, so every error is shown at once.
   */
  onValidate?: () => boolean;
  /** Sends the action with the trimmed reason ("" when there is none). */
  onConfirm: (reason: string) => void;
  isPending: boolean;
  /** What the server refused, in the reader's language; shown above the buttons. */
  error: string | null;
  /** After success: what happened (a status), shown in place of the form with one Close button. */
  done: ReactNode | null;
  confirmLabel: string;
  pendingLabel: string;
  /** "danger" for an action that cannot be taken back (force-submit). */
  tone?: "primary" | "danger";
  cancelLabel?: string;
  closeLabel?: string;
  /** Every way out (Cancel, Close, Escape) ends here, after the browser has put focus back where it was. */
  onClose: () => void;
  /** Overrides of the dialog's look, for a page that sizes its dialogs differently. */
  className?: string;
  titleClassName?: string;
};

/**
 * The dialog of a staff action that asks why (pause, resume, extend, reopen, force-submit): a title, what the
 * action does, optional extra fields, the reason with its error beside it, and Cancel / confirm. Checks the reason
 * against the API's limits before sending (and, once it has said what is wrong, again as the reason is typed); a refused submission puts focus on the first field in error, whose
 * error is its description. While the request runs the confirm button is disabled and says so; what the server
 * refuses is said above the buttons (an alert). On success the form gives way to `done` and a Close button. The
 * native <dialog> (ModalDialog) traps focus, returns it to the opener, and Escape cancels.
 */
export function ReasonDialog({
  title,
  intro,
  reason,
  children,
  afterReason,
  onValidate,
  onConfirm,
  isPending,
  error,
  done,
  confirmLabel,
  pendingLabel,
  tone = "primary",
  cancelLabel,
  closeLabel,
  onClose,
  className,
  titleClassName,
}: ReasonDialogProps) {
  const tc = useTranslations("common");
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<ReasonProblem | null>(null);
  // Counts refused submissions: after each, focus goes to the first field that says what is wrong.
  const [refusals, setRefusals] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const introId = useId();

  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = reason ? checkReason(text, reason) : null;
    const areExtrasValid = onValidate ? onValidate() : true;
    setProblem(found);
    if (found !== null || !areExtrasValid) {
      setRefusals((count) => count + 1);
      return;
    }
    onConfirm(text.trim());
  };

  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      describedBy={done === null && intro ? introId : undefined}
      className={className ?? styles.dialog}
      titleClassName={titleClassName ?? styles.title}
    >
      {done !== null ? (
        <>
          {done}
          <div className={styles.actions}>
            <button type="button" className="button button--primary" onClick={onClose}>
              {closeLabel ?? tc("close")}
            </button>
          </div>
        </>
      ) : (
        <form className="form" ref={formRef} onSubmit={onSubmit} noValidate>
          {intro ? <p id={introId}>{intro}</p> : null}
          {children}
          {reason ? (
            <TextAreaField
              id={reason.id}
              label={reason.label}
              rows={reason.rows ?? 3}
              required={reason.isRequired}
              maxLength={reason.maxLength}
              placeholder={reason.placeholder}
              value={text}
              error={problem !== null ? reason.describeProblem(problem) : null}
              onChange={(event) => {
                setText(event.target.value);
                // Once said, the error follows what is typed: it goes as soon as the reason is acceptable.
                if (problem !== null) setProblem(checkReason(event.target.value, reason));
              }}
            />
          ) : null}
          {afterReason}
          <FormError message={error} />
          <div className={styles.actions}>
            <button type="button" className="button button--quiet" onClick={onClose}>
              {cancelLabel ?? tc("cancel")}
            </button>
            <button
              type="submit"
              className={tone === "danger" ? `button ${styles.danger}` : "button button--primary"}
              disabled={isPending}
            >
              {isPending ? pendingLabel : confirmLabel}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
