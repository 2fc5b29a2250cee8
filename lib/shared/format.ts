import type { AttemptStatus } from "./schemas/attempts";
import type { ExamStatus, QuestionType } from "./schemas/exams";

// Wording and formats the pages share. Times are shown in UTC and labelled so: the server's clock rules
// (contract guarantee 5), and a page rendered on the server cannot know the reader's time zone.

export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  single_choice: "Single choice",
  multiple_choice: "Multiple choice",
  short_text: "Short text",
  essay: "Essay",
  numeric: "Numeric",
};

export const EXAM_STATUS_LABELS: Record<ExamStatus, string> = {
  draft: "Draft",
  published: "Published",
  closed: "Closed",
};

export const ATTEMPT_STATUS_LABELS: Record<AttemptStatus | "not_started", string> = {
  not_started: "Not started",
  in_progress: "In progress",
  submitted: "Submitted",
};

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** 5400 -> "1 hour 30 minutes"; 90 -> "1 minute 30 seconds"; 0 -> "0 minutes". */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts: string[] = [];
  if (hours > 0) parts.push(plural(hours, "hour"));
  if (minutes > 0) parts.push(plural(minutes, "minute"));
  if (rest > 0) parts.push(plural(rest, "second"));
  return parts.length > 0 ? parts.join(" ") : "0 minutes";
}

const INSTANT_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** "1 Dec 2026, 08:00 UTC". */
export function formatInstant(instant: Date | string): string {
  return `${INSTANT_FORMAT.format(typeof instant === "string" ? new Date(instant) : instant)} UTC`;
}

/** The exam window in words: "Always open", "From …", "Until …" or "… to …". */
export function formatWindow(opensAt: Date | null, closesAt: Date | null): string {
  if (opensAt && closesAt) return `${formatInstant(opensAt)} to ${formatInstant(closesAt)}`;
  if (opensAt) return `From ${formatInstant(opensAt)}, no closing time`;
  if (closesAt) return `Until ${formatInstant(closesAt)}`;
  return "Always open";
}
