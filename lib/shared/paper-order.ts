import type { CandidateQuestion } from "./schemas/exams";

/**
 * The order of one attempt's paper. With neither shuffle the paper is the exam's order. Otherwise a small
 * deterministic generator (mulberry32) seeded with the attempt's `shuffleSeed` draws a Fisher–Yates permutation
 * of the questions, then one of each choice question's options, in that order. The same questions (their
 * structure is locked once an attempt exists), the same settings and the same seed always give the same paper:
 * that is how a candidate's paper is rebuilt for an appeal. Answers stay keyed by question and option ids, so
 * nothing downstream depends on the order. Positions are renumbered 1..n as the candidate sees them.
 */
export type ShuffleSettings = { shuffleQuestions: boolean; shuffleOptions: boolean };

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}

/** `questions` (in the exam's order) as the attempt with `seed` shows them. */
export function paperOrder(
  questions: readonly CandidateQuestion[],
  settings: ShuffleSettings,
  seed: number,
): CandidateQuestion[] {
  if (!settings.shuffleQuestions && !settings.shuffleOptions) return [...questions];
  const random = mulberry32(seed);
  const ordered = settings.shuffleQuestions ? shuffled(questions, random) : [...questions];
  return ordered.map((question, index) => ({
    ...question,
    position: index + 1,
    ...(settings.shuffleOptions && question.options ? { options: shuffled(question.options, random) } : {}),
  }));
}
