import type {
  AdminExam,
  AdminQuestion,
  ChoiceScoring,
  LateAnswerPolicy,
  Option,
  QuestionType,
  ResultsDetail,
  ResultsVisibility,
} from "@/lib/shared/schemas/exams";
import { instantToZonedInput, zonedInputToInstant } from "@/lib/shared/zoned-time";

/**
 * The exam editor's form state: what the admin typed, as text, until it is saved. Numbers stay strings so a
 * half-typed value is never lost; the server's 422 names the field, and the editor shows it there.
 */
export type DraftQuestion = {
  /** React key; stable across reorders. */
  key: string;
  /** Null for a question not saved yet. */
  id: string | null;
  type: QuestionType;
  prompt: string;
  points: string;
  options: Option[];
  /** Choice questions: the ids marked correct. */
  keyIds: string[];
  ungraded: boolean;
  scoring: ChoiceScoring;
  /** Short text: accepted answers, one per line. */
  accepted: string;
  exactMatch: boolean;
  /** Numeric. */
  numericKey: string;
  tolerance: string;
  /** Guidance for graders, every type. */
  rubric: string;
};

export type ExamDraft = {
  title: string;
  description: string;
  rules: string;
  durationMinutes: string;
  graceSeconds: string;
  isAlwaysOpen: boolean;
  opensAt: string;
  closesAt: string;
  lateAnswers: LateAnswerPolicy;
  resultsVisibility: ResultsVisibility;
  resultsDetail: ResultsDetail;
  secondMarking: boolean;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  questions: DraftQuestion[];
};

let keySeed = 0;
export function newKey(): string {
  keySeed += 1;
  return `q${Date.now().toString(36)}${keySeed}`;
}

/** The next free option id: a, b, c … z, then o27, o28 … */
export function nextOptionId(options: Option[]): string {
  const used = new Set(options.map((option) => option.id));
  for (let code = 97; code <= 122; code += 1) {
    const id = String.fromCharCode(code);
    if (!used.has(id)) return id;
  }
  let n = options.length + 1;
  while (used.has(`o${n}`)) n += 1;
  return `o${n}`;
}

export function blankQuestion(type: QuestionType): DraftQuestion {
  const isChoice = type === "single_choice" || type === "multiple_choice";
  return {
    key: newKey(),
    id: null,
    type,
    prompt: "",
    points: "1",
    options: isChoice
      ? [
          { id: "a", label: "" },
          { id: "b", label: "" },
        ]
      : [],
    keyIds: [],
    ungraded: false,
    scoring: "partial",
    accepted: "",
    exactMatch: false,
    numericKey: "",
    tolerance: "",
    rubric: "",
  };
}

function draftQuestion(question: AdminQuestion): DraftQuestion {
  const key = question.answerKey;
  return {
    key: newKey(),
    id: question.id,
    type: question.type,
    prompt: question.prompt,
    points: String(question.points),
    options: question.options,
    keyIds:
      question.type === "single_choice" && typeof key === "string"
        ? [key]
        : question.type === "multiple_choice" && Array.isArray(key)
          ? key
          : [],
    ungraded: question.ungraded,
    scoring: question.scoring ?? "partial",
    accepted: question.type === "short_text" && key !== null && typeof key !== "number" ? [key].flat().join("\n") : "",
    exactMatch: question.exactMatch,
    numericKey: question.type === "numeric" && typeof key === "number" ? String(key) : "",
    tolerance: question.tolerance === null ? "" : String(question.tolerance),
    rubric: question.rubric,
  };
}

export function draftOf(exam: AdminExam, timeZone: string): ExamDraft {
  return {
    title: exam.title,
    description: exam.description,
    rules: exam.rules,
    durationMinutes: String(exam.durationSeconds / 60),
    graceSeconds: String(exam.graceSeconds),
    isAlwaysOpen: exam.opensAt === null && exam.closesAt === null,
    opensAt: exam.opensAt ? instantToZonedInput(exam.opensAt, timeZone) : "",
    closesAt: exam.closesAt ? instantToZonedInput(exam.closesAt, timeZone) : "",
    lateAnswers: exam.lateAnswers,
    resultsVisibility: exam.resultsVisibility,
    resultsDetail: exam.resultsDetail,
    secondMarking: exam.secondMarking,
    shuffleQuestions: exam.shuffleQuestions,
    shuffleOptions: exam.shuffleOptions,
    questions: exam.questions.map(draftQuestion),
  };
}

/** A typed number, or the text itself so the server names the field (422) rather than us guessing. */
function numberOr(text: string): number | string {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed !== "" && Number.isFinite(value) ? value : text;
}

function questionBody(question: DraftQuestion): Record<string, unknown> {
  const base = {
    ...(question.id ? { id: question.id } : {}),
    type: question.type,
    prompt: question.prompt,
    points: numberOr(question.points),
    rubric: question.rubric,
  };
  switch (question.type) {
    case "single_choice":
      return {
        ...base,
        options: question.options,
        ungraded: question.ungraded,
        ...(question.keyIds[0] && !question.ungraded ? { answerKey: question.keyIds[0] } : {}),
      };
    case "multiple_choice":
      return {
        ...base,
        options: question.options,
        ungraded: question.ungraded,
        scoring: question.scoring,
        ...(question.keyIds.length > 0 && !question.ungraded ? { answerKey: question.keyIds } : {}),
      };
    case "short_text": {
      const accepted = question.accepted
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean);
      return { ...base, exactMatch: question.exactMatch, ...(accepted.length > 0 ? { answerKey: accepted } : {}) };
    }
    case "essay":
      return base;
    case "numeric":
      return {
        ...base,
        ...(question.numericKey.trim() ? { answerKey: numberOr(question.numericKey) } : {}),
        ...(question.tolerance.trim() ? { tolerance: numberOr(question.tolerance) } : {}),
      };
  }
}

/** A window field as the PATCH sends it: null for none, an ISO instant, or the raw text (a 422 names it). */
function windowValue(isAlwaysOpen: boolean, text: string, timeZone: string): string | null {
  if (isAlwaysOpen || text === "") return null;
  return zonedInputToInstant(text, timeZone)?.toISOString() ?? text;
}

/** The PATCH body for the whole draft, based on `revision`. */
export function patchBody(draft: ExamDraft, revision: number, timeZone: string): Record<string, unknown> {
  const minutes = numberOr(draft.durationMinutes);
  return {
    revision,
    title: draft.title,
    description: draft.description,
    rules: draft.rules,
    durationSeconds: typeof minutes === "number" ? Math.round(minutes * 60) : minutes,
    graceSeconds: numberOr(draft.graceSeconds),
    opensAt: windowValue(draft.isAlwaysOpen, draft.opensAt, timeZone),
    closesAt: windowValue(draft.isAlwaysOpen, draft.closesAt, timeZone),
    lateAnswers: draft.lateAnswers,
    resultsVisibility: draft.resultsVisibility,
    resultsDetail: draft.resultsDetail,
    secondMarking: draft.secondMarking,
    shuffleQuestions: draft.shuffleQuestions,
    shuffleOptions: draft.shuffleOptions,
    questions: draft.questions.map(questionBody),
  };
}

/** Moves the item at `from` to `to` (both in range), returning a new array. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}
