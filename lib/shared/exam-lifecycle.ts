import type { AdminQuestion, ExamStatus } from "./schemas/exams";

/**
 * The exam lifecycle: draft -> published -> closed -> archived. A published exam with no attempt yet may go
 * back to draft (to rework it quietly); a closed one may be published again (reopened, checked again); an
 * archived one may come back to closed. Everything else is refused with STATUS_TRANSITION_REFUSED.
 */
export const STATUS_TRANSITIONS: Record<ExamStatus, readonly ExamStatus[]> = {
  draft: ["published"],
  published: ["closed", "draft"],
  closed: ["published", "archived"],
  archived: ["closed"],
};

export type TransitionRefusal = "not_allowed" | "has_attempts";

/** Why `from -> to` is refused, or null when it is allowed. Staying in the same status is no transition. */
export function transitionRefusal(from: ExamStatus, to: ExamStatus, attemptCount: number): TransitionRefusal | null {
  if (from === to) return null;
  if (!STATUS_TRANSITIONS[from].includes(to)) return "not_allowed";
  if (to === "draft" && attemptCount > 0) return "has_attempts";
  return null;
}

/** One thing that keeps an exam from being published; the editor shows each in the reader's language. */
export type PublishProblem =
  | { code: "NO_QUESTIONS" }
  | { code: "CHOICE_WITHOUT_KEY"; questionId: string | null; position: number }
  | { code: "WINDOW_NOT_ORDERED" }
  | { code: "WINDOW_ALREADY_CLOSED" }
  | { code: "WINDOW_SHORTER_THAN_DURATION" }
  | { code: "DURATION_NOT_POSITIVE" };

export type PublishableExam = {
  durationSeconds: number;
  opensAt: Date | null;
  closesAt: Date | null;
  questions: (Pick<AdminQuestion, "type" | "answerKey" | "ungraded"> & { id?: string | null })[];
};

function hasKey(answerKey: AdminQuestion["answerKey"]): boolean {
  if (answerKey === null) return false;
  return Array.isArray(answerKey) ? answerKey.length > 0 : true;
}

/**
 * Everything that keeps `exam` from being published at `now`, in the order the editor lists them; [] when it
 * may be published. Opening a candidate's window that is shorter than the duration is refused too: nobody
 * could use their full time.
 */
export function publishProblems(exam: PublishableExam, now: Date): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (exam.questions.length === 0) problems.push({ code: "NO_QUESTIONS" });
  exam.questions.forEach((question, index) => {
    const isChoice = question.type === "single_choice" || question.type === "multiple_choice";
    if (isChoice && !question.ungraded && !hasKey(question.answerKey)) {
      problems.push({ code: "CHOICE_WITHOUT_KEY", questionId: question.id ?? null, position: index + 1 });
    }
  });
  if (!(exam.durationSeconds > 0)) problems.push({ code: "DURATION_NOT_POSITIVE" });
  if (exam.opensAt && exam.closesAt && exam.opensAt >= exam.closesAt) problems.push({ code: "WINDOW_NOT_ORDERED" });
  else if (exam.closesAt && exam.closesAt <= now) problems.push({ code: "WINDOW_ALREADY_CLOSED" });
  else if (
    exam.closesAt &&
    exam.durationSeconds > 0 &&
    exam.closesAt.getTime() - Math.max(now.getTime(), exam.opensAt?.getTime() ?? 0) < exam.durationSeconds * 1000
  ) {
    problems.push({ code: "WINDOW_SHORTER_THAN_DURATION" });
  }
  return problems;
}
