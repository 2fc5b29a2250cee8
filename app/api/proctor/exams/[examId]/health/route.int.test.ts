// GET /api/proctor/exams/{examId}/health: loss from Postgres, request numbers from the stats, and the
// proctor's scope: an exam not assigned to them, or one that does not exist, is a 404 with the error body.
import { randomUUID } from "node:crypto";

import { beforeAll, describe, expect, it } from "vitest";

import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { db } from "@/lib/server/db/client";
import { flushExamRequestStats } from "@/lib/server/request-stats/exam-request-stats";
import { getRedis } from "@/lib/server/redis/client";
import { autosave, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, enroll, join, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import type { ExamHealth } from "@/lib/shared/schemas/proctor";

import { GET, POST } from "./route";

async function startedAttempts(count: number): Promise<{ examId: string; attempts: StartedAttempt[] }> {
  const exam = await createExam();
  const candidates = await enroll(exam.id, count);
  const attempts = await Promise.all(
    candidates.map(async (candidate) => {
      const cookie = await join(candidate.joinToken);
      const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
      expect(started.status).toBe(201);
      return {
        examId: exam.id,
        attemptId: started.body.attemptId as string,
        cookie,
        enrollmentId: candidate.id,
        questions: exam.questions,
      };
    }),
  );
  return { examId: exam.id, attempts };
}

const health = (examId: string, auth: { cookie?: string; bearer?: string }) =>
  call<ExamHealth & { error: { code: string; message: string } }>(GET, {
    path: `/api/proctor/exams/${examId}/health`,
    params: { examId },
    ...auth,
  });

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
});

describe("GET /api/proctor/exams/{examId}/health", () => {
  it("gives loss, duplicates, p99s and a point per minute of the last hour", async () => {
    const { examId, attempts } = await startedAttempts(4);
    const [mismatched, late, clean, replayed] = attempts as [
      StartedAttempt,
      StartedAttempt,
      StartedAttempt,
      StartedAttempt,
    ];
    const question = mismatched.questions[2]!.id;

    // One submission whose device digest differs from the server's paper.
    expect(
      (await submit(mismatched, { deviceId: "d", answers: [], digest: "0".repeat(64) }, randomUUID())).status,
    ).toBe(200);
    // It also gets a late answer: one submission with both counts once in the loss rate, not twice.
    expect(
      (await autosave(mismatched, { deviceId: "d", answers: [{ questionId: question, value: "later", version: 7 }] }))
        .status,
    ).toBe(409);
    // One attempt with a late answer: an edit that arrived after its submission.
    expect((await submit(late, { deviceId: "d", answers: [] }, randomUUID())).status).toBe(200);
    expect(
      (await autosave(late, { deviceId: "d", answers: [{ questionId: question, value: "late", version: 5 }] })).status,
    ).toBe(409);
    // Two clean ones, one of them replayed once.
    await autosave(clean, { deviceId: "d", answers: [{ questionId: question, value: "x", version: 1 }] });
    expect((await submit(clean, { deviceId: "d", answers: [] }, randomUUID())).status).toBe(200);
    const key = randomUUID();
    await submit(replayed, { deviceId: "d", answers: [] }, key);
    expect((await submit(replayed, { deviceId: "d", answers: [] }, key)).headers.get("idempotent-replayed")).toBe(
      "true",
    );
    await flushExamRequestStats();

    const response = await health(examId, { bearer: adminToken() });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = response.body;
    expect(body).toMatchObject({
      examId,
      submissions: 4,
      digestMismatches: 1,
      attemptsWithLateAnswers: 2,
      lossRate: 0.5,
      duplicateRate: 1 / 5,
      rateLimited: 0,
    });
    expect(body.autosaveP99Ms).toBeGreaterThan(0);
    expect(body.submitP99Ms).toBeGreaterThan(0);
    expect(body.series).toHaveLength(60);
    expect(body.series.at(-1)!.at).toBe(Math.floor(body.serverTime / 60_000) * 60_000);
    expect(body.series.reduce((sum, point) => sum + point.submits, 0)).toBe(5);
    expect(body.series.reduce((sum, point) => sum + point.autosaves, 0)).toBe(3);
  });

  it("has no rates for an exam without submissions or traffic", async () => {
    const exam = await createExam();
    const response = await health(exam.id, { bearer: adminToken() });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      submissions: 0,
      lossRate: null,
      duplicateRate: null,
      autosaveP99Ms: null,
      submitP99Ms: null,
    });
  });

  it("answers an assigned proctor, and 404 to an unassigned one, for another exam's id and for a missing exam", async () => {
    const mine = await createExam();
    const theirs = await createExam();
    const assigned = await createStaff("proctor");
    const stranger = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: mine.id, staffUserId: assigned.id } });
    await db.examProctor.create({ data: { examId: theirs.id, staffUserId: stranger.id } });
    const cookie = await signIn(assigned.email, assigned.password);

    expect((await health(mine.id, { cookie })).status).toBe(200);
    for (const examId of [theirs.id, randomUUID()]) {
      const refused = await health(examId, { cookie });
      expect(refused.status).toBe(404);
      expect(refused.body.error).toEqual({ code: "NOT_FOUND", message: "No such exam." });
    }
    expect((await health(mine.id, { cookie: await signIn(stranger.email, stranger.password) })).status).toBe(404);
    expect((await health("not-a-uuid", { cookie })).status).toBe(404);
  });

  it("wants a staff session or the admin token, and takes GET only", async () => {
    const exam = await createExam();
    const anonymous = await health(exam.id, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("UNAUTHENTICATED");
    const wrong = POST();
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("METHOD_NOT_ALLOWED");
  });
});
