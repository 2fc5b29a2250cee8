/** Whether a candidate could start an exam now: the rule the start page shows and startAttempt enforces. */
export type ExamAvailability = "open" | "not_open" | "closed";

export function examAvailability(
  exam: { status: string; opensAt: Date | null; closesAt: Date | null },
  now: Date,
): ExamAvailability {
  if (exam.status === "closed" || exam.status === "archived" || (exam.closesAt && exam.closesAt <= now))
    return "closed";
  if (exam.status !== "published" || (exam.opensAt && exam.opensAt > now)) return "not_open";
  return "open";
}
