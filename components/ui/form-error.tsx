/**
 * The form's own error (what failed on submit, in the reader's language), read out at once. Always rendered,
 * empty when there is none, so the live region exists before the first message. Give `id` when a control is
 * described by it.
 */
export function FormError({ message, id, className }: { message?: string | null; id?: string; className?: string }) {
  return (
    <p id={id} className={className ? `form-error ${className}` : "form-error"} role="alert" aria-live="assertive">
      {message ?? ""}
    </p>
  );
}

/**
 * What a form or action did ("Added Pat"), read out politely. Always rendered, hidden while empty. `className`
 * replaces the shared `form-done` look (a page's own status colour).
 */
export function FormStatus({ message, id, className }: { message?: string | null; id?: string; className?: string }) {
  return (
    <p id={id} className={className ?? "form-done"} role="status" aria-live="polite">
      {message ?? ""}
    </p>
  );
}
