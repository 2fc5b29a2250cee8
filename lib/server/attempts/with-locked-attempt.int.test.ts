import { randomUUID } from "node:crypto";

import pg from "pg";
import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { subscribeExam, type ExamMessage } from "@/lib/server/live/exam-bus";
import { startedAttempt } from "@/test-support/server/attempts";
import { AppError } from "@/lib/shared/errors";

import { withAttemptLocks, withLockedAttempt } from "./with-locked-attempt";
import { busSettled } from "@/test-support/server/bus";

async function makeOverdue(attemptId: string): Promise<void> {
  await db.attempt.update({ where: { id: attemptId }, data: { deadline: new Date(Date.now() - 120_000) } });
}

/** What the exam's bus says while `action` runs (and a moment after, for Redis to deliver). */
async function busDuring(examId: string, action: () => Promise<unknown>): Promise<ExamMessage[]> {
  await busSettled();
  const received: ExamMessage[] = [];
  const unsubscribe = subscribeExam(examId, (message) => received.push(message));
  try {
    await action().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return received;
  } finally {
    unsubscribe();
  }
}

describe("withLockedAttempt: the one locked-attempt transaction", () => {
  it("hands the attempt over as it is under the lock, and freezes it once through attempt.freeze", async () => {
    const attempt = await startedAttempt();
    const messages = await busDuring(attempt.examId, () =>
      withLockedAttempt(attempt.attemptId, async (_tx, locked) => {
        expect(locked).toMatchObject({
          id: attempt.attemptId,
          examId: attempt.examId,
          enrollmentId: attempt.enrollmentId,
        });
        expect(locked).toMatchObject({ status: "in_progress", isAutoSubmitted: false });
        const response = await locked.freeze({ source: "proctor" });
        expect(locked.status).toBe("submitted");
        await expect(locked.freeze({ source: "proctor" })).rejects.toThrow(/already submitted/);
        return response;
      }),
    );
    expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
    expect(messages.filter((message) => message.type === "change").map((message) => message.kind)).toEqual([
      "submitted",
    ]);
  });

  it("auto-submits an overdue attempt when it takes the lock (source auto), and the bus hears of it after commit", async () => {
    const attempt = await startedAttempt({ graceSeconds: 0 });
    await makeOverdue(attempt.attemptId);
    const messages = await busDuring(attempt.examId, () =>
      withLockedAttempt(attempt.attemptId, async (_tx, locked) => {
        expect(locked).toMatchObject({ status: "submitted", isAutoSubmitted: true });
      }),
    );
    const submission = await db.submission.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } });
    expect(submission.source).toBe("auto");
    expect(messages.filter((message) => message.type === "change").map((message) => message.kind)).toEqual([
      "submitted",
    ]);

    // Already submitted: the next lock sees it as it is, and freezes nothing.
    await withLockedAttempt(attempt.attemptId, async (_tx, locked) => {
      expect(locked).toMatchObject({ status: "submitted", isAutoSubmitted: false });
    });
    expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
  });

  it("rolls the auto-submit back with the transaction, and then tells no one", async () => {
    const attempt = await startedAttempt({ graceSeconds: 0 });
    await makeOverdue(attempt.attemptId);
    const messages = await busDuring(attempt.examId, () =>
      withLockedAttempt(attempt.attemptId, async () => {
        throw new Error("the operation failed after the lock");
      }),
    );
    expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(0);
    expect((await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } })).status).toBe("in_progress");
    expect(messages).toEqual([]);
  });

  it("answers 409 REQUEST_IN_PROGRESS with Retry-After when the row stays locked past the 3 s lock timeout", async () => {
    const attempt = await startedAttempt();
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM attempts WHERE id = $1 FOR UPDATE", [attempt.attemptId]);
      let ran = false;
      const error = await withLockedAttempt(attempt.attemptId, async () => {
        ran = true;
      }).catch((caught: unknown) => caught);
      expect(ran).toBe(false);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "REQUEST_IN_PROGRESS", headers: { "Retry-After": "1" } });
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }
  });

  it("is 404 for an attempt that does not exist; withAttemptLocks' lock() says null", async () => {
    await expect(withLockedAttempt(randomUUID(), async () => undefined)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await withAttemptLocks(({ lock }) => lock(randomUUID()))).toBeNull();
  });
});
