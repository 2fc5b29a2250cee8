"use client";

/** Opens the browser's print dialog (the slips page's print styles lay out several slips per A4 page). */
export function PrintButton({ label }: { label: string }) {
  return (
    <button className="button button--primary" type="button" onClick={() => window.print()}>
      {label}
    </button>
  );
}
