"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A native modal <dialog>: the browser traps focus, Escape closes it, and it has the dialog role with the
 * heading as its name. Opened on mount, so a parent shows it by rendering it.
 */
export function ModalDialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  // An id of its own: a title in any script (or two dialogs with one title) still names its dialog.
  const titleId = useId();
  return (
    <dialog ref={ref} className="modal" aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
