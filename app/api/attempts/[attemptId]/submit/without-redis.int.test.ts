// The submit races again, with Redis gone: REDIS_URL points at a port where nothing listens, so every
// lock attempt is "unavailable" and Postgres alone must keep one submission per attempt.
import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

process.env.REDIS_URL = "redis://127.0.0.1:1";
delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;

const { db } = await import("@/lib/server/db/client");
const { autosave, startedAttempt, submit } = await import("@/test-support/server/attempts");
const { getRedis } = await import("@/lib/server/redis/client");

describe("submit with Redis down", () => {
  it("really has no Redis", async () => {
    const client = await getRedis();
    // Give the lazy connect time to fail (or, wrongly, succeed) before looking.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(client?.options.port).toBe(1);
    expect(client?.status).not.toBe("ready");
  });

  it("200 parallel submits with one key: one submission, identical bodies", async () => {
    const attempt = await startedAttempt();
    const key = randomUUID();
    const body = { deviceId: "laptop", answers: [{ questionId: attempt.questions[2]!.id, value: "once", version: 1 }] };
    const responses = await Promise.all(Array.from({ length: 200 }, () => submit(attempt, body, key)));
    const ok = responses.filter((r) => r.status === 200);
    // Without the lock, duplicates queue on the row lock; any that waited past lock_timeout get 409
    // REQUEST_IN_PROGRESS (retryable), never a second submission.
    for (const response of responses) expect([200, 409]).toContain(response.status);
    for (const response of responses.filter((r) => r.status === 409))
      expect(response.body.error.code).toBe("REQUEST_IN_PROGRESS");
    expect(new Set(ok.map((r) => r.text)).size).toBe(1);
    expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
  });

  it("50 parallel submits with 50 keys: one submission, 49 ALREADY_SUBMITTED", async () => {
    const attempt = await startedAttempt();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => submit(attempt, { deviceId: "d", answers: [] }, randomUUID())),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409 && r.body.error.code === "ALREADY_SUBMITTED")).toHaveLength(49);
    expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
  });

  it("autosave racing submit never changes the frozen paper", async () => {
    const attempt = await startedAttempt();
    const question = attempt.questions[3]!.id;
    const [submitted] = await Promise.all([
      submit(attempt, { deviceId: "laptop", answers: [] }, randomUUID()),
      ...Array.from({ length: 30 }, (_, i) =>
        autosave(attempt, { deviceId: "phone", answers: [{ questionId: question, value: `d${i}`, version: i + 1 }] }),
      ),
    ]);
    const { answersDigest } = await import("@/lib/shared/digest");
    const rows = await db.answer.findMany({
      where: { attemptId: attempt.attemptId },
      select: { questionId: true, value: true },
    });
    expect(await answersDigest(rows.map((r) => ({ questionId: r.questionId, value: r.value as string })))).toBe(
      submitted!.body.digest,
    );
  });
});
