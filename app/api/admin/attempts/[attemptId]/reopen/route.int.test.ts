import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { GET as attemptRoute } from "@/app/api/attempts/[attemptId]/route";
import { POST as forceSubmitRoute } from "@/app/api/proctor/attempts/[attemptId]/force-submit/route";
import { db } from "@/lib/server/db/client";
import { answersDigest } from "@/lib/shared/digest";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken, createStaff, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { POST as reopenRoute } from "./route";

const REOPEN = { reason: "force-submitted by mistake", seconds: 600 };

function reopen(attemptId: string, options: { json?: unknown; key?: string; cookie?: string } = { json: REOPEN }) {
  return call(reopenRoute, {
    method: "POST",
    params: { attemptId },
    ...(options.cookie ? { cookie: options.cookie } : { bearer: adminToken() }),
    json: options.json ?? REOPEN,
    headers: options.key ? { "idempotency-key": options.key } : {},
  });
}

/** A started attempt with one answer, submitted by its candidate with `key`. */
async function submittedAttempt(examOverrides: Record<string, unknown> = {}) {
  const attempt = await startedAttempt(examOverrides);
  const questionId = attempt.questions[2]!.id;
  await autosave(attempt, { deviceId: "laptop", answers: [{ questionId, value: "first", version: 1 }] });
  const key = randomUUID();
  const body = { deviceId: "laptop", answers: [], digest: await answersDigest([{ questionId, value: "first" }]) };
  const first = await submit(attempt, body, key);
  if (first.status !== 200) throw new Error(`submit: ${first.status} ${first.text}`);
  return { attempt, questionId, key, body, first };
}

async function state(attemptId: string) {
  const [attempt, submissions, history, reopenings] = await Promise.all([
    db.attempt.findUniqueOrThrow({ where: { id: attemptId }, select: { status: true, deadline: true } }),
    db.submission.findMany({ where: { attemptId } }),
    db.submissionHistory.findMany({ where: { attemptId }, orderBy: { version: "asc" } }),
    db.attemptReopening.findMany({ where: { attemptId } }),
  ]);
  return { ...attempt, submissions, history, reopenings };
}

async function dbNow(): Promise<number> {
  const rows = await db.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS now`;
  return rows[0]!.now.getTime();
}

function view(attempt: StartedAttempt) {
  return call(attemptRoute, { method: "GET", params: { attemptId: attempt.attemptId }, cookie: attempt.cookie });
}

describe("POST /api/admin/attempts/{attemptId}/reopen", () => {
  it("unfreezes the paper with new time; the submission and its receipt stay in the history; the next submit is version 2", async () => {
    const { attempt, questionId, first } = await submittedAttempt();
    const before = await state(attempt.attemptId);
    const original = before.submissions[0]!;

    const startedAt = await dbNow();
    const response = await reopen(attempt.attemptId);
    const endedAt = await dbNow();

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      attemptId: attempt.attemptId,
      supersededSubmissionId: first.body.submissionId,
      supersededVersion: 1,
      seconds: 600,
      reason: REOPEN.reason,
      status: "in_progress",
    });
    const deadline = Date.parse(response.body.deadline);
    expect(deadline).toBeGreaterThanOrEqual(startedAt + 600_000 - 1);
    expect(deadline).toBeLessThanOrEqual(endedAt + 600_000 + 1);

    const after = await state(attempt.attemptId);
    expect(after.status).toBe("in_progress");
    expect(after.deadline.toISOString()).toBe(response.body.deadline);
    expect(after.submissions).toEqual([]);
    // Every column as it was, receipt and stored response included.
    expect(after.history).toHaveLength(1);
    const { supersededAt, reopeningId, paper, ...moved } = after.history[0]!;
    expect(moved).toEqual(original);
    // The frozen paper is kept with it, and its digest is the one the receipt signs.
    const frozen = Object.entries(paper as Record<string, AnswerValue>).map(([id, value]) => ({
      questionId: id,
      value,
    }));
    expect(await answersDigest(frozen)).toBe(original.digest);
    expect(reopeningId).toBe(response.body.reopeningId);
    expect(supersededAt.getTime()).toBeGreaterThanOrEqual(startedAt - 1);
    expect(after.reopenings).toHaveLength(1);
    expect(after.reopenings[0]).toMatchObject({
      version: 1,
      reason: REOPEN.reason,
      seconds: 600,
      actorLabel: "API token",
    });

    const audit = await db.auditEvent.findFirstOrThrow({
      where: { attemptId: attempt.attemptId, action: "attempt.reopened" },
    });
    expect(audit).toMatchObject({ actorType: "api-token", examId: attempt.examId, enrollmentId: attempt.enrollmentId });
    expect(audit.data).toMatchObject({ reason: REOPEN.reason, minutes: 10, supersededVersion: 1, by: "API token" });

    // The candidate edits and submits again, with a new key: version 2, its own receipt.
    const saved = await autosave(attempt, {
      deviceId: "laptop",
      answers: [{ questionId, value: "second", version: 2 }],
    });
    expect(saved.status).toBe(200);
    const second = await submit(
      attempt,
      { deviceId: "laptop", answers: [], digest: await answersDigest([{ questionId, value: "second" }]) },
      randomUUID(),
    );
    expect(second.status).toBe(200);
    expect(second.body.submissionId).not.toBe(first.body.submissionId);
    expect(second.body.receipt).not.toBe(first.body.receipt);
    const final = await state(attempt.attemptId);
    expect(final.submissions).toHaveLength(1);
    expect(final.submissions[0]).toMatchObject({ id: second.body.submissionId, version: 2 });
    expect(final.history[0]!.receipt).toBe(first.body.receipt);
    // The candidate's new answer did not touch the earlier paper.
    expect((final.history[0]!.paper as Record<string, unknown>)[questionId]).not.toBe("second");

    const current = await view(attempt);
    expect(current.body.status).toBe("submitted");
    expect(current.body.submission).toMatchObject({ submissionId: second.body.submissionId, version: 2 });
    expect(current.body.earlierSubmissions).toEqual([
      expect.objectContaining({ submissionId: first.body.submissionId, version: 1, receipt: first.body.receipt }),
    ]);
  });

  it("a proctor's force-submit after a reopening is the next version too, and it can be reopened again", async () => {
    const { attempt } = await submittedAttempt();
    expect((await reopen(attempt.attemptId)).status).toBe(200);
    const forced = await call(forceSubmitRoute, {
      method: "POST",
      params: { attemptId: attempt.attemptId },
      bearer: adminToken(),
      json: {},
    });
    expect(forced.status).toBe(200);
    expect((await state(attempt.attemptId)).submissions[0]).toMatchObject({ source: "proctor", version: 2 });
    expect((await reopen(attempt.attemptId)).body.supersededVersion).toBe(2);
    expect((await state(attempt.attemptId)).history.map((row) => row.version)).toEqual([1, 2]);
  });

  it("a proctor is refused: 403, nothing changed", async () => {
    const { attempt } = await submittedAttempt();
    const proctor = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: attempt.examId, staffUserId: proctor.id } });
    const response = await reopen(attempt.attemptId, { cookie: await signIn(proctor.email, proctor.password) });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe("FORBIDDEN");
    expect((await state(attempt.attemptId)).status).toBe("submitted");
  });

  it("an attempt in progress: 409 NOT_SUBMITTED; an unknown id: 404; a bad body: 422", async () => {
    const attempt = await startedAttempt();
    const running = await reopen(attempt.attemptId);
    expect(running.status).toBe(409);
    expect(running.body.error.code).toBe("NOT_SUBMITTED");
    expect((await state(attempt.attemptId)).reopenings).toEqual([]);

    expect((await reopen(randomUUID())).status).toBe(404);

    const { attempt: submitted } = await submittedAttempt();
    for (const json of [{ reason: "x", seconds: 600 }, { reason: "ok reason", seconds: 30 }, { reason: "ok reason" }]) {
      const refused = await reopen(submitted.attemptId, { json });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe("VALIDATION_FAILED");
    }
    expect((await state(submitted.attemptId)).status).toBe("submitted");
  });

  it("outside the exam's window: 409 EXAM_CLOSED for a closed exam and past closesAt; nothing changed", async () => {
    const closed = await submittedAttempt();
    await db.exam.update({ where: { id: closed.attempt.examId }, data: { status: "closed" } });
    const byStatus = await reopen(closed.attempt.attemptId);
    expect(byStatus.status).toBe(409);
    expect(byStatus.body.error).toMatchObject({ code: "EXAM_CLOSED", details: { examStatus: "closed" } });
    expect((await state(closed.attempt.attemptId)).history).toEqual([]);

    const late = await submittedAttempt();
    await db.$executeRaw`UPDATE exams SET closes_at = clock_timestamp() - interval '1 second' WHERE id = ${late.attempt.examId}::uuid`;
    const byTime = await reopen(late.attempt.attemptId);
    expect(byTime.status).toBe(409);
    expect(byTime.body.error.code).toBe("EXAM_CLOSED");
    expect((await state(late.attempt.attemptId)).status).toBe("submitted");
  });

  it("the new deadline never passes the exam's closesAt", async () => {
    const { attempt } = await submittedAttempt();
    await db.$executeRaw`UPDATE exams SET closes_at = date_trunc('milliseconds', clock_timestamp()) + interval '2 minutes'
                         WHERE id = ${attempt.examId}::uuid`;
    const exam = await db.exam.findUniqueOrThrow({ where: { id: attempt.examId }, select: { closesAt: true } });
    const response = await reopen(attempt.attemptId, { json: { reason: "power cut", seconds: 3600 } });
    expect(response.status).toBe(200);
    expect(response.body.deadline).toBe(exam.closesAt!.toISOString());
  });

  it("10 parallel reopens with one key reopen once; the others replay it", async () => {
    const { attempt } = await submittedAttempt();
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => reopen(attempt.attemptId, { key, json: REOPEN })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(new Set(responses.map((response) => response.body.reopeningId)).size).toBe(1);
    expect(responses.filter((response) => response.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
    const after = await state(attempt.attemptId);
    expect(after.reopenings).toHaveLength(1);
    expect(after.history).toHaveLength(1);
    expect(await db.auditEvent.count({ where: { attemptId: attempt.attemptId, action: "attempt.reopened" } })).toBe(1);

    const reused = await reopen(attempt.attemptId, { key, json: { ...REOPEN, seconds: 1200 } });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("two parallel reopens with different keys: exactly one reopens, the other is 409 NOT_SUBMITTED", async () => {
    const { attempt } = await submittedAttempt();
    const responses = await Promise.all([
      reopen(attempt.attemptId, { key: randomUUID(), json: REOPEN }),
      reopen(attempt.attemptId, { key: randomUUID(), json: REOPEN }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(responses.find((response) => response.status === 409)!.body.error.code).toBe("NOT_SUBMITTED");
    expect((await state(attempt.attemptId)).reopenings).toHaveLength(1);
  });

  describe("a retry of the superseded submit (same Idempotency-Key)", () => {
    it("after the reopening: the old response replayed, the reopened paper not frozen", async () => {
      const { attempt, key, body, first } = await submittedAttempt();
      expect((await reopen(attempt.attemptId)).status).toBe(200);

      const retry = await submit(attempt, body, key);
      expect(retry.status).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.text).toBe(first.text);
      const after = await state(attempt.attemptId);
      expect(after.status).toBe("in_progress");
      expect(after.submissions).toEqual([]);

      const otherBody = await submit(attempt, { ...body, deviceId: "phone" }, key);
      expect(otherBody.status).toBe(422);
      expect(otherBody.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
    });

    it("racing the reopening: whichever goes first, the attempt ends reopened with no new submission", async () => {
      for (let round = 0; round < 5; round += 1) {
        const { attempt, key, body, first } = await submittedAttempt();
        const [retry, reopened] = await Promise.all([submit(attempt, body, key), reopen(attempt.attemptId)]);
        expect(reopened.status).toBe(200);
        // Before the move: the replay of the current submission; after it: the replay from the history; in
        // between (read as submitted, then moved): 409 REQUEST_IN_PROGRESS, which the client retries.
        if (retry.status === 200) expect(retry.text).toBe(first.text);
        else expect(retry.body.error.code).toBe("REQUEST_IN_PROGRESS");
        const after = await state(attempt.attemptId);
        expect(after.status).toBe("in_progress");
        expect(after.submissions).toEqual([]);
        expect(after.history).toHaveLength(1);
      }
    });
  });

  it("the history is append-only: UPDATE and DELETE are refused by the database", async () => {
    const { attempt } = await submittedAttempt();
    expect((await reopen(attempt.attemptId)).status).toBe(200);
    await expect(
      db.$executeRaw`UPDATE submission_history SET receipt = 'forged' WHERE attempt_id = ${attempt.attemptId}::uuid`,
    ).rejects.toThrow(/append-only/);
    await expect(
      db.$executeRaw`DELETE FROM submission_history WHERE attempt_id = ${attempt.attemptId}::uuid`,
    ).rejects.toThrow(/append-only/);
    expect((await state(attempt.attemptId)).history).toHaveLength(1);
  });
});
