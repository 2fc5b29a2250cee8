// The vocabulary of the bad-input cases: what a case is and expects, what the seeding made (the fixture),
// and the seeded randomness every generator draws from.

import type { EmergencyExportFile } from "../../../../lib/shared/emergency-export";
import type { RawRequest } from "../../load/raw-http";

export type Expectation =
  | { kind: "reject"; statuses?: readonly number[] }
  | { kind: "allow"; statuses: readonly number[]; why: string; location?: RegExp; isCookieForbidden?: boolean };

export type BadCase = {
  /** "POST /api/attempts/{attemptId}/answers": the endpoint as the contract writes it. */
  endpoint: string;
  category: Category;
  /** What is wrong with it, in a few words. */
  label: string;
  request: RawRequest;
  expect: Expectation;
};

export const CATEGORIES = [
  "syntax",
  "empty-body",
  "content-type",
  "oversized",
  "limits",
  "field-type",
  "unknown-fields",
  "answer-shape",
  "ids",
  "path-params",
  "auth",
  "idempotency",
  "already-submitted",
  "method",
  "ignored-junk",
  "export-file",
] as const;
export type Category = (typeof CATEGORIES)[number];

export type FixtureQuestion = {
  id: string;
  type: "single_choice" | "multiple_choice" | "short_text" | "essay" | "numeric";
  optionIds: string[];
};
export type FixtureCandidate = { cookie: string; attemptId: string };

/** What the seeding made, through the API (and Postgres for what the API cannot make). */
export type Fixture = {
  adminToken: string;
  metricsToken: string;
  exam: { id: string; questions: FixtureQuestion[] };
  otherExam: { id: string; questions: FixtureQuestion[] };
  draftExam: { id: string };
  /** Candidates of `exam` with attempts in progress. */
  open: FixtureCandidate[];
  /** A candidate of `exam` whose attempt is submitted, with the exact key and body that submitted it. */
  submitted: FixtureCandidate & { idempotencyKey: string; body: Record<string, unknown> };
  /** A candidate of `otherExam`, started. */
  other: FixtureCandidate;
  /** A candidate of the draft exam, joined (no attempt: the exam cannot be started). */
  draftCookie: string;
  expiredCandidateCookie: string;
  expiredStaffCookie: string;
  adminCookie: string;
  /** A proctor assigned to `otherExam` only. */
  proctorCookie: string;
  staff: { adminEmail: string; proctorEmail: string };
  /** Real emergency files, encrypted to the server's key of the attempt they name. */
  exportFiles: {
    /** Names `open[0]`'s attempt; its answers are not questions of the exam: 422 for anyone allowed to upload. */
    invalidAnswers: EmergencyExportFile;
    /** Names `open[1]`'s attempt with valid answers: only an unauthorised uploader may be sent it. */
    validAnswers: EmergencyExportFile;
    /** Decrypt fine, name `open[0]`'s attempt, and carry one answer that is not valid. */
    badPayloads: { label: string; file: EmergencyExportFile }[];
  };
};

// A small seeded PRNG (mulberry32): the same seed gives the same cases in the same order.
export type Random = {
  next(): number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: T[]): T[];
};
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)] as T,
    shuffle: <T>(items: T[]): T[] => {
      for (let i = items.length - 1; i > 0; i -= 1) {
        const j = int(i + 1);
        [items[i], items[j]] = [items[j] as T, items[i] as T];
      }
      return items;
    },
  };
}

/** A deterministic UUID v4 from the PRNG (never one the server made). */
export function fakeUuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => random.int(16).toString(16));
  hex[12] = "4";
  hex[16] = "89ab"[random.int(4)] ?? "8";
  const text = hex.join("");
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

/** A well-formed token that names no session: 43 base64url characters, like a real one. */
export function fakeToken(random: Random): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  return Array.from({ length: 43 }, () => alphabet[random.int(alphabet.length)]).join("");
}
