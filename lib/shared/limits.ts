/** Limits from the contract (docs/sync-protocol.md, "Limits"). Anything outside them is a 4xx. */
export const LIMITS = {
  /** Request bodies larger than this get 413 before parsing. */
  maxBodyBytes: 1024 * 1024,
  maxVersion: 2_147_483_647,
  shortTextChars: 2_000,
  essayChars: 100_000,
  maxQuestionsPerExam: 500,
  maxOptionsPerQuestion: 26,
  maxCandidatesPerRequest: 5_000,
  /** Candidates in one CSV import (the body's size cap usually comes first). */
  maxCsvLines: 20_000,
  maxPromptChars: 20_000,
  /** A question's rubric: the graders' guidance (never shown to candidates). */
  maxRubricChars: 5_000,
  /** A QTI package upload (its own cap: a package of many items is larger than a JSON body). */
  maxQtiPackageBytes: 4 * 1024 * 1024,
  /** Files in a QTI package, and what its XML files may unpack to in all (zip bombs). */
  maxQtiEntries: 2_000,
  maxQtiUncompressedBytes: 32 * 1024 * 1024,
  maxTitleChars: 200,
  maxDescriptionChars: 20_000,
  maxDurationSeconds: 7 * 24 * 3600,
  maxGraceSeconds: 3600,
  maxExtraSeconds: 7 * 24 * 3600,
} as const;

export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
