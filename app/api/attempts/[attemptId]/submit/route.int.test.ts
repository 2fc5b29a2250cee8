import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { verifyReceipt } from "@/lib/server/attempts/receipt";
import { db } from "@/lib/server/db/client";
import {
  autosave,
  CANDIDATE_UNAUTHENTICATED,
  eachRequestOnceTheSessionEnded,
  SESSION_ENDINGS,
  startedAttempt,
  submit,
  type StartedAttempt,
} from "@/test-support/server/attempts";
import { call } from "@/test-support/server/http";
import { answersDigest } from "@/lib/shared/digest";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";

import { POST as submitRoute } from "./route";

async function frozenDigest(attemptId: string): Promise<string> {
  const rows = await db.answer.findMany({ where: { attemptId }, select: { questionId: true, value: true } });
  return answersDigest(rows.map((row) => ({ questionId: row.questionId, value: row.value as AnswerValue })));
}

async function state(attemptId: string) {
  const [attempt, answers, submissions, late] = await Promise.all([
    db.attempt.findUniqueOrThrow({ where: { id: attemptId }, select: { status: true, revision: true } }),
    db.answer.findMany({
      where: { attemptId },
      select: { questionId: true, value: true, version: true, deviceId: true },
      orderBy: { questionId: "asc" },
    }),
    db.submission.count({ where: { attemptId } }),
    db.lateAnswer.count({ where: { attemptId } }),
  ]);
  return { attempt, answers, submissions, late };
}

describe("POST /api/attempts/{attemptId}/submit", () => {
  it("applies the final delta, freezes the paper and returns a verifiable receipt", async () => {
    const attempt = await startedAttempt();
    const [single, , short] = attempt.questions;
    await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: single!.id, value: "a", version: 1 }] });
    const local = [
      { questionId: single!.id, value: "a" },
      { questionId: short!.id, value: "final words" },
    ];
    const digest = await answersDigest(local);
    const response = await submit(
      attempt,
      { deviceId: "laptop", answers: [{ questionId: short!.id, value: "final words", version: 2 }], digest },
      randomUUID(),
    );

    expect(response.status).toBe(200);
    expect(response.headers.get("idempotent-replayed")).toBeNull();
    const body = response.body;
    expect(body).toMatchObject({
      attemptId: attempt.attemptId,
      source: "candidate",
      digest,
      clientDigest: digest,
      digestMatches: true,
    });
    // Like every sync response, it carries the server's time and the attempt's deadline.
    expect(body.serverTime).toBe(body.submittedAt);
    expect(Date.parse(body.deadline)).toBeGreaterThan(Date.parse(body.submittedAt));
    expect(await frozenDigest(attempt.attemptId)).toBe(body.digest);
    expect(
      verifyReceipt({
        attemptId: attempt.attemptId,
        submittedAt: body.submittedAt,
        digest: body.digest,
        receipt: body.receipt,
      }),
    ).toBe(true);
    expect(
      verifyReceipt({
        attemptId: attempt.attemptId,
        submittedAt: body.submittedAt,
        digest: "0".repeat(64),
        receipt: body.receipt,
      }),
    ).toBe(false);
    expect((await state(attempt.attemptId)).attempt.status).toBe("submitted");
  });

  it("says so when the device's digest differs from the frozen paper, and still submits", async () => {
    const attempt = await startedAttempt();
    const response = await submit(attempt, { deviceId: "laptop", answers: [], digest: "f".repeat(64) }, randomUUID());
    expect(response.status).toBe(200);
    expect(response.body.digestMatches).toBe(false);
    expect(response.body.digest).toBe(await answersDigest([]));
    expect((await db.submission.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } })).clientDigest).toBe(
      "f".repeat(64),
    );
  });

  describe("the Idempotency-Key rules", () => {
    it("same key, same body, after completion: the identical response with Idempotent-Replayed: true", async () => {
      const attempt = await startedAttempt();
      const key = randomUUID();
      const body = { deviceId: "laptop", answers: [{ questionId: attempt.questions[2]!.id, value: "x", version: 1 }] };
      const first = await submit(attempt, body, key);
      const replay = await submit(attempt, body, key);
      expect(replay.status).toBe(200);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.text).toBe(first.text);
      expect((await state(attempt.attemptId)).submissions).toBe(1);
    });

    it("same key, different body: 422 IDEMPOTENCY_KEY_REUSED, nothing changed", async () => {
      const attempt = await startedAttempt();
      const key = randomUUID();
      await submit(
        attempt,
        { deviceId: "laptop", answers: [{ questionId: attempt.questions[2]!.id, value: "x", version: 1 }] },
        key,
      );
      const before = await state(attempt.attemptId);
      const reused = await submit(
        attempt,
        { deviceId: "laptop", answers: [{ questionId: attempt.questions[2]!.id, value: "y", version: 2 }] },
        key,
      );
      expect(reused.status).toBe(422);
      expect(reused.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
      expect(await state(attempt.attemptId)).toEqual(before);
    });

    it.each([
      ["missing", undefined],
      ["empty", ""],
      ["256 characters", "k".repeat(256)],
      ["non-ASCII", "clé"],
      ["a control character", "key\u0001"],
    ])("%s key: 400, nothing changed", async (_name, key) => {
      const attempt = await startedAttempt();
      const before = await state(attempt.attemptId);
      const response = await submit(attempt, { deviceId: "laptop", answers: [] }, key);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("BAD_REQUEST");
      expect(await state(attempt.attemptId)).toEqual(before);
    });

    it("a different key on a submitted attempt: 409 ALREADY_SUBMITTED with the submission id; new answers kept late", async () => {
      const attempt = await startedAttempt();
      const question = attempt.questions[2]!.id;
      const first = await submit(
        attempt,
        { deviceId: "laptop", answers: [{ questionId: question, value: "laptop", version: 1 }] },
        randomUUID(),
      );
      // The phone resends what the paper already holds (not late) and one newer edit (late).
      const second = await submit(
        { attemptId: attempt.attemptId, cookie: attempt.cookie },
        { deviceId: "phone", answers: [{ questionId: question, value: "phone", version: 2 }] },
        randomUUID(),
      );
      expect(second.status).toBe(409);
      expect(second.body.error).toMatchObject({
        code: "ALREADY_SUBMITTED",
        details: { submissionId: first.body.submissionId },
      });
      const after = await state(attempt.attemptId);
      expect(after.submissions).toBe(1);
      expect(after.answers.find((a) => a.questionId === question)!.value).toBe("laptop");
      expect(after.late).toBe(1);

      const again = await submit(
        attempt,
        { deviceId: "laptop", answers: [{ questionId: question, value: "laptop", version: 1 }] },
        randomUUID(),
      );
      expect(again.status).toBe(409);
      expect((await state(attempt.attemptId)).late).toBe(1);
    });
  });

  it("400 / 401 / 404 / 413 / 422 for bad requests, each leaving the attempt unchanged", async () => {
    const attempt = await startedAttempt();
    const other = await startedAttempt();
    const before = await state(attempt.attemptId);
    const key = () => ({ "idempotency-key": randomUUID() });
    const results = await Promise.all([
      call(submitRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie, raw: "{", headers: key() }),
      call(submitRoute, {
        params: { attemptId: attempt.attemptId },
        json: { deviceId: "d", answers: [] },
        headers: key(),
      }),
      call(submitRoute, {
        params: { attemptId: attempt.attemptId },
        cookie: other.cookie,
        json: { deviceId: "d", answers: [] },
        headers: key(),
      }),
      call(submitRoute, {
        params: { attemptId: randomUUID() },
        cookie: attempt.cookie,
        json: { deviceId: "d", answers: [] },
        headers: key(),
      }),
      call(submitRoute, {
        params: { attemptId: attempt.attemptId },
        cookie: attempt.cookie,
        raw: "x".repeat(1_048_577),
        headers: key(),
      }),
      call(submitRoute, {
        params: { attemptId: attempt.attemptId },
        cookie: attempt.cookie,
        json: { deviceId: "d", answers: [{ questionId: randomUUID(), value: "x", version: 1 }] },
        headers: key(),
      }),
      call(submitRoute, {
        params: { attemptId: attempt.attemptId },
        cookie: attempt.cookie,
        json: { deviceId: "d", answers: [], digest: "not-hex" },
        headers: key(),
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual([400, 401, 404, 404, 413, 422, 422]);
    for (const result of results) expect(typeof result.body.error.code).toBe("string");
    expect(await state(attempt.attemptId)).toEqual(before);
  });

  // Found by `npm run bench -- bad-input`. Bug: a final delta whose value was 1e309 (Infinity once parsed) or
  // nested 100,000 arrays deep was a 500: the request hash (canonical JSON) ran before the delta was validated,
  // and the multiple-choice check serialised the bad element to describe it. Fix: hash after validation,
  // describe the element without serialising it. Both are 422 now, with nothing submitted.
  it("a final delta with a non-finite number or a deeply nested value → 422, nothing submitted", async () => {
    const attempt = await startedAttempt();
    const [single, multiple, short, , numeric] = attempt.questions;
    await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: single!.id, value: "a", version: 1 }] });
    const before = await state(attempt.attemptId);
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const bodies = [
      `{"deviceId":"laptop","answers":[{"questionId":"${numeric!.id}","value":1e309,"version":2}]}`,
      `{"deviceId":"laptop","answers":[{"questionId":"${short!.id}","value":${deep},"version":2}]}`,
      `{"deviceId":"laptop","answers":[{"questionId":"${multiple!.id}","value":${deep},"version":2}]}`,
    ];
    for (const raw of bodies) {
      const response = await call(submitRoute, {
        params: { attemptId: attempt.attemptId },
        cookie: attempt.cookie,
        raw,
        headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
      });
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe("VALIDATION_FAILED");
    }
    expect(await state(attempt.attemptId)).toEqual(before);
    const valid = await submit(
      attempt,
      { deviceId: "laptop", answers: [{ questionId: numeric!.id, value: 1e300, version: 2 }] },
      randomUUID(),
    );
    expect(valid.status).toBe(200);
  });

  // The submit checks a session this process already knows in the statement that reads the paper (route.ts,
  // `foldsSessionCheck`, ADR 021). Each case warms that knowledge with an autosave that succeeds, ends the session
  // behind this process's back, and sends the first submit after: 401 before any other error, nothing submitted.
  describe("a session ended since this process last read it", () => {
    const requests: Record<string, (attempt: StartedAttempt, other: StartedAttempt) => ReturnType<typeof submit>> = {
      "a valid submit": (attempt) =>
        submit(
          attempt,
          { deviceId: "d", answers: [{ questionId: attempt.questions[2]!.id, value: "final", version: 2 }] },
          randomUUID(),
        ),
      "a final delta the exam refuses": (attempt) =>
        submit(
          attempt,
          { deviceId: "d", answers: [{ questionId: attempt.questions[2]!.id, value: { not: "text" }, version: 2 }] },
          randomUUID(),
        ),
      "a body of the wrong shape": (attempt) => submit(attempt, { deviceId: "d", answers: "none" }, randomUUID()),
      "someone else's attempt": (attempt, other) =>
        submit({ attemptId: other.attemptId, cookie: attempt.cookie }, { deviceId: "d", answers: [] }, randomUUID()),
      "no such attempt": (attempt) =>
        submit({ attemptId: randomUUID(), cookie: attempt.cookie }, { deviceId: "d", answers: [] }, randomUUID()),
    };

    eachRequestOnceTheSessionEnded({ requests, state, unchanged: "nothing submitted" });

    it("a retry of a submit that was answered, once the session ended → 401, and still one submission", async () => {
      const attempt = await startedAttempt();
      const key = randomUUID();
      const body = { deviceId: "d", answers: [{ questionId: attempt.questions[2]!.id, value: "done", version: 1 }] };
      expect((await submit(attempt, body, key)).status).toBe(200);
      await SESSION_ENDINGS["signed out"](attempt);
      const retry = await submit(attempt, body, key);
      expect(retry.status).toBe(401);
      expect(retry.body).toEqual(CANDIDATE_UNAUTHENTICATED);
      expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
    });

    it("a session still valid submits at once, and its retry is replayed (the statement confirms it each time)", async () => {
      const attempt = await startedAttempt();
      expect((await autosave(attempt, { deviceId: "d", answers: [] })).status).toBe(200);
      const key = randomUUID();
      const body = { deviceId: "d", answers: [{ questionId: attempt.questions[2]!.id, value: "done", version: 1 }] };
      const first = await submit(attempt, body, key);
      expect(first.status).toBe(200);
      const retry = await submit(attempt, body, key);
      expect(retry.status).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.body).toEqual(first.body);
    });
  });

  describe("in flight (same key while the first is still running)", () => {
    /**
     * Another request (on another instance, say) in its locked path: it holds the attempt's row lock, so this
     * request's one statement writes nothing (NOWAIT), and the submit lock, which this request then waits for.
     */
    async function otherRequestInItsLockedPath(attemptId: string, token: string) {
      const pg = (await import("pg")).default;
      const { env } = await import("@/lib/server/env.mjs");
      const { getRedis } = await import("@/lib/server/redis/client");
      const { redisKeys } = await import("@/lib/server/redis/keys");
      const redis = (await getRedis())!;
      const holder = new pg.Client({ connectionString: env.DATABASE_URL });
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM attempts WHERE id = $1 FOR UPDATE", [attemptId]);
      await redis.set(redisKeys.submitLock(attemptId), token, "PX", 10_000);
      return {
        async finish() {
          await holder.query("ROLLBACK");
          await redis.del(redisKeys.submitLock(attemptId));
          await holder.end();
        },
      };
    }

    it("with no row lock held, submits in its one statement without waiting for a submit lock it never takes", async () => {
      const { getRedis } = await import("@/lib/server/redis/client");
      const { redisKeys } = await import("@/lib/server/redis/keys");
      const attempt = await startedAttempt();
      const redis = (await getRedis())!;
      // A stale lock left by a request that has since given up: the one statement does not ask for it.
      await redis.set(redisKeys.submitLock(attempt.attemptId), "someone-else", "PX", 10_000);
      try {
        const started = Date.now();
        const response = await submit(attempt, { deviceId: "d", answers: [] }, randomUUID());
        expect(response.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(1_500);
        expect(await redis.get(redisKeys.submitLock(attempt.attemptId))).toBe("someone-else");
        expect((await state(attempt.attemptId)).submissions).toBe(1);
      } finally {
        await redis.del(redisKeys.submitLock(attempt.attemptId));
      }
    });

    it("waits briefly for the holder of the submit lock, then answers 409 REQUEST_IN_PROGRESS with Retry-After", async () => {
      const attempt = await startedAttempt();
      const other = await otherRequestInItsLockedPath(attempt.attemptId, "someone-else");
      try {
        const before = await state(attempt.attemptId);
        const started = Date.now();
        const response = await submit(attempt, { deviceId: "d", answers: [] }, randomUUID());
        expect(response.status).toBe(409);
        expect(response.body.error.code).toBe("REQUEST_IN_PROGRESS");
        expect(response.headers.get("retry-after")).toBe("1");
        expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
        expect(await state(attempt.attemptId)).toEqual(before);
      } finally {
        await other.finish();
      }
    });

    it("answers from the first request's result when it finishes while the duplicate waits", async () => {
      const attempt = await startedAttempt();
      const key = randomUUID();
      const body = { deviceId: "d", answers: [] };
      const other = await otherRequestInItsLockedPath(attempt.attemptId, "first-request");
      const waiting = submit(attempt, body, key);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The "first request" completes: it submits and releases its locks.
      await other.finish();
      const first = await submit(attempt, body, key);
      const duplicate = await waiting;
      expect([first.status, duplicate.status]).toEqual([200, 200]);
      expect(duplicate.text).toBe(first.text);
      expect((await state(attempt.attemptId)).submissions).toBe(1);
    });

    it("a row lock held past lock_timeout (a request whose Redis lock expired, or Redis away) gives 409 REQUEST_IN_PROGRESS, not an endless wait", async () => {
      const pg = (await import("pg")).default;
      const attempt = await startedAttempt();
      const { env } = await import("@/lib/server/env.mjs");
      const holder = new pg.Client({ connectionString: env.DATABASE_URL });
      await holder.connect();
      try {
        await holder.query("BEGIN");
        await holder.query("SELECT id FROM attempts WHERE id = $1 FOR UPDATE", [attempt.attemptId]);
        const response = await submit(attempt, { deviceId: "d", answers: [] }, randomUUID());
        expect(response.status).toBe(409);
        expect(response.body.error.code).toBe("REQUEST_IN_PROGRESS");
        expect(response.headers.get("retry-after")).toBe("1");
      } finally {
        await holder.query("ROLLBACK");
        await holder.end();
      }
      expect((await state(attempt.attemptId)).submissions).toBe(0);
    });
  });

  describe("races (guarantee 2: no duplicate)", () => {
    it("200 parallel submits with one key: exactly one submission and 200 identical bodies", async () => {
      const attempt = await startedAttempt();
      const key = randomUUID();
      const body = {
        deviceId: "laptop",
        answers: [{ questionId: attempt.questions[2]!.id, value: "once", version: 1 }],
      };
      const responses = await Promise.all(Array.from({ length: 200 }, () => submit(attempt, body, key)));
      expect(responses.map((r) => r.status)).toEqual(Array(200).fill(200));
      expect(new Set(responses.map((r) => r.text)).size).toBe(1);
      expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(199);
      expect((await state(attempt.attemptId)).submissions).toBe(1);
    });

    it("50 parallel submits with 50 keys: one submission, 49 ALREADY_SUBMITTED naming it", async () => {
      const attempt = await startedAttempt();
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          submit(
            attempt,
            {
              deviceId: `device-${i}`,
              answers: [{ questionId: attempt.questions[2]!.id, value: `from ${i}`, version: 1 }],
            },
            randomUUID(),
          ),
        ),
      );
      const winners = responses.filter((r) => r.status === 200);
      const losers = responses.filter((r) => r.status === 409);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(49);
      for (const loser of losers)
        expect(loser.body.error).toMatchObject({
          code: "ALREADY_SUBMITTED",
          details: { submissionId: winners[0]!.body.submissionId },
        });
      expect((await state(attempt.attemptId)).submissions).toBe(1);
      // Every losing device's edit is kept as a late answer, never dropped.
      expect((await state(attempt.attemptId)).late).toBe(49);
    });

    it("autosaves racing a submit never change the frozen paper", async () => {
      const attempt = await startedAttempt();
      const question = attempt.questions[3]!.id;
      const saves = Array.from({ length: 40 }, (_, i) =>
        autosave(attempt, {
          deviceId: "phone",
          answers: [{ questionId: question, value: `draft ${i}`, version: i + 2 }],
        }),
      );
      const submitted = submit(
        attempt,
        { deviceId: "laptop", answers: [{ questionId: question, value: "submitted", version: 1 }] },
        randomUUID(),
      );
      const [submitResponse, ...saveResponses] = await Promise.all([submitted, ...saves]);
      expect(submitResponse!.status).toBe(200);
      for (const response of saveResponses) expect([200, 409]).toContain(response.status);

      // The paper as stored now is exactly the paper the submission's digest describes.
      expect(await frozenDigest(attempt.attemptId)).toBe(submitResponse!.body.digest);
      const refused = saveResponses.filter((r) => r.status === 409).length;
      expect((await state(attempt.attemptId)).late).toBe(refused);
    });

    it("still one submission when the Redis lock expires before the transaction ends", async () => {
      const { submitAttempt } = await import("@/lib/server/attempts/submit-attempt");
      const { findCandidateSession } = await import("@/lib/server/auth/sessions");
      const attempt = await startedAttempt();
      const candidate = await findCandidateSession(decodeURIComponent(attempt.cookie.split("=")[1]!));
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) =>
          submitAttempt({
            attemptId: attempt.attemptId,
            candidate: candidate!,
            idempotencyKey: `key-${i % 3}`,
            body: { deviceId: "d", answers: [] },
            lockTtlMs: 1,
          }),
        ),
      );
      const fulfilled = outcomes.filter((o) => o.status === "fulfilled");
      // One key won; its 9 siblings replayed it; the other 20 were told ALREADY_SUBMITTED.
      expect(fulfilled).toHaveLength(10);
      expect((await state(attempt.attemptId)).submissions).toBe(1);
    });
  });

  it("after deadline + grace: the server auto-submits what it held; the late submit gets ALREADY_SUBMITTED and its answers are kept", async () => {
    const attempt = await startedAttempt({ graceSeconds: 0 });
    const question = attempt.questions[2]!.id;
    await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: question, value: "in time", version: 1 }] });
    await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 1000) } });

    const late = await submit(
      attempt,
      { deviceId: "laptop", answers: [{ questionId: question, value: "too late", version: 2 }] },
      randomUUID(),
    );
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("ALREADY_SUBMITTED");
    const submission = await db.submission.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } });
    expect(submission).toMatchObject({
      source: "auto",
      id: late.body.error.details.submissionId,
      idempotencyKey: null,
    });
    expect(submission.digest).toBe(await answersDigest([{ questionId: question, value: "in time" }]));
    expect(
      await db.lateAnswer.findMany({ where: { attemptId: attempt.attemptId }, select: { value: true, via: true } }),
    ).toEqual([{ value: "too late", via: "submit" }]);
  });
});
