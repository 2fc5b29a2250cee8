// Autosaves racing everything else that takes an attempt's (or its exam's, or its enrollment's) row locks,
// for real: parallel requests through the routes, on the real Postgres, many rounds each.
//
// The bug: CI once saw an autosave answer 500 with Postgres's "deadlock detected" (40P01). The cause: a
// submit updates its attempt row twice (the delta's revision bump, then the freeze), and Postgres checks the
// foreign keys again on such a second update, key-share-locking the enrollment while the attempt is held;
// extra time held that enrollment FOR UPDATE and waited for the attempt. With an autosave queued on the
// attempt row between them, Postgres broke the circle by ending the autosave. The fix: extra time locks the
// enrollment FOR NO KEY UPDATE, which a key share does not wait for; the whole order is docs/sync-protocol.md,
// "Lock order". The last test replays that circle step by step; the races before it run several autosaves,
// each of several questions in its own order, against each other locking path (and all at once), and
// assert: no 500 (nor the 503 a deadlock now answers), no deadlock in the logs or in Postgres's own counter,
// and convergence: per question the greatest (version, deviceId) any response said was applied is what the
// attempt holds, and one submission at most.
import { randomUUID } from "node:crypto";

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { POST as reopenRoute } from "@/app/api/admin/attempts/[attemptId]/reopen/route";
import { POST as revokeRoute } from "@/app/api/admin/exams/[examId]/candidates/[enrollmentId]/join-link/route";
import { GET as examRoute, PATCH as patchExamRoute } from "@/app/api/admin/exams/[examId]/route";
import { POST as extendRoute } from "@/app/api/proctor/attempts/[attemptId]/extend/route";
import { POST as forceSubmitRoute } from "@/app/api/proctor/attempts/[attemptId]/force-submit/route";
import { db } from "@/lib/server/db/client";
import { createSyncLimiters } from "@/lib/server/limits/create-sync-limiters";
import { setSyncLimiters } from "@/lib/server/limits/sync-limiters";
import { getRedis } from "@/lib/server/redis/client";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { call, type CallResult } from "@/test-support/server/http";

import { applyAnswerDelta } from "../answers/apply-answer-delta";
import { autoSubmitOverdue } from "./auto-submit";
import { withLockedAttempt } from "./with-locked-attempt";

const ROUNDS = 12;
const AUTOSAVES_PER_ROUND = 8;
const DEVICES = ["laptop", "phone", "tablet"] as const;

/** Ten questions of types whose answer is any string, so every autosave can touch any subset. */
const QUESTIONS = Array.from({ length: 10 }, (_, index) => ({
  type: index % 2 === 0 ? "short_text" : "essay",
  prompt: `Question ${index + 1}`,
  points: 1,
}));

type Applied = { questionId: string; version: number; deviceId: string };

/** A random subset of the questions (at least two), in a random order. */
function shuffledSubset(attempt: StartedAttempt): string[] {
  const ids = attempt.questions.map((question) => question.id);
  for (let index = ids.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [ids[index], ids[other]] = [ids[other]!, ids[index]!];
  }
  return ids.slice(0, 2 + Math.floor(Math.random() * (ids.length - 1)));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every line the server logged during the test, to look for deadlocks answered or swallowed. */
let logged: string[] = [];
let deadlocksBefore = 0;

async function postgresDeadlocks(): Promise<number> {
  const rows = await db.$queryRaw<{ deadlocks: number }[]>`
    SELECT deadlocks::int AS deadlocks FROM pg_stat_database WHERE datname = current_database()`;
  return rows[0]?.deadlocks ?? 0;
}

beforeAll(async () => {
  // Limits of their own, high enough that no round is cut short by a 429 (that is not what is tested here).
  const redis = await getRedis();
  const roomy = { points: 100_000, durationSeconds: 1 };
  setSyncLimiters(
    createSyncLimiters({
      redis,
      namespace: `test-${randomUUID()}`,
      limits: { autosavePerAttempt: roomy, autosaveGlobal: roomy, submitPerAttempt: roomy, submitGlobal: roomy },
    }),
  );
  // Postgres reports a backend's counters when it goes idle, up to 10 s later (PostgreSQL 15): wait for the
  // previous test file's backends (one of them makes deadlocks on purpose) before taking the baseline.
  await pause(11_000);
  deadlocksBefore = await postgresDeadlocks();
}, 30_000);

afterAll(async () => {
  // Every deadlock Postgres broke in this file, the ones whose error no response or log line showed too.
  await pause(11_000);
  expect(await postgresDeadlocks()).toBe(deadlocksBefore);
}, 30_000);

beforeEach(() => {
  logged = [];
  for (const method of ["error", "warn"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * One candidate device's autosave of a few questions, in its own order, at versions above anything sent
 * before (the Lamport clock of docs/sync-protocol.md, "Versions"). Applied answers are remembered.
 */
function autosaver(attempt: StartedAttempt, applied: Applied[]) {
  let clock = 0;
  return async (index: number): Promise<CallResult> => {
    const deviceId = DEVICES[index % DEVICES.length]!;
    clock += 1;
    const version = clock + Math.floor(Math.random() * 3);
    const answers = shuffledSubset(attempt).map((questionId) => ({
      questionId,
      value: `${deviceId} v${version}`,
      version,
    }));
    const response = await autosave(attempt, { deviceId, answers });
    if (response.status === 200) {
      for (const result of response.body.results as { questionId: string; status: string; version: number }[]) {
        if (result.status === "applied") applied.push({ questionId: result.questionId, version, deviceId });
      }
    }
    return response;
  };
}

/** Greater (version, deviceId), compared as the server does (byte-wise on the ASCII device id). */
function greater(a: Applied, b: Applied): boolean {
  return a.version !== b.version ? a.version > b.version : a.deviceId > b.deviceId;
}

/** The stored answers are exactly the greatest applied edit of each question; at most one submission. */
async function expectConverged(attempt: StartedAttempt, applied: Applied[]): Promise<void> {
  const newest = new Map<string, Applied>();
  for (const edit of applied) {
    const held = newest.get(edit.questionId);
    if (!held || greater(edit, held)) newest.set(edit.questionId, edit);
  }
  const stored = await db.answer.findMany({
    where: { attemptId: attempt.attemptId },
    select: { questionId: true, version: true, deviceId: true, value: true },
  });
  const storedById = new Map(stored.map((row) => [row.questionId, row]));
  for (const [questionId, edit] of newest) {
    expect(storedById.get(questionId), `question ${questionId}`).toMatchObject({
      version: edit.version,
      deviceId: edit.deviceId,
      value: `${edit.deviceId} v${edit.version}`,
    });
  }
  expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBeLessThanOrEqual(1);
}

/** No response was a 500 or a 503, and nothing logged a deadlock or a serialization failure. */
function expectNoDeadlock(responses: CallResult[]): void {
  const failures = responses.filter((response) => response.status >= 500);
  expect(
    failures.map((response) => `${response.status} ${response.text}`),
    "no 5xx",
  ).toEqual([]);
  expect(
    logged.filter((line) => /40P01|40001|deadlock|could not serialize/i.test(line)),
    "no deadlock logged",
  ).toEqual([]);
}

function errorCode(response: CallResult): string | undefined {
  return (response.body as { error?: { code?: string } } | undefined)?.error?.code;
}

/** Codes an autosave may meet in these races: all of them the client handles without a retry storm. */
function expectAutosaveOutcomes(responses: CallResult[], allowed: readonly string[]): void {
  for (const response of responses) {
    if (response.status === 200) continue;
    expect(allowed, `${response.status} ${response.text}`).toContain(errorCode(response));
  }
}

/**
 * Races `AUTOSAVES_PER_ROUND` autosaves (a few ms apart, in parallel) against `opponent`, started in the
 * middle of them, for `ROUNDS` fresh attempts.
 */
async function race(options: {
  exam?: Record<string, unknown>;
  prepare?: (attempt: StartedAttempt) => Promise<void>;
  opponent: (attempt: StartedAttempt, applied: Applied[]) => Promise<CallResult[]>;
  autosaveOutcomes: readonly string[];
  check?: (attempt: StartedAttempt, opponent: CallResult[]) => Promise<void>;
}): Promise<void> {
  for (let round = 0; round < ROUNDS; round += 1) {
    const attempt = await startedAttempt({ questions: QUESTIONS, ...options.exam });
    await options.prepare?.(attempt);
    const applied: Applied[] = [];
    const save = autosaver(attempt, applied);
    const saves = Array.from({ length: AUTOSAVES_PER_ROUND }, async (_, index) => {
      await pause(index * 2);
      return save(index);
    });
    const opponent = (async () => {
      await pause(Math.floor(Math.random() * AUTOSAVES_PER_ROUND * 2));
      return options.opponent(attempt, applied);
    })();
    const [savesDone, opponentDone] = await Promise.all([Promise.all(saves), opponent]);
    expectNoDeadlock([...savesDone, ...opponentDone]);
    expectAutosaveOutcomes(savesDone, options.autosaveOutcomes);
    await expectConverged(attempt, applied);
    await options.check?.(attempt, opponentDone);
  }
}

async function expectOneSubmission(attempt: StartedAttempt, source: string): Promise<void> {
  const submissions = await db.submission.findMany({ where: { attemptId: attempt.attemptId } });
  expect(submissions.map((submission) => submission.source)).toEqual([source]);
  const status = await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId }, select: { status: true } });
  expect(status.status).toBe("submitted");
}

describe("lock order: autosaves of several questions race every other locking path", () => {
  it("with the candidate's submit (and its own final delta)", async () => {
    await race({
      opponent: async (attempt, applied) => {
        const answers = shuffledSubset(attempt).map((questionId) => ({ questionId, value: "submit v50", version: 50 }));
        const response = await submit(attempt, { deviceId: "submit", answers }, randomUUID());
        expect(response.status, response.text).toBe(200);
        for (const answer of answers) applied.push({ questionId: answer.questionId, version: 50, deviceId: "submit" });
        return [response];
      },
      autosaveOutcomes: ["ALREADY_SUBMITTED"],
      check: (attempt) => expectOneSubmission(attempt, "candidate"),
    });
  });

  it("with the deadline's auto-submit (the sweeper, and autosaves that find the attempt overdue)", async () => {
    await race({
      exam: { graceSeconds: 0 },
      prepare: async (attempt) => {
        await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() + 8) } });
      },
      opponent: async () => {
        for (let sweep = 0; sweep < 6; sweep += 1) {
          await autoSubmitOverdue();
          await pause(3);
        }
        // Whatever the timing, the deadline has passed by now: the last sweep freezes it if no one has.
        await pause(15);
        await autoSubmitOverdue();
        return [];
      },
      autosaveOutcomes: ["ALREADY_SUBMITTED", "DEADLINE_PASSED"],
      check: (attempt) => expectOneSubmission(attempt, "auto"),
    });
  });

  it("with a proctor's force-submit", async () => {
    await race({
      opponent: async (attempt) => {
        const response = await call(forceSubmitRoute, {
          params: { attemptId: attempt.attemptId },
          bearer: adminToken(),
          json: { reason: "race" },
        });
        expect(response.status, response.text).toBe(200);
        return [response];
      },
      autosaveOutcomes: ["ALREADY_SUBMITTED"],
      check: (attempt) => expectOneSubmission(attempt, "proctor"),
    });
  });

  it("with a proctor's extra time (several extensions at once)", async () => {
    await race({
      opponent: async (attempt) => {
        const responses = await Promise.all(
          Array.from({ length: 3 }, () =>
            call(extendRoute, {
              params: { attemptId: attempt.attemptId },
              bearer: adminToken(),
              json: { seconds: 60, reason: "race" },
            }),
          ),
        );
        for (const response of responses) expect(response.status, response.text).toBe(200);
        return responses;
      },
      autosaveOutcomes: [],
      check: async (attempt) => {
        const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: attempt.enrollmentId } });
        expect(enrollment.extraSeconds).toBe(180);
      },
    });
  });

  it("with exam PATCHes correcting its questions", async () => {
    await race({
      opponent: async (attempt) => {
        const responses: CallResult[] = [];
        await Promise.all(
          Array.from({ length: 2 }, async (_, writer) => {
            for (let edit = 0; edit < 3; edit += 1) {
              const exam = await call(examRoute, { params: { examId: attempt.examId }, bearer: adminToken() });
              const questions = (exam.body.questions as { id: string; type: string; points: number }[]).map(
                (question, index) => ({
                  id: question.id,
                  type: question.type,
                  points: question.points,
                  prompt: `Question ${index + 1}, corrected by ${writer}.${edit}`,
                }),
              );
              const response = await call(patchExamRoute, {
                method: "PATCH",
                params: { examId: attempt.examId },
                bearer: adminToken(),
                json: { revision: exam.body.revision, title: `Edited ${writer}.${edit}`, questions },
              });
              if (response.status !== 200) expect(response.body.error.code, response.text).toBe("EDIT_CONFLICT");
              responses.push(response);
            }
          }),
        );
        return responses;
      },
      autosaveOutcomes: [],
    });
  });

  it("with the join link revoked and reissued", async () => {
    await race({
      opponent: async (attempt) => {
        const responses: CallResult[] = [];
        for (const action of ["revoke", "reissue"]) {
          const response = await call(revokeRoute, {
            params: { examId: attempt.examId, enrollmentId: attempt.enrollmentId },
            bearer: adminToken(),
            json: { action },
          });
          expect(response.status, response.text).toBe(200);
          responses.push(response);
        }
        return responses;
      },
      autosaveOutcomes: ["UNAUTHENTICATED"],
    });
  });

  it("with an admin's reopening (exam FOR KEY SHARE, then the attempt) between a force-submit and a new submit", async () => {
    await race({
      opponent: async (attempt) => {
        const forced = await call(forceSubmitRoute, {
          params: { attemptId: attempt.attemptId },
          bearer: adminToken(),
          json: { reason: "by mistake" },
        });
        const reopened = await call(reopenRoute, {
          params: { attemptId: attempt.attemptId },
          bearer: adminToken(),
          json: { reason: "reopened in the race", seconds: 600 },
        });
        expect(reopened.status, reopened.text).toBe(200);
        const submitted = await submit(attempt, { deviceId: "submit", answers: [] }, randomUUID());
        expect(submitted.status, submitted.text).toBe(200);
        return [forced, reopened, submitted];
      },
      // REQUEST_IN_PROGRESS: found frozen, then reopened before the answer was written (save-answers.ts).
      autosaveOutcomes: ["ALREADY_SUBMITTED", "REQUEST_IN_PROGRESS"],
      check: async (attempt) => {
        const submission = await db.submission.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } });
        expect(submission).toMatchObject({ source: "candidate", version: 2 });
        expect(await db.submissionHistory.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
      },
    });
  });

  it("with all of them at once: submit, force-submit, extra time, an exam PATCH, a revoke and the sweeper", async () => {
    await race({
      opponent: async (attempt, applied) => {
        const answers = shuffledSubset(attempt).map((questionId) => ({ questionId, value: "submit v50", version: 50 }));
        const exam = await call(examRoute, { params: { examId: attempt.examId }, bearer: adminToken() });
        const responses = await Promise.all([
          submit(attempt, { deviceId: "submit", answers }, randomUUID()),
          call(forceSubmitRoute, { params: { attemptId: attempt.attemptId }, bearer: adminToken(), json: {} }),
          call(extendRoute, {
            params: { attemptId: attempt.attemptId },
            bearer: adminToken(),
            json: { seconds: 60, reason: "race" },
          }),
          call(patchExamRoute, {
            method: "PATCH",
            params: { examId: attempt.examId },
            bearer: adminToken(),
            json: { revision: exam.body.revision, description: "Edited during the race" },
          }),
          call(revokeRoute, {
            params: { examId: attempt.examId, enrollmentId: attempt.enrollmentId },
            bearer: adminToken(),
            json: { action: "reissue" },
          }),
          autoSubmitOverdue().then(() => ({ status: 200, headers: new Headers(), body: {}, text: "" })),
        ]);
        const [submitted, forced, extended, patched, reissued] = responses;
        if (submitted!.status === 200) {
          for (const answer of answers)
            applied.push({ questionId: answer.questionId, version: 50, deviceId: "submit" });
        } else {
          expect(["ALREADY_SUBMITTED", "UNAUTHENTICATED"]).toContain(errorCode(submitted!));
        }
        expect(forced!.status, `${forced!.text}\n${logged.join("\n")}`).toBe(200);
        if (extended!.status !== 200) expect(errorCode(extended!), extended!.text).toBe("ALREADY_SUBMITTED");
        expect(patched!.status, patched!.text).toBe(200);
        expect(reissued!.status, reissued!.text).toBe(200);
        return responses;
      },
      autosaveOutcomes: ["ALREADY_SUBMITTED", "UNAUTHENTICATED"],
      check: async (attempt) => {
        const submissions = await db.submission.findMany({ where: { attemptId: attempt.attemptId } });
        expect(submissions).toHaveLength(1);
        expect(["candidate", "proctor"]).toContain(submissions[0]!.source);
      },
    });
  });
});

/** Waits until some transaction of this database is waiting for a lock (another connection's view). */
async function untilSomeoneWaits(): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    const [row] = await db.$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if ((row?.waiting ?? 0) > 0) return;
    await pause(10);
  }
  throw new Error("nobody ever waited for a lock");
}

describe("lock order: the cycle CI saw, step by step", () => {
  // A submit's transaction updates its attempt row twice (the delta bumps the revision, the freeze sets the
  // status); Postgres checks the foreign keys again on the second update of a row this transaction already
  // updated, which key-share-locks the enrollment (and the exam) while the attempt is held. Extra time held
  // the enrollment FOR UPDATE and then waited for the attempt: attempt → enrollment against enrollment →
  // attempt, and with an autosave queued on the attempt row the autosave was the one Postgres ended.
  it("extra time waiting for a submit's attempt no longer blocks the submit's foreign-key check", async () => {
    const attempt = await startedAttempt({ questions: QUESTIONS });
    let extension: Promise<CallResult> | undefined;
    await withLockedAttempt(attempt.attemptId, async (tx, locked) => {
      const applied = await applyAnswerDelta(tx, {
        attemptId: attempt.attemptId,
        deviceId: "laptop",
        answers: [{ questionId: attempt.questions[0]!.id, value: "final", version: 1 }],
      });
      expect(applied.isOpen).toBe(true);
      extension = call(extendRoute, {
        params: { attemptId: attempt.attemptId },
        bearer: adminToken(),
        json: { seconds: 60, reason: "during the submit" },
      });
      await untilSomeoneWaits();
      await locked.freeze({ source: "candidate" });
    });
    const extended = await extension!;
    expect(extended.status, extended.text).toBe(409);
    expect(errorCode(extended)).toBe("ALREADY_SUBMITTED");
    expectNoDeadlock([extended]);
    await expectOneSubmission(attempt, "candidate");
    expect(await db.answer.findMany({ where: { attemptId: attempt.attemptId }, select: { value: true } })).toEqual([
      { value: "final" },
    ]);
  });
});
