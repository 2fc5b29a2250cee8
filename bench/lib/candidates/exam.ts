// The exam every benchmark candidate sits, and the edits a simulated candidate makes to it.
import { randomInt } from "node:crypto";

import type { AnswerValue } from "../../../lib/shared/schemas/attempts";

export type QuestionType = "single_choice" | "multiple_choice" | "short_text" | "essay" | "numeric";
export type BenchQuestion = { id: string; type: QuestionType; optionIds: string[] };

const OPTIONS = ["a", "b", "c", "d"].map((id) => ({ id, label: `Option ${id.toUpperCase()}` }));
const WORDS =
  "the quick brown fox jumps over a lazy dog while packets route through congested links and queues drain slowly".split(
    " ",
  );

/**
 * 20 questions: 8 short text, 4 essays, 6 single choice, 2 multiple choice. `promptChars`: each prompt is a
 * reading passage of about this many characters (a paper of 20 × that), not a one-line label.
 */
export function examDefinition(title: string, options: { promptChars?: number } = {}): Record<string, unknown> {
  const types: QuestionType[] = [
    ...Array<QuestionType>(8).fill("short_text"),
    ...Array<QuestionType>(4).fill("essay"),
    ...Array<QuestionType>(6).fill("single_choice"),
    ...Array<QuestionType>(2).fill("multiple_choice"),
  ];
  return {
    title,
    durationSeconds: 4 * 3600,
    graceSeconds: 60,
    status: "published",
    questions: types.map((type, index) => {
      const label = `Benchmark question ${index + 1} (${type.replace("_", " ")})`;
      const prompt = options.promptChars ? passage(label, options.promptChars) : label;
      if (type === "single_choice") return { type, prompt, options: OPTIONS, answerKey: "a", points: 1 };
      if (type === "multiple_choice") return { type, prompt, options: OPTIONS, answerKey: ["a", "c"], points: 2 };
      return { type, prompt, points: type === "essay" ? 5 : 1 };
    }),
  };
}

/** `label`, then words up to `chars` characters. */
function passage(label: string, chars: number): string {
  let text = `${label}. `;
  while (text.length < chars) text += `${words(12)}. `;
  return text.slice(0, chars).trimEnd();
}

function words(count: number): string {
  return Array.from({ length: count }, () => WORDS[randomInt(WORDS.length)]).join(" ");
}

/** A plausible value for a question: a few words, an essay of ~60 words, one or two options. */
export function randomValue(question: BenchQuestion): AnswerValue {
  switch (question.type) {
    case "short_text":
      return words(2 + randomInt(5));
    case "essay":
      return words(40 + randomInt(40));
    case "single_choice":
      return question.optionIds[randomInt(question.optionIds.length)] ?? "a";
    case "multiple_choice": {
      const picked = question.optionIds.filter(() => randomInt(2) === 1);
      return picked.length ? picked : [question.optionIds[0] ?? "a"];
    }
    case "numeric":
      return randomInt(100);
  }
}

/** `count` distinct questions, at random. */
export function pickQuestions(questions: readonly BenchQuestion[], count: number): BenchQuestion[] {
  const pool = [...questions];
  const picked: BenchQuestion[] = [];
  while (picked.length < count && pool.length) picked.push(...pool.splice(randomInt(pool.length), 1));
  return picked;
}
