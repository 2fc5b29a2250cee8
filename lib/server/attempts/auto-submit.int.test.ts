import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt } from "@/test-support/server/attempts";
import { answersDigest } from "@/lib/shared/digest";

import { autoSubmitAttempt, autoSubmitOverdue } from "./auto-submit";

async function makeOverdue(attemptId: string): Promise<void> {
  await db.attempt.update({ where: { id: attemptId }, data: { deadline: new Date(Date.now() - 120_000) } });
}

describe("auto-submit at deadline + grace", () => {
  it("submits an overdue attempt once, with the answers it held, as source auto", async () => {
    const attempt = await startedAttempt({ graceSeconds: 30 });
    const question = attempt.questions[2]!.id;
    await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: question, value: "held", version: 1 }] });
    await makeOverdue(attempt.attemptId);

    // Several instances sweeping at once (each call is its own transaction on its own connection),
    // and the sweep repeated as a restarted instance would: still exactly one submission.
    await Promise.all(Array.from({ length: 6 }, () => autoSubmitOverdue()));
    await autoSubmitOverdue();
    const submissions = await db.submission.findMany({ where: { attemptId: attempt.attemptId } });
    expect(submissions).toHaveLength(1);
    expect(submissions[0]).toMatchObject({ source: "auto", idempotencyKey: null, requestHash: null });
    expect(submissions[0]!.digest).toBe(await answersDigest([{ questionId: question, value: "held" }]));
    expect((await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } })).status).toBe("submitted");
  });

  it("leaves attempts alone while they are within deadline + grace", async () => {
    const attempt = await startedAttempt({ graceSeconds: 300 });
    await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 60_000) } });
    await autoSubmitOverdue();
    expect(await autoSubmitAttempt(attempt.attemptId)).toBeNull();
    expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(0);
  });

  it("races the sweeper against the per-attempt path and still makes one submission", async () => {
    const attempts = await Promise.all(Array.from({ length: 5 }, () => startedAttempt({ graceSeconds: 0 })));
    for (const attempt of attempts) await makeOverdue(attempt.attemptId);
    await Promise.all([
      ...attempts.map((a) => autoSubmitAttempt(a.attemptId)),
      autoSubmitOverdue(),
      autoSubmitOverdue(),
      ...attempts.map((a) => autoSubmitAttempt(a.attemptId)),
    ]);
    for (const attempt of attempts) {
      expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
    }
  });
});
