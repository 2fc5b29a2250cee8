import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { POST as heartbeatRoute } from "@/app/api/attempts/[attemptId]/heartbeat/route";
import { db } from "@/lib/server/db/client";
import { startedAttempt } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, enroll, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import type { CandidatesSnapshot } from "@/lib/shared/schemas/proctor";

import { GET as snapshotRoute, POST as postRoute } from "./route";

function snapshot(examId: string, auth: { cookie?: string; bearer?: string }) {
  return call<CandidatesSnapshot>(snapshotRoute, { params: { examId }, ...auth });
}

describe("GET /api/proctor/exams/{examId}/candidates", () => {
  it("gives an admin every candidate's facts with the counters, never cached", async () => {
    const attempt = await startedAttempt();
    await enroll(attempt.examId, 2);
    const admin = await createStaff("admin");
    const before = Date.now();
    const response = await snapshot(attempt.examId, { cookie: await signIn(admin.email, admin.password) });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = response.body;
    expect(body.examId).toBe(attempt.examId);
    expect(body.examTitle).toMatch(/^Exam /);
    expect(body.serverTime).toBeGreaterThanOrEqual(before);
    expect(body.candidates).toHaveLength(3);
    expect(body.candidates.find((candidate) => candidate.enrollmentId === attempt.enrollmentId)).toMatchObject({
      attemptId: attempt.attemptId,
      phase: "in_progress",
      total: 5,
    });
    expect(body.counters).toMatchObject({ total: 3, notStarted: 2, inProgress: 1, submitted: 0 });
  });

  it("tells API clients each candidate's status in words, derived at serverTime", async () => {
    const attempt = await startedAttempt();
    const [waiting] = await enroll(attempt.examId, 1);
    const beat = {
      deviceId: "laptop",
      online: false,
      pending: 2,
      oldestPendingMs: 4_000,
      lastAckRevision: 0,
      clock: 2,
      consecutiveFailures: 1,
    };
    const heartbeat = await call(heartbeatRoute, {
      path: `/api/attempts/${attempt.attemptId}/heartbeat`,
      params: { attemptId: attempt.attemptId },
      cookie: attempt.cookie,
      json: beat,
    });
    expect(heartbeat.status).toBe(200);
    const body = (await snapshot(attempt.examId, { bearer: adminToken() })).body;
    const started = body.candidates.find((candidate) => candidate.enrollmentId === attempt.enrollmentId)!;
    expect(started.status).toMatchObject({
      connection: "offline",
      sync: "pending",
      pending: 2,
      isAtRisk: false,
      devicesUsed: 1,
    });
    expect(started.status.timeLeftMs).toBeGreaterThan(0);
    const notStarted = body.candidates.find((candidate) => candidate.enrollmentId === waiting!.id)!;
    expect(notStarted.status).toMatchObject({ connection: "never", sync: "none", timeLeftMs: null });
    expect(body.counters).toMatchObject({ offline: 1, pending: 1, notStarted: 1 });
  });

  it("answers the API token, and an assigned proctor", async () => {
    const exam = await createExam();
    await enroll(exam.id, 1);
    expect((await snapshot(exam.id, { bearer: adminToken() })).body.candidates).toHaveLength(1);

    const proctor = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: exam.id, staffUserId: proctor.id } });
    const response = await snapshot(exam.id, { cookie: await signIn(proctor.email, proctor.password) });
    expect(response.status).toBe(200);
    expect(response.body.counters.total).toBe(1);
  });

  it("answers 404 for an exam not assigned to the proctor, another exam's id, or a malformed id", async () => {
    const exam = await createExam();
    const elsewhere = await createExam();
    const proctor = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: elsewhere.id, staffUserId: proctor.id } });
    const cookie = await signIn(proctor.email, proctor.password);

    for (const examId of [exam.id, randomUUID(), "not-a-uuid"]) {
      const response = await snapshot(examId, { cookie });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    }
    expect((await snapshot(elsewhere.id, { cookie })).status).toBe(200);
  });

  it("refuses callers who are not staff, and other methods", async () => {
    const attempt = await startedAttempt();
    expect((await snapshot(attempt.examId, {})).status).toBe(401);
    expect((await snapshot(attempt.examId, { cookie: attempt.cookie })).status).toBe(401);
    expect((await snapshot(attempt.examId, { bearer: "wrong-token" })).body).toMatchObject({
      error: { code: "UNAUTHENTICATED" },
    });
    const post = postRoute();
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });
});
