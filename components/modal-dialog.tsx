"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A native modal <dialog>: the browser traps focus (and returns it to the button that opened it), Escape
 * closes it, and it has the dialog role with the heading as its name. Opened on mount, so a parent shows it by
 * rendering it. `describedBy` names the element that describes it; `isTitleFocused` puts focus on the heading
 * (a confirmation: a screen reader reads the question first, and a stray Enter confirms nothing).
 */
export function ModalDialog({
  title,
  onClose,
  children,
  describedBy,
  isTitleFocused = false,
  className = "modal",
  titleClassName,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  describedBy?: string;
  isTitleFocused?: boolean;
  className?: string;
  titleClassName?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    if (isTitleFocused) titleRef.current?.focus();
    return () => dialog?.close();
    // Opened once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // An id of its own: a title in any script (or two dialogs with one title) still names its dialog.
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      // Escape cancels, and the cancelled dialog closes itself: `close` is the one event for every way out, after
      // the browser has put focus back on the button that opened it.
      onClose={onClose}
    >
      <h2 id={titleId} ref={titleRef} tabIndex={isTitleFocused ? -1 : undefined} className={titleClassName}>
        {title}
      </h2>
      {children}
    </dialog>
  );
}
