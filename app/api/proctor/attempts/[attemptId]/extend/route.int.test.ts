import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { autoSubmitAttempt, autoSubmitOverdue } from "@/lib/server/attempts/auto-submit";
import { withLockedAttempt } from "@/lib/server/attempts/with-locked-attempt";
import { db } from "@/lib/server/db/client";
import { startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, enroll, join, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { GET, POST as extendRoute } from "./route";

function extend(
  attemptId: string,
  body: unknown,
  auth: { bearer?: string; cookie?: string } = { bearer: adminToken() },
  key?: string,
) {
  return call(extendRoute, {
    params: { attemptId },
    json: body,
    ...auth,
    headers: key === undefined ? {} : { "idempotency-key": key },
  });
}

async function deadlineOf(attemptId: string): Promise<number> {
  return (
    await db.attempt.findUniqueOrThrow({ where: { id: attemptId }, select: { deadline: true } })
  ).deadline.getTime();
}

async function extraOf(enrollmentId: string): Promise<number> {
  return (await db.enrollment.findUniqueOrThrow({ where: { id: enrollmentId }, select: { extraSeconds: true } }))
    .extraSeconds;
}

async function proctorFor(attempt: Pick<StartedAttempt, "examId">): Promise<string> {
  const proctor = await createStaff("proctor");
  await db.examProctor.create({ data: { examId: attempt.examId, staffUserId: proctor.id } });
  return signIn(proctor.email, proctor.password);
}

describe("POST /api/proctor/attempts/{attemptId}/extend", () => {
  it("moves a running attempt's deadline later, records who and why, and audits it", async () => {
    const attempt = await startedAttempt();
    const before = await deadlineOf(attempt.attemptId);
    const proctor = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: attempt.examId, staffUserId: proctor.id } });
    const cookie = await signIn(proctor.email, proctor.password);

    const response = await extend(attempt.attemptId, { seconds: 600, reason: "  fire alarm  " }, { cookie });

    expect(response.status).toBe(200);
    expect(response.headers.get("idempotent-replayed")).toBeNull();
    expect(response.body).toEqual({
      extensionId: expect.any(String),
      enrollmentId: attempt.enrollmentId,
      attemptId: attempt.attemptId,
      seconds: 600,
      previousDeadline: new Date(before).toISOString(),
      deadline: new Date(before + 600_000).toISOString(),
      outcome: "extended",
    });
    expect(await deadlineOf(attempt.attemptId)).toBe(before + 600_000);
    expect(await extraOf(attempt.enrollmentId)).toBe(600);
    const row = await db.timeExtension.findUniqueOrThrow({ where: { id: response.body.extensionId } });
    expect(row).toMatchObject({
      examId: attempt.examId,
      enrollmentId: attempt.enrollmentId,
      attemptId: attempt.attemptId,
      seconds: 600,
      reason: "fire alarm",
      staffUserId: proctor.id,
      actorLabel: `Test proctor <${proctor.email}>`,
      requestKey: null,
      acknowledgedAt: null,
    });
    expect(row.previousDeadline!.getTime()).toBe(before);
    expect(row.newDeadline!.getTime()).toBe(before + 600_000);
    const audit = await db.auditEvent.findFirstOrThrow({
      where: { attemptId: attempt.attemptId, action: "attempt.extended" },
    });
    expect(audit).toMatchObject({
      actorType: "staff",
      actorId: proctor.id,
      examId: attempt.examId,
      enrollmentId: attempt.enrollmentId,
    });
    expect(audit.data).toMatchObject({
      seconds: 600,
      reason: "fire alarm",
      by: `Test proctor <${proctor.email}>`,
      extensionId: row.id,
    });
  });

  it("adds up extensions given at the same moment (the deadline moves in SQL under the row lock)", async () => {
    const attempt = await startedAttempt();
    const before = await deadlineOf(attempt.attemptId);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => extend(attempt.attemptId, { seconds: 60, reason: "network outage" })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await deadlineOf(attempt.attemptId)).toBe(before + 8 * 60_000);
    expect(await extraOf(attempt.enrollmentId)).toBe(8 * 60);
    expect(await db.timeExtension.count({ where: { enrollmentId: attempt.enrollmentId } })).toBe(8);
    // Each saw the deadline the previous one left.
    const deadlines = responses.map((r) => Date.parse(r.body.deadline)).sort((a, b) => a - b);
    expect(deadlines).toEqual(Array.from({ length: 8 }, (_, i) => before + (i + 1) * 60_000));
  });

  it("the API token acts as 'API token', audited as such", async () => {
    const attempt = await startedAttempt();
    const response = await extend(attempt.attemptId, { seconds: 120, reason: "late start" });
    expect(response.status).toBe(200);
    expect(await db.timeExtension.findUniqueOrThrow({ where: { id: response.body.extensionId } })).toMatchObject({
      actorLabel: "API token",
      staffUserId: null,
    });
    expect(
      await db.auditEvent.findFirstOrThrow({ where: { attemptId: attempt.attemptId, action: "attempt.extended" } }),
    ).toMatchObject({ actorType: "api-token", actorId: null });
  });

  describe("Idempotency-Key", () => {
    it("the same key never extends twice: the stored result with Idempotent-Replayed: true, also under parallel retries", async () => {
      const attempt = await startedAttempt();
      const before = await deadlineOf(attempt.attemptId);
      const key = randomUUID();
      const body = { seconds: 300, reason: "projector broke" };
      const first = await extend(attempt.attemptId, body, undefined, key);
      const retries = await Promise.all(
        Array.from({ length: 6 }, () => extend(attempt.attemptId, body, undefined, key)),
      );

      expect(first.status).toBe(200);
      for (const retry of retries) {
        expect(retry.status).toBe(200);
        expect(retry.headers.get("idempotent-replayed")).toBe("true");
        expect(retry.body).toEqual(first.body);
      }
      expect(await deadlineOf(attempt.attemptId)).toBe(before + 300_000);
      expect(await extraOf(attempt.enrollmentId)).toBe(300);
      expect(await db.timeExtension.count({ where: { enrollmentId: attempt.enrollmentId } })).toBe(1);
      expect(await db.auditEvent.count({ where: { attemptId: attempt.attemptId, action: "attempt.extended" } })).toBe(
        1,
      );

      // Another key is another extension.
      const second = await extend(attempt.attemptId, body, undefined, randomUUID());
      expect(second.status).toBe(200);
      expect(await deadlineOf(attempt.attemptId)).toBe(before + 600_000);
    });

    it("parallel first uses of one key make one extension", async () => {
      const attempt = await startedAttempt();
      const before = await deadlineOf(attempt.attemptId);
      const key = randomUUID();
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          extend(attempt.attemptId, { seconds: 60, reason: "wifi down" }, undefined, key),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(new Set(responses.map((r) => r.body.extensionId)).size).toBe(1);
      expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
      expect(await deadlineOf(attempt.attemptId)).toBe(before + 60_000);
    });

    it("the same key with another body: 422 IDEMPOTENCY_KEY_REUSED, nothing changed", async () => {
      const attempt = await startedAttempt();
      const key = randomUUID();
      await extend(attempt.attemptId, { seconds: 60, reason: "wifi down" }, undefined, key);
      const deadline = await deadlineOf(attempt.attemptId);
      const reused = await extend(attempt.attemptId, { seconds: 120, reason: "wifi down" }, undefined, key);
      expect(reused.status).toBe(422);
      expect(reused.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
      expect(await deadlineOf(attempt.attemptId)).toBe(deadline);
    });

    it.each([
      ["empty", ""],
      ["256 characters", "k".repeat(256)],
      ["non-ASCII", "clé"],
    ])("%s key: 400, nothing changed", async (_name, key) => {
      const attempt = await startedAttempt();
      const deadline = await deadlineOf(attempt.attemptId);
      const response = await extend(attempt.attemptId, { seconds: 60, reason: "wifi down" }, undefined, key);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringMatching(/Idempotency-Key/),
      });
      expect(await deadlineOf(attempt.attemptId)).toBe(deadline);
    });
  });

  it("a submitted attempt: 409 ALREADY_SUBMITTED with the submission id, nothing written", async () => {
    const attempt = await startedAttempt();
    const submitted = await submit(attempt, { deviceId: "laptop", answers: [] }, randomUUID());
    const deadline = await deadlineOf(attempt.attemptId);
    const response = await extend(attempt.attemptId, { seconds: 60, reason: "too late" });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: "ALREADY_SUBMITTED",
      details: { submissionId: submitted.body.submissionId },
    });
    expect(await deadlineOf(attempt.attemptId)).toBe(deadline);
    expect(await extraOf(attempt.enrollmentId)).toBe(0);
    expect(await db.timeExtension.count({ where: { enrollmentId: attempt.enrollmentId } })).toBe(0);
  });

  it("an attempt past deadline + grace not yet swept: auto-submitted now, as submit would, and 409", async () => {
    const attempt = await startedAttempt({ graceSeconds: 0 });
    await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 10_000) } });
    const response = await extend(attempt.attemptId, { seconds: 600, reason: "too late" });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe("ALREADY_SUBMITTED");
    expect(await db.submission.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } })).toMatchObject({
      source: "auto",
      id: response.body.error.details.submissionId,
    });
    expect(await db.timeExtension.count({ where: { enrollmentId: attempt.enrollmentId } })).toBe(0);
  });

  it("the enrollment id of a candidate who has not started: the time waits in extra_seconds and counts at start", async () => {
    const exam = await createExam({ durationSeconds: 1800 });
    const [candidate] = await enroll(exam.id);
    const response = await extend(candidate!.id, { seconds: 900, reason: "accessibility arrangement" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      enrollmentId: candidate!.id,
      attemptId: null,
      previousDeadline: null,
      deadline: null,
      outcome: "pending_start",
      seconds: 900,
    });
    expect(await extraOf(candidate!.id)).toBe(900);

    const cookie = await join(candidate!.joinToken);
    const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    expect(started.status).toBe(201);
    const startedAt = (
      await db.attempt.findUniqueOrThrow({ where: { id: started.body.attemptId } })
    ).startedAt.getTime();
    expect(Date.parse(started.body.deadline)).toBe(startedAt + (1800 + 900) * 1000);
  });

  it("an extension racing the candidate's start is never lost: the deadline counts it either way", async () => {
    for (let round = 0; round < 4; round += 1) {
      const exam = await createExam({ durationSeconds: 1800 });
      const [candidate] = await enroll(exam.id);
      const cookie = await join(candidate!.joinToken);
      const [extended, started] = await Promise.all([
        extend(candidate!.id, { seconds: 600, reason: "late bus" }),
        call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie }),
      ]);
      expect(extended.status).toBe(200);
      expect(started.status).toBe(201);
      const attempt = await db.attempt.findUniqueOrThrow({ where: { id: started.body.attemptId } });
      expect(attempt.deadline.getTime()).toBe(attempt.startedAt.getTime() + (1800 + 600) * 1000);
      expect(await extraOf(candidate!.id)).toBe(600);
    }
  });

  it("an extension racing the auto-submit sweeper: either the attempt is extended and stays open, or it was submitted and the extension is refused", async () => {
    for (let round = 0; round < 6; round += 1) {
      const attempt = await startedAttempt({ graceSeconds: 0 });
      // Just overdue: the sweeper would freeze it, unless the extension moves the deadline first.
      await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 50) } });
      // Both ways the sweeper reaches an attempt: one by id, and the sweep of all (SKIP LOCKED, re-checked on the moved row).
      const sweep = round % 2 === 0 ? autoSubmitAttempt(attempt.attemptId) : autoSubmitOverdue().then(() => null);
      const [extended, swept] = await Promise.all([extend(attempt.attemptId, { seconds: 600, reason: "race" }), sweep]);
      const stored = await db.attempt.findUniqueOrThrow({
        where: { id: attempt.attemptId },
        include: { submission: true },
      });
      if (extended.status === 200) {
        // An overdue attempt is frozen by whichever locks it first; the extension only ever wins if the
        // sweeper found it already moved.
        expect(stored.status).toBe("in_progress");
        expect(swept).toBeNull();
      } else {
        expect(extended.status).toBe(409);
        expect(stored.status).toBe("submitted");
        expect(stored.submission).not.toBeNull();
        expect(await db.timeExtension.count({ where: { enrollmentId: attempt.enrollmentId } })).toBe(0);
      }
    }
  });

  describe("the auto-submit sweeper reads the deadline under the row lock", () => {
    it("the sweeper freezing first: an extension waits for the row, then finds it submitted (409), nothing extended", async () => {
      const attempt = await startedAttempt({ graceSeconds: 0 });
      await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 1_000) } });
      let extension: ReturnType<typeof extend> | null = null;
      let settledEarly = false;
      await withLockedAttempt(attempt.attemptId, async (_tx, locked) => {
        // What autoSubmitAttempt does (the overdue attempt, locked, is frozen), held open while the proctor's request arrives.
        expect(locked).toMatchObject({ status: "submitted", isAutoSubmitted: true });
        extension = extend(attempt.attemptId, { seconds: 600, reason: "too late" });
        void extension.then(() => (settledEarly = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      expect(settledEarly).toBe(false);
      const response = await extension!;
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe("ALREADY_SUBMITTED");
      expect(await extraOf(attempt.enrollmentId)).toBe(0);
    });

    it("the extension first: the sweep skips the locked row, and once the extension commits the attempt is no longer due", async () => {
      const attempt = await startedAttempt({ graceSeconds: 0 });
      await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 1_000) } });
      await db.$transaction(async (tx) => {
        // What extendCandidate does under the row lock, held open while the sweepers run.
        await tx.$queryRaw`SELECT id FROM attempts WHERE id = ${attempt.attemptId}::uuid FOR UPDATE`;
        await tx.$executeRaw`UPDATE attempts SET deadline = deadline + make_interval(secs => 600) WHERE id = ${attempt.attemptId}::uuid`;
        await autoSubmitOverdue();
        expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(0);
      });
      // The per-attempt path judges "overdue" after taking the lock, on the moved deadline.
      expect(await autoSubmitAttempt(attempt.attemptId)).toBeNull();
      await autoSubmitOverdue();
      expect(await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } })).toMatchObject({
        status: "in_progress",
      });
    });
  });

  describe("scope and bad input", () => {
    it("an unassigned proctor, another exam's proctor, an unknown id: 404, nothing changed; the assigned proctor and an admin may", async () => {
      const attempt = await startedAttempt();
      const other = await startedAttempt();
      const unassigned = await createStaff("proctor");
      const unassignedCookie = await signIn(unassigned.email, unassigned.password);
      const otherCookie = await proctorFor(other);
      const admin = await createStaff("admin");
      const adminCookie = await signIn(admin.email, admin.password);
      const deadline = await deadlineOf(attempt.attemptId);
      const body = { seconds: 60, reason: "wifi down" };

      const refused = await Promise.all([
        extend(attempt.attemptId, body, { cookie: unassignedCookie }),
        extend(attempt.attemptId, body, { cookie: otherCookie }),
        extend(attempt.enrollmentId, body, { cookie: otherCookie }),
        extend(randomUUID(), body),
        call(extendRoute, { params: { attemptId: "not-a-uuid" }, json: body, bearer: adminToken() }),
        // Whatever the body: the scope is checked before the fields.
        extend(attempt.attemptId, { seconds: -1 }, { cookie: otherCookie }),
        extend(attempt.attemptId, {}, { cookie: unassignedCookie }),
      ]);
      for (const response of refused) {
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe("NOT_FOUND");
      }
      expect(await deadlineOf(attempt.attemptId)).toBe(deadline);
      expect(await db.timeExtension.count({ where: { enrollmentId: attempt.enrollmentId } })).toBe(0);

      expect((await extend(attempt.attemptId, body, { cookie: await proctorFor(attempt) })).status).toBe(200);
      expect((await extend(attempt.attemptId, body, { cookie: adminCookie })).status).toBe(200);
    });

    it("401 without a session or with a wrong token; a candidate's session is not a proctor's", async () => {
      const attempt = await startedAttempt();
      const body = { seconds: 60, reason: "wifi down" };
      expect((await extend(attempt.attemptId, body, {})).status).toBe(401);
      expect((await extend(attempt.attemptId, body, { bearer: "wrong" })).status).toBe(401);
      expect((await extend(attempt.attemptId, body, { cookie: attempt.cookie })).status).toBe(401);
    });

    it.each([
      ["no body", undefined, "(body)"],
      ["seconds missing", { reason: "wifi down" }, "seconds"],
      ["seconds too small", { seconds: 59, reason: "wifi down" }, "seconds"],
      ["seconds not whole", { seconds: 60.5, reason: "wifi down" }, "seconds"],
      ["seconds over a day", { seconds: 86_401, reason: "wifi down" }, "seconds"],
      ["seconds as text", { seconds: "600", reason: "wifi down" }, "seconds"],
      ["reason too short", { seconds: 60, reason: "  x " }, "reason"],
      ["reason too long", { seconds: 60, reason: "x".repeat(501) }, "reason"],
      ["reason with a NUL", { seconds: 60, reason: "wifi\u0000down" }, "reason"],
    ])("%s: 422 naming the field (or 400 without a body), nothing changed", async (_name, body, path) => {
      const attempt = await startedAttempt();
      const deadline = await deadlineOf(attempt.attemptId);
      const response = await call(extendRoute, {
        method: "POST",
        params: { attemptId: attempt.attemptId },
        json: body,
        bearer: adminToken(),
      });
      if (body === undefined) {
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe("BAD_REQUEST");
      } else {
        expect(response.status).toBe(422);
        expect(response.body.error.code).toBe("VALIDATION_FAILED");
        expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
      }
      expect(await deadlineOf(attempt.attemptId)).toBe(deadline);
    });

    it("405 with Allow on other methods", async () => {
      const response = GET();
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect((await response.json()).error.code).toBe("METHOD_NOT_ALLOWED");
    });
  });
});
