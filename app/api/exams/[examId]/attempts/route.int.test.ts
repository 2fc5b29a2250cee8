import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { GET as getAttemptRoute } from "@/app/api/attempts/[attemptId]/route";
import { db } from "@/lib/server/db/client";
import { createExam, enroll, join } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { POST as startAttemptRoute } from "./route";

function start(examId: string, cookie?: string) {
  return call(startAttemptRoute, { method: "POST", path: `/api/exams/${examId}/attempts`, params: { examId }, cookie });
}

describe("POST /api/exams/{examId}/attempts", () => {
  it("creates the attempt once under 50 parallel starts from several sessions, and every call gets that attempt", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    // Five devices (sessions) of the same candidate, ten calls each, all at once.
    const cookies = await Promise.all(Array.from({ length: 5 }, () => join(candidate!.joinToken)));
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => start(exam.id, cookies[i % cookies.length])),
    );

    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(49);
    const ids = new Set(responses.map((r) => r.body.attemptId));
    expect(ids.size).toBe(1);
    expect(await db.attempt.count({ where: { enrollmentId: candidate!.id } })).toBe(1);
    expect(await db.auditEvent.count({ where: { enrollmentId: candidate!.id, action: "attempt.started" } })).toBe(1);
  });

  it("returns the contract's shape: questions without answer keys, server time and a server-computed deadline", async () => {
    const exam = await createExam({ durationSeconds: 1800 });
    const [candidate] = await enroll(exam.id, 1, 300);
    const before = Date.now();
    const response = await start(exam.id, await join(candidate!.joinToken));

    expect(response.status).toBe(201);
    const body = response.body;
    expect(body).toMatchObject({ status: "in_progress", revision: 0, answers: [], examId: exam.id });
    expect(body.questions).toHaveLength(5);
    expect(body.questions.map((q: { position: number }) => q.position)).toEqual([1, 2, 3, 4, 5]);
    for (const question of body.questions) expect(question).not.toHaveProperty("answerKey");
    expect(JSON.stringify(body)).not.toContain("tolerance");
    const deadline = Date.parse(body.deadline);
    // 1800 s duration + 300 s extra time.
    expect(deadline - Date.parse(body.startedAt)).toBe(2_100_000);
    expect(Date.parse(body.serverTime)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(body.acceptsUntil) - deadline).toBe(60_000);
  });

  it("caps the deadline at the exam's close time", async () => {
    const closesAt = new Date(Date.now() + 10 * 60_000);
    const exam = await createExam({ durationSeconds: 3600, closesAt: closesAt.toISOString() });
    const [candidate] = await enroll(exam.id);
    const response = await start(exam.id, await join(candidate!.joinToken));
    expect(response.status).toBe(201);
    expect(Date.parse(response.body.deadline)).toBe(closesAt.getTime());
  });

  it("refuses to start a draft, a not-yet-open or a closed exam, and creates nothing", async () => {
    const draft = await createExam({ status: "draft" });
    const later = await createExam({ opensAt: new Date(Date.now() + 3_600_000).toISOString() });
    const closed = await createExam({ status: "closed" });
    for (const [exam, code] of [
      [draft, "EXAM_NOT_OPEN"],
      [later, "EXAM_NOT_OPEN"],
      [closed, "EXAM_CLOSED"],
    ] as const) {
      const [candidate] = await enroll(exam.id);
      // A closed exam's link no longer works at all; make the session directly for the others.
      if (code === "EXAM_CLOSED") {
        const response = await call((await import("@/app/api/session/route")).POST, {
          json: { joinToken: candidate!.joinToken },
        });
        expect(response.status).toBe(409);
        expect(response.body.error.code).toBe("EXAM_CLOSED");
        continue;
      }
      const response = await start(exam.id, await join(candidate!.joinToken));
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe(code);
      expect(await db.attempt.count({ where: { enrollmentId: candidate!.id } })).toBe(0);
    }
  });

  it("answers 401 without a session and 404 for an exam the session is not enrolled in", async () => {
    const exam = await createExam();
    const other = await createExam();
    const [candidate] = await enroll(exam.id);
    const cookie = await join(candidate!.joinToken);

    const anonymous = await start(exam.id);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("UNAUTHENTICATED");

    for (const examId of [other.id, randomUUID(), "not-a-uuid"]) {
      const response = await start(examId, cookie);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    }
    expect(await db.attempt.count({ where: { examId: other.id } })).toBe(0);
  });
});

describe("GET /api/attempts/{attemptId}", () => {
  it("returns the candidate's own attempt from any of their devices", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const phone = await join(candidate!.joinToken);
    const laptop = await join(candidate!.joinToken);
    const started = await start(exam.id, phone);

    const response = await call(getAttemptRoute, { params: { attemptId: started.body.attemptId }, cookie: laptop });
    expect(response.status).toBe(200);
    expect(response.body.attemptId).toBe(started.body.attemptId);
    expect(response.body.deadline).toBe(started.body.deadline);
  });

  it("answers 404 with no data for another candidate's attempt (guarantee 4: no peeking)", async () => {
    const exam = await createExam();
    const [alice, bob] = await enroll(exam.id, 2);
    const aliceCookie = await join(alice!.joinToken);
    const bobCookie = await join(bob!.joinToken);
    const aliceAttempt = await start(exam.id, aliceCookie);
    const bobAttempt = await start(exam.id, bobCookie);

    const peek = await call(getAttemptRoute, { params: { attemptId: aliceAttempt.body.attemptId }, cookie: bobCookie });
    expect(peek.status).toBe(404);
    expect(peek.body).toEqual({ error: { code: "NOT_FOUND", message: "No such attempt." } });
    expect(peek.text).not.toContain(aliceAttempt.body.attemptId);

    // The same 404 for an id that does not exist at all: the two cannot be told apart.
    const missing = await call(getAttemptRoute, { params: { attemptId: randomUUID() }, cookie: bobCookie });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(peek.body);

    // And the legitimate path still works.
    const own = await call(getAttemptRoute, { params: { attemptId: bobAttempt.body.attemptId }, cookie: bobCookie });
    expect(own.status).toBe(200);
  });
});
