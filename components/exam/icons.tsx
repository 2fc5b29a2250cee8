// Small inline icons for the exam page. Always next to words: an icon repeats what the text says, it never
// carries meaning alone (and is hidden from assistive technology).

type IconName = "saved" | "pending" | "rejected" | "late" | "flag" | "empty" | "info";

const PATHS: Record<IconName, string> = {
  // A tick in a circle.
  saved:
    "M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1Zm3.2 5.2-3.8 4.3a.8.8 0 0 1-1.2 0L4.8 9a.8.8 0 1 1 1.2-1l.9 1 3.1-3.6a.8.8 0 1 1 1.2 1Z",
  // A clock.
  pending:
    "M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1Zm0 1.5a5.5 5.5 0 1 1 0 11 5.5 5.5 0 0 1 0-11ZM7.25 4v4.3l2.9 1.8.8-1.3-2.2-1.3V4h-1.5Z",
  // An exclamation mark in a triangle.
  rejected: "M8 1.2 15 14H1L8 1.2Zm-.75 4.3v4.2h1.5V5.5h-1.5Zm0 5.4V12h1.5v-1.1h-1.5Z",
  // A tray: kept by the server, outside the paper.
  late: "M2 2h12v12H2V2Zm1.5 1.5v5h2.7l1 1.5h1.6l1-1.5h2.7v-5h-9Z",
  // A flag on a pole.
  flag: "M3 1.5h1.5V2h8l-2 3.25 2 3.25h-8V15H3V1.5Z",
  // An empty circle.
  empty: "M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1Zm0 1.5a5.5 5.5 0 1 1 0 11 5.5 5.5 0 0 1 0-11Z",
  // An i in a circle.
  info: "M8 1a7 7 0 1 0 0 14A7 7 0 0 0 8 1Zm-.75 3h1.5v1.5h-1.5V4Zm0 3h1.5v5h-1.5V7Z",
};

export function Icon({ name }: { name: IconName }) {
  return (
    <svg
      className={`icon icon--${name}`}
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} fill="currentColor" fillRule="evenodd" />
    </svg>
  );
}
