import "server-only";

import type { AdminQuestion, QuestionInput } from "@/lib/shared/schemas/exams";

/**
 * A question input as it is stored: every type-specific column set or cleared, short text accepted answers
 * always as a list (the input may be a single string, the first API's shape). The same normal form is what
 * an edit is compared against, so "nothing changed" is exact.
 */
export type QuestionData = Omit<AdminQuestion, "id" | "position">;

export function questionData(input: QuestionInput): QuestionData {
  const base = { type: input.type, prompt: input.prompt, points: input.points, rubric: input.rubric };
  switch (input.type) {
    case "single_choice":
      return {
        ...base,
        options: input.options,
        answerKey: input.answerKey ?? null,
        tolerance: null,
        scoring: null,
        exactMatch: false,
        ungraded: input.ungraded,
      };
    case "multiple_choice":
      return {
        ...base,
        options: input.options,
        answerKey: input.answerKey && input.answerKey.length > 0 ? input.answerKey : null,
        tolerance: null,
        scoring: input.scoring,
        exactMatch: false,
        ungraded: input.ungraded,
      };
    case "short_text": {
      const accepted = input.answerKey === undefined ? [] : [input.answerKey].flat();
      return {
        ...base,
        options: [],
        answerKey: accepted.length > 0 ? accepted : null,
        tolerance: null,
        scoring: null,
        exactMatch: input.exactMatch,
        ungraded: false,
      };
    }
    case "essay":
      return {
        ...base,
        options: [],
        answerKey: null,
        tolerance: null,
        scoring: null,
        exactMatch: false,
        ungraded: false,
      };
    case "numeric":
      return {
        ...base,
        options: [],
        answerKey: input.answerKey ?? null,
        tolerance: input.tolerance ?? null,
        scoring: null,
        exactMatch: false,
        ungraded: false,
      };
  }
}

/** The input that stores as this question again (questionData's inverse), with its id so it is kept. */
export function questionInputOf(question: QuestionData & { id?: string }): QuestionInput {
  const base = { id: question.id, prompt: question.prompt, points: question.points, rubric: question.rubric };
  const key = question.answerKey;
  switch (question.type) {
    case "single_choice":
      return {
        ...base,
        type: "single_choice",
        options: question.options,
        answerKey: typeof key === "string" ? key : undefined,
        ungraded: question.ungraded,
      };
    case "multiple_choice":
      return {
        ...base,
        type: "multiple_choice",
        options: question.options,
        answerKey: Array.isArray(key) ? key : undefined,
        scoring: question.scoring ?? "partial",
        ungraded: question.ungraded,
      };
    case "short_text":
      return {
        ...base,
        type: "short_text",
        answerKey: Array.isArray(key) ? key : undefined,
        exactMatch: question.exactMatch,
      };
    case "essay":
      return { ...base, type: "essay" };
    case "numeric":
      return {
        ...base,
        type: "numeric",
        answerKey: typeof key === "number" ? key : undefined,
        tolerance: question.tolerance ?? undefined,
      };
  }
}
