import { LIMITS } from "./limits";
import type { Option, QuestionType } from "./schemas/exams";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "./text";

type QuestionShape = { type: QuestionType; options?: Option[] | null };

/**
 * Whether a value says nothing: null (a cleared answer), text of only white space, or no option chosen. Such an
 * answer scores 0 without a person, is not counted as answered, and is "no answer" wherever it is read.
 */
export function isBlankAnswer(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/**
 * Checks an answer value against its question (contract: "Limits"). Returns a message for the
 * candidate-facing 422, or null when the value is valid. Used by the server on every write and by the
 * client before it stores a draft, so both sides agree on what a valid answer is. `null` is valid for every
 * question: it clears the answer.
 */
export function answerValueProblem(question: QuestionShape, value: unknown): string | null {
  if (value === null) return null;
  const optionIds = (question.options ?? []).map((option) => option.id);
  switch (question.type) {
    case "single_choice":
      if (typeof value !== "string") return "must be one option id";
      return optionIds.includes(value) ? null : `"${value.slice(0, 64)}" is not an option of this question`;
    case "multiple_choice": {
      if (!Array.isArray(value)) return "must be an array of option ids";
      if (value.length > optionIds.length) return "names more options than the question has";
      const seen = new Set<string>();
      for (const id of value) {
        // Described without JSON.stringify: an element may be nested too deeply to serialise.
        if (typeof id !== "string")
          return `has ${Array.isArray(id) ? "a list" : id === null ? "null" : `a ${typeof id}`} where an option id belongs`;
        if (!optionIds.includes(id)) return `"${id.slice(0, 64)}" is not an option of this question`;
        if (seen.has(id)) return `option "${id}" is named twice`;
        seen.add(id);
      }
      return null;
    }
    case "short_text":
      if (typeof value !== "string") return "must be text";
      if (value.length > LIMITS.shortTextChars) return `is longer than ${LIMITS.shortTextChars} characters`;
      return isStorableText(value) ? null : UNSTORABLE_TEXT_MESSAGE;
    case "essay":
      if (typeof value !== "string") return "must be text";
      if (value.length > LIMITS.essayChars) return `is longer than ${LIMITS.essayChars} characters`;
      return isStorableText(value) ? null : UNSTORABLE_TEXT_MESSAGE;
    case "numeric":
      return typeof value === "number" && Number.isFinite(value) ? null : "must be a finite number";
  }
}
