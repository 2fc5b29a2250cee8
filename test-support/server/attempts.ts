// Helpers for tests that drive an attempt through the public endpoints.
import { POST as answersRoute } from "@/app/api/attempts/[attemptId]/answers/route";
import { POST as heartbeatRoute } from "@/app/api/attempts/[attemptId]/heartbeat/route";
import { POST as submitRoute } from "@/app/api/attempts/[attemptId]/submit/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";

import { expect, it } from "vitest";

import { sha256Hex } from "@/lib/server/crypto";
import { db } from "@/lib/server/db/client";

import { createExam, enroll, join } from "./fixtures";
import { call } from "./http";

export type StartedAttempt = {
  examId: string;
  attemptId: string;
  cookie: string;
  enrollmentId: string;
  questions: { id: string; type: string; position: number }[];
};

/** A published exam with the sample questions, one candidate, and their started attempt. */
export async function startedAttempt(examOverrides: Record<string, unknown> = {}): Promise<StartedAttempt> {
  const exam = await createExam(examOverrides);
  const [candidate] = await enroll(exam.id);
  const cookie = await join(candidate!.joinToken);
  const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
  if (started.status !== 201) throw new Error(`start: ${started.status} ${started.text}`);
  return {
    examId: exam.id,
    attemptId: started.body.attemptId,
    cookie,
    enrollmentId: candidate!.id,
    questions: exam.questions,
  };
}

export function autosave(attempt: Pick<StartedAttempt, "attemptId" | "cookie">, body: unknown) {
  return call(answersRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie, json: body });
}

export function submit(attempt: Pick<StartedAttempt, "attemptId" | "cookie">, body: unknown, idempotencyKey?: string) {
  return call(submitRoute, {
    params: { attemptId: attempt.attemptId },
    cookie: attempt.cookie,
    json: body,
    headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey },
  });
}

/** A healthy device's heartbeat body (online, nothing pending, device "laptop"); a test overrides what it is about. */
export function heartbeatBody(overrides: Record<string, unknown> = {}) {
  return {
    deviceId: "laptop",
    online: true,
    pending: 0,
    oldestPendingMs: 0,
    lastAckRevision: 0,
    clock: 0,
    consecutiveFailures: 0,
    ...overrides,
  };
}

export function heartbeat(
  attempt: Pick<StartedAttempt, "attemptId" | "cookie">,
  overrides: Record<string, unknown> = {},
) {
  return call(heartbeatRoute, {
    params: { attemptId: attempt.attemptId },
    cookie: attempt.cookie,
    json: heartbeatBody(overrides),
  });
}

/**
 * Each way a candidate's session ends behind a process's back (another instance, an admin, the clock), for the
 * routes that check a session they already know in their own statement (ADR 021).
 */
type EndSession = (attempt: Pick<StartedAttempt, "cookie" | "enrollmentId">) => Promise<unknown>;

export const SESSION_ENDINGS: Record<"signed out" | "expired" | "its join link revoked", EndSession> = {
  "signed out": (attempt) => db.session.deleteMany({ where: { tokenHash: sha256Hex(attempt.cookie.split("=")[1]!) } }),
  expired: (attempt) =>
    db.session.updateMany({
      where: { tokenHash: sha256Hex(attempt.cookie.split("=")[1]!) },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    }),
  "its join link revoked": (attempt) =>
    db.enrollment.update({ where: { id: attempt.enrollmentId }, data: { joinRevokedAt: new Date() } }),
};

/**
 * For a route that checks a session it already knows in its own statement (ADR 021): for each way a session ends
 * (SESSION_ENDINGS) and each request, a test that warms this process's knowledge of the session with an autosave
 * that succeeds, ends the session behind its back, then sends the request — the first after the end: 401
 * UNAUTHENTICATED, and neither the caller's attempt nor another candidate's (`state`) changed. `also` checks more.
 */
export function eachRequestOnceTheSessionEnded<S>(options: {
  requests: Record<
    string,
    (attempt: StartedAttempt, other: StartedAttempt) => Promise<{ status: number; body: unknown }>
  >;
  state: (attemptId: string) => Promise<S>;
  /** Ends the test's name: "nothing applied", "nothing submitted". */
  unchanged: string;
  also?: (attempt: StartedAttempt) => Promise<void>;
}): void {
  for (const [how, end] of Object.entries(SESSION_ENDINGS)) {
    for (const [what, send] of Object.entries(options.requests)) {
      it(`${how}, then ${what} → 401 UNAUTHENTICATED, and ${options.unchanged}`, async () => {
        const attempt = await startedAttempt();
        const other = await startedAttempt();
        const warm = await autosave(attempt, {
          deviceId: "d",
          answers: [{ questionId: attempt.questions[2]!.id, value: "first", version: 1 }],
        });
        expect(warm.status).toBe(200);
        await end(attempt);
        const before = await options.state(attempt.attemptId);
        const otherBefore = await options.state(other.attemptId);

        const response = await send(attempt, other);
        expect(response.status).toBe(401);
        expect(response.body).toEqual(CANDIDATE_UNAUTHENTICATED);
        expect(await options.state(attempt.attemptId)).toEqual(before);
        expect(await options.state(other.attemptId)).toEqual(otherBefore);
        await options.also?.(attempt);
      });
    }
  }
}

/** The one error body every candidate request without a valid session gets. */
export const CANDIDATE_UNAUTHENTICATED = {
  error: { code: "UNAUTHENTICATED", message: "Open your personal join link to start a session." },
};
