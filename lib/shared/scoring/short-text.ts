/**
 * How a short-text answer is compared with the accepted answers.
 *
 * Not exact (the default): Unicode-compatibility normalised (NFKC: the full-width `ＡＢＣ１２` a Chinese input
 * method types reads as `ABC12`), trimmed, runs of white space inside read as one space, and case-insensitive.
 * Exact: trimmed only at the ends (a trailing space the candidate cannot see is never a wrong answer), canonically
 * normalised (NFC: the same letter typed precomposed or with a combining accent is the same letter); case, inner
 * spacing and full-width forms count.
 */
export function normaliseShortText(text: string, exactMatch: boolean): string {
  if (exactMatch) return text.normalize("NFC").trim();
  return text.normalize("NFKC").trim().replace(/\s+/gu, " ").toLowerCase();
}

/** Whether `answer` matches one of `accepted` under the question's rule. */
export function matchesAcceptedAnswer(answer: string, accepted: readonly string[], exactMatch: boolean): boolean {
  const candidate = normaliseShortText(answer, exactMatch);
  if (candidate === "") return false;
  return accepted.some((key) => normaliseShortText(key, exactMatch) === candidate);
}
