import "server-only";

import { Prisma } from "../db/generated/client.ts";
import type { QuestionData } from "./question-data";

/** A question's columns as Prisma writes them: an absent Json value is SQL NULL, not JSON null. */
export function storedQuestion(data: QuestionData) {
  const isChoice = data.type === "single_choice" || data.type === "multiple_choice";
  return {
    type: data.type,
    prompt: data.prompt,
    points: data.points,
    options: isChoice ? data.options : Prisma.DbNull,
    answerKey: data.answerKey === null ? Prisma.DbNull : data.answerKey,
    tolerance: data.tolerance,
    scoring: data.scoring,
    exactMatch: data.exactMatch,
    ungraded: data.ungraded,
    rubric: data.rubric,
  };
}

/** A value for a nullable Json column: null is SQL NULL. */
export function jsonOrNull(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null || value === undefined ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}
