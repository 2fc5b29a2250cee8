// Pause and resume (ADR 016), raced for real: two app instances in their own processes, a second database
// connection that holds row locks to force each order against the sweeper and a submit, and ten parallel
// requests with one Idempotency-Key. Every time that matters is read back from the database's own rows.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as pauseRoute } from "@/app/api/proctor/exams/[examId]/pause/route";
import { POST as resumeRoute } from "@/app/api/proctor/exams/[examId]/resume/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { GET as candidatesRoute } from "@/app/api/proctor/exams/[examId]/candidates/route";
import { autoSubmitAttempt, autoSubmitOverdue } from "@/lib/server/attempts/auto-submit";
import { db } from "@/lib/server/db/client";
import { autosave, submit } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, enroll, join, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

type Auth = { bearer?: string; cookie?: string };

function pause(examId: string, body: unknown, options: { auth?: Auth; key?: string } = {}) {
  return call(pauseRoute, {
    params: { examId },
    json: body,
    ...(options.auth ?? { bearer: adminToken() }),
    headers: options.key === undefined ? {} : { "idempotency-key": options.key },
  });
}

function resume(examId: string, body: unknown, options: { auth?: Auth; key?: string } = {}) {
  return call(resumeRoute, {
    params: { examId },
    json: body,
    ...(options.auth ?? { bearer: adminToken() }),
    headers: options.key === undefined ? {} : { "idempotency-key": options.key },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An exam (grace as given) with `count` candidates who have started; attempts sorted by id. */
async function runningExam(count: number, overrides: Record<string, unknown> = {}) {
  const exam = await createExam({ durationSeconds: 1800, ...overrides });
  const candidates = await enroll(exam.id, count);
  const attempts = [];
  for (const candidate of candidates) {
    const cookie = await join(candidate.joinToken);
    const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    attempts.push({ attemptId: started.body.attemptId as string, enrollmentId: candidate.id, cookie });
  }
  attempts.sort((a, b) => (a.attemptId < b.attemptId ? -1 : 1));
  return { exam, candidates, attempts };
}

async function attemptRow(attemptId: string) {
  return db.attempt.findUniqueOrThrow({
    where: { id: attemptId },
    select: {
      status: true,
      deadline: true,
      pausedAt: true,
      pauseReason: true,
      submission: { select: { source: true } },
    },
  });
}

/** Another database connection that holds a row lock until released: forces the order of a race. */
async function holdLock(statement: string, id: string): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query("BEGIN");
  await client.query(statement, [id]);
  return {
    release: async () => {
      await client.query("COMMIT");
      await client.end();
    },
  };
}

/** Resolves `promise` and says whether it had already settled after `ms` (a request blocked on a lock has not). */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let isSettled = false;
  void promise.then(
    () => (isSettled = true),
    () => (isSettled = true),
  );
  await sleep(ms);
  return isSettled;
}

describe("pause and resume across two app instances", () => {
  const instances: { process: ChildProcess; baseURL: string }[] = [];

  beforeAll(async () => {
    for (let index = 0; index < 2; index += 1) {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "--conditions=react-server", "test-support/server/pause-instance.ts"],
        { env: process.env, stdio: ["ignore", "pipe", "inherit"] },
      );
      const port = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`instance exited with ${code}`)));
      });
      instances.push({ process: child, baseURL: `http://127.0.0.1:${port}` });
    }
  }, 60_000);

  afterAll(() => {
    for (const instance of instances) instance.process.kill();
  });

  async function post(instance: number, path: string, body: unknown) {
    const response = await fetch(`${instances[instance]!.baseURL}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${adminToken()}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("gives every attempt back exactly the paused time, to the millisecond, by the database's clock", async () => {
    const { exam, attempts } = await runningExam(2);
    await enroll(exam.id, 1);
    const before = await Promise.all(attempts.map((attempt) => attemptRow(attempt.attemptId)));

    const paused = await post(0, `/api/proctor/exams/${exam.id}/pause`, { reason: "Fire alarm" });
    expect(paused).toMatchObject({ status: 200, body: { action: "pause", attempts: 2, enrollmentIds: null } });
    for (const attempt of attempts) {
      expect(await attemptRow(attempt.attemptId)).toMatchObject({
        pausedAt: new Date(paused.body.pausedAt as string),
        pauseReason: "Fire alarm",
        status: "in_progress",
      });
    }
    expect(await db.exam.findUniqueOrThrow({ where: { id: exam.id }, select: { pausedAt: true } })).toEqual({
      pausedAt: new Date(paused.body.pausedAt as string),
    });

    await sleep(1_234);
    const resumed = await post(1, `/api/proctor/exams/${exam.id}/resume`, {});
    expect(resumed).toMatchObject({ status: 200, body: { action: "resume", attempts: 2, enrollmentIds: null } });

    const rows = await db.examPause.findMany({ where: { examId: exam.id }, orderBy: { at: "asc" } });
    expect(rows.map((row) => [row.action, row.affected, row.actorLabel])).toEqual([
      ["pause", 2, "API token"],
      ["resume", 2, "API token"],
    ]);
    const pausedMs = rows[1]!.at.getTime() - rows[0]!.at.getTime();
    expect(pausedMs).toBeGreaterThanOrEqual(1_234);
    expect(new Date(resumed.body.resumedAt as string)).toEqual(rows[1]!.at);
    for (const [index, attempt] of attempts.entries()) {
      const after = await attemptRow(attempt.attemptId);
      expect(after.deadline.getTime() - before[index]!.deadline.getTime()).toBe(pausedMs);
      expect(after).toMatchObject({ pausedAt: null, pauseReason: null, status: "in_progress" });
    }
    expect(await db.exam.findUniqueOrThrow({ where: { id: exam.id }, select: { pausedAt: true } })).toEqual({
      pausedAt: null,
    });
    const audit = await db.auditEvent.findMany({
      where: { examId: exam.id, action: { in: ["exam.paused", "exam.resumed"] } },
      orderBy: { at: "asc" },
    });
    expect(
      audit.map((entry) => [entry.action, entry.actorType, (entry.data as { attempts: number }).attempts]),
    ).toEqual([
      ["exam.paused", "api-token", 2],
      ["exam.resumed", "api-token", 2],
    ]);
    expect(audit[0]!.data).toMatchObject({ reason: "Fire alarm", scope: "exam", enrollmentIds: null });
  });

  it("pauses and resumes a selection only, through either instance", async () => {
    const { exam, attempts } = await runningExam(3);
    const [chosen, other] = [attempts[0]!, attempts[1]!];
    const before = await attemptRow(chosen.attemptId);
    const paused = await post(1, `/api/proctor/exams/${exam.id}/pause`, {
      reason: "Power cut in room 2",
      enrollmentIds: [chosen.enrollmentId.toUpperCase(), chosen.enrollmentId],
    });
    expect(paused).toMatchObject({ status: 200, body: { attempts: 1, enrollmentIds: [chosen.enrollmentId] } });
    expect((await attemptRow(other.attemptId)).pausedAt).toBeNull();
    expect((await db.exam.findUniqueOrThrow({ where: { id: exam.id } })).pausedAt).toBeNull();

    await sleep(321);
    const resumed = await post(0, `/api/proctor/exams/${exam.id}/resume`, { enrollmentIds: [chosen.enrollmentId] });
    expect(resumed).toMatchObject({ status: 200, body: { attempts: 1 } });
    const after = await attemptRow(chosen.attemptId);
    expect(after.deadline.getTime() - before.deadline.getTime()).toBe(
      Date.parse(resumed.body.resumedAt as string) - Date.parse(paused.body.pausedAt as string),
    );
  });
});

describe("pause: the whole exam's state", () => {
  it("a candidate who starts during a whole-exam pause starts paused, and resuming gives them their whole time", async () => {
    const exam = await createExam({ durationSeconds: 1200 });
    const [candidate] = await enroll(exam.id, 1);
    expect((await pause(exam.id, { reason: "Late start for everyone" })).body).toMatchObject({ attempts: 0 });

    const cookie = await join(candidate!.joinToken);
    const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ pausedAt: started.body.startedAt, pauseReason: "Late start for everyone" });

    await sleep(300);
    const resumed = await resume(exam.id, {});
    expect(resumed.body).toMatchObject({ attempts: 1 });
    const row = await attemptRow(started.body.attemptId as string);
    expect(row.deadline.getTime() - Date.parse(resumed.body.resumedAt as string)).toBe(1_200_000);
  });

  it("pausing what is paused and resuming what runs change nothing and answer attempts: 0", async () => {
    const { exam, attempts } = await runningExam(1);
    const first = await pause(exam.id, { reason: "Fire alarm" });
    const second = await pause(exam.id, { reason: "Still the fire alarm" });
    expect(second).toMatchObject({ status: 200, body: { action: "pause", attempts: 0 } });
    const examRow = await db.exam.findUniqueOrThrow({ where: { id: exam.id } });
    expect(examRow).toMatchObject({ pausedAt: new Date(first.body.pausedAt as string), pauseReason: "Fire alarm" });
    expect((await attemptRow(attempts[0]!.attemptId)).pauseReason).toBe("Fire alarm");

    expect((await resume(exam.id, {})).body).toMatchObject({ attempts: 1 });
    const deadline = (await attemptRow(attempts[0]!.attemptId)).deadline;
    expect(await resume(exam.id, {})).toMatchObject({ status: 200, body: { action: "resume", attempts: 0 } });
    expect((await attemptRow(attempts[0]!.attemptId)).deadline).toEqual(deadline);
  });
});

describe("pause on the dashboard's snapshot", () => {
  it("shows the exam's pause and each paused candidate with their time left frozen at deadline − pausedAt", async () => {
    const { exam, attempts } = await runningExam(1);
    const paused = await pause(exam.id, { reason: "Fire alarm" });
    const row = await attemptRow(attempts[0]!.attemptId);
    await sleep(1_100);
    const snapshot = await call(candidatesRoute, { params: { examId: exam.id }, bearer: adminToken() });
    expect(snapshot.status).toBe(200);
    expect(snapshot.body.examPause).toEqual({ pausedAt: Date.parse(paused.body.pausedAt), reason: "Fire alarm" });
    const [candidate] = snapshot.body.candidates;
    expect(candidate).toMatchObject({ pausedAt: Date.parse(paused.body.pausedAt), pauseReason: "Fire alarm" });
    expect(candidate.status.timeLeftMs).toBe(row.deadline.getTime() - Date.parse(paused.body.pausedAt));

    await resume(exam.id, {});
    const after = await call(candidatesRoute, { params: { examId: exam.id }, bearer: adminToken() });
    expect(after.body.examPause).toBeNull();
    expect(after.body.candidates[0]).toMatchObject({ pausedAt: null, pauseReason: null });
  });
});

describe("pause racing the deadline sweeper and a submit", () => {
  it("a paused attempt past deadline + grace is never auto-submitted, keeps syncing, and gets its time back", async () => {
    const { exam, attempts } = await runningExam(1, { graceSeconds: 0 });
    const attempt = attempts[0]!;
    await pause(exam.id, { reason: "Fire alarm" });
    // One second was left when the pause took effect.
    await db.$executeRaw`UPDATE attempts SET deadline = paused_at + interval '1 second' WHERE id = ${attempt.attemptId}::uuid`;
    await sleep(1_300);

    await autoSubmitOverdue();
    expect(await autoSubmitAttempt(attempt.attemptId)).toBeNull();
    expect((await attemptRow(attempt.attemptId)).status).toBe("in_progress");
    const questionId = (await db.question.findFirstOrThrow({ where: { examId: exam.id, type: "essay" } })).id;
    const saved = await autosave(attempt, {
      deviceId: "laptop",
      answers: [{ questionId, value: "typed before the alarm", version: 1 }],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.results).toEqual([{ questionId, status: "applied", version: 1 }]);

    const resumed = await resume(exam.id, {});
    expect((await attemptRow(attempt.attemptId)).deadline.getTime()).toBe(
      Date.parse(resumed.body.resumedAt as string) + 1_000,
    );
    await autoSubmitOverdue();
    expect((await attemptRow(attempt.attemptId)).status).toBe("in_progress");
    await sleep(1_200);
    await autoSubmitOverdue();
    expect(await attemptRow(attempt.attemptId)).toMatchObject({ status: "submitted", submission: { source: "auto" } });
  });

  it("sweeper first: the deadline passed before the pause got the exam, so the sweeper submits and the pause counts 0", async () => {
    const { exam, attempts } = await runningExam(1, { graceSeconds: 0 });
    const attempt = attempts[0]!;
    await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 5_000) } });
    const holder = await holdLock("SELECT id FROM exams WHERE id = $1::uuid FOR NO KEY UPDATE", exam.id);
    const paused = pause(exam.id, { reason: "Fire alarm" });
    expect(await settledWithin(paused, 300)).toBe(false);

    await autoSubmitOverdue();
    expect(await attemptRow(attempt.attemptId)).toMatchObject({ status: "submitted", submission: { source: "auto" } });
    await holder.release();
    expect((await paused).body).toMatchObject({ attempts: 0 });
    expect(await attemptRow(attempt.attemptId)).toMatchObject({ status: "submitted", pausedAt: null });
    expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
  });

  it("pause first: the sweeper skips the attempt the pause holds, and never submits it once paused", async () => {
    const { exam, attempts } = await runningExam(2, { graceSeconds: 0 });
    const [first, second] = [attempts[0]!, attempts[1]!];
    await db.$executeRaw`UPDATE attempts SET deadline = clock_timestamp() + interval '2.5 seconds' WHERE id = ${first.attemptId}::uuid`;
    const before = await attemptRow(first.attemptId);
    // The pause locks `first` (ids in order), then waits for `second`, held here.
    const holder = await holdLock("SELECT id FROM attempts WHERE id = $1::uuid FOR UPDATE", second.attemptId);
    const paused = pause(exam.id, { reason: "Fire alarm" });
    expect(await settledWithin(paused, 300)).toBe(false);
    await autoSubmitOverdue();
    await holder.release();
    const response = await paused;
    expect(response.body).toMatchObject({ attempts: 2 });

    await sleep(2_600);
    await autoSubmitOverdue();
    expect(await autoSubmitAttempt(first.attemptId)).toBeNull();
    expect((await attemptRow(first.attemptId)).status).toBe("in_progress");

    const resumed = await resume(exam.id, {});
    const after = await attemptRow(first.attemptId);
    expect(after.deadline.getTime() - Date.parse(resumed.body.resumedAt as string)).toBe(
      before.deadline.getTime() - Date.parse(response.body.pausedAt as string),
    );
  });

  it("a deadline that passes while the pause waits for another row is the sweeper's: auto-submitted, not paused", async () => {
    const { exam, attempts } = await runningExam(2, { graceSeconds: 0 });
    const [first, second] = [attempts[0]!, attempts[1]!];
    await db.$executeRaw`UPDATE attempts SET deadline = clock_timestamp() + interval '0.4 seconds' WHERE id = ${first.attemptId}::uuid`;
    const holder = await holdLock("SELECT id FROM attempts WHERE id = $1::uuid FOR UPDATE", second.attemptId);
    const paused = pause(exam.id, { reason: "Fire alarm" });
    await sleep(800);
    await holder.release();
    expect((await paused).body).toMatchObject({ attempts: 1 });
    expect(await attemptRow(first.attemptId)).toMatchObject({ status: "submitted", submission: { source: "auto" } });
    expect((await attemptRow(second.attemptId)).pausedAt).not.toBeNull();
  });

  it("submit first: the pause waits for the exam, then finds the attempt handed in", async () => {
    const { exam, attempts } = await runningExam(1);
    const attempt = attempts[0]!;
    const holder = await holdLock("SELECT id FROM exams WHERE id = $1::uuid FOR NO KEY UPDATE", exam.id);
    const paused = pause(exam.id, { reason: "Fire alarm" });
    expect(await settledWithin(paused, 300)).toBe(false);
    expect((await submit(attempt, { deviceId: "laptop", answers: [] }, randomUUID())).status).toBe(200);
    await holder.release();
    expect((await paused).body).toMatchObject({ attempts: 0 });
    expect(await attemptRow(attempt.attemptId)).toMatchObject({ status: "submitted", pausedAt: null });
  });

  it("pause first: a submit waits for the pause, then succeeds once while paused", async () => {
    const { exam, attempts } = await runningExam(2);
    const [first, second] = [attempts[0]!, attempts[1]!];
    const holder = await holdLock("SELECT id FROM attempts WHERE id = $1::uuid FOR UPDATE", second.attemptId);
    const paused = pause(exam.id, { reason: "Fire alarm" });
    expect(await settledWithin(paused, 300)).toBe(false);
    const key = randomUUID();
    const submitted = submit(first, { deviceId: "laptop", answers: [] }, key);
    expect(await settledWithin(submitted, 300)).toBe(false);
    await holder.release();
    expect((await paused).body).toMatchObject({ attempts: 2 });
    expect((await submitted).status).toBe(200);
    const replay = await submit(first, { deviceId: "laptop", answers: [] }, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await db.submission.count({ where: { attemptId: first.attemptId } })).toBe(1);
    expect(await attemptRow(first.attemptId)).toMatchObject({ status: "submitted", pausedAt: null, pauseReason: null });
    expect((await resume(exam.id, {})).body).toMatchObject({ attempts: 1 });
  });
});

describe("idempotency", () => {
  it.each([
    ["the whole exam", false],
    ["a selection", true],
  ])("10 parallel pauses of %s with one key pause once and answer the same", async (_label, isSelection) => {
    const { exam, attempts } = await runningExam(2);
    const key = randomUUID();
    const body = {
      reason: "Fire alarm",
      ...(isSelection ? { enrollmentIds: attempts.map((attempt) => attempt.enrollmentId) } : {}),
    };
    const responses = await Promise.all(Array.from({ length: 10 }, () => pause(exam.id, body, { key })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(new Set(responses.map((response) => response.text)).size).toBe(1);
    expect(responses.filter((response) => response.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
    expect(responses[0]!.body).toMatchObject({ attempts: 2 });
    expect(await db.examPause.count({ where: { examId: exam.id } })).toBe(1);
    expect(await db.auditEvent.count({ where: { examId: exam.id, action: "exam.paused" } })).toBe(1);

    const reused = await pause(exam.id, { ...body, reason: "Another reason" }, { key });
    expect(reused).toMatchObject({ status: 422, body: { error: { code: "IDEMPOTENCY_KEY_REUSED" } } });
    const asResume = await resume(exam.id, isSelection ? { enrollmentIds: body.enrollmentIds } : {}, { key });
    expect(asResume).toMatchObject({ status: 422, body: { error: { code: "IDEMPOTENCY_KEY_REUSED" } } });
    expect(await db.examPause.count({ where: { examId: exam.id } })).toBe(1);
  });
});

describe("bad input changes nothing", () => {
  it("answers 422 for a bad body, 404 for an unknown exam or an unassigned proctor; an assigned proctor may", async () => {
    const { exam, attempts } = await runningExam(1);
    const other = await runningExam(1);
    const cases: [unknown, number][] = [
      [{}, 422],
      [{ reason: "" }, 422],
      [{ reason: "ok" }, 422],
      [{ reason: "x".repeat(501) }, 422],
      [{ reason: "Fire alarm", enrollmentIds: [] }, 422],
      [{ reason: "Fire alarm", enrollmentIds: ["not-a-uuid"] }, 422],
      [{ reason: "Fire alarm", enrollmentIds: [other.attempts[0]!.enrollmentId] }, 422],
      [{ reason: "Fire alarm", enrolmentIds: [attempts[0]!.enrollmentId] }, 422],
      [{ reason: 42 }, 422],
    ];
    for (const [body, status] of cases) {
      const response = await pause(exam.id, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error.code).toBe("VALIDATION_FAILED");
    }
    expect((await resume(exam.id, { enrollmentIds: "all" })).status).toBe(422);
    expect((await pause(randomUUID(), { reason: "Fire alarm" })).status).toBe(404);
    expect((await resume(randomUUID(), {})).status).toBe(404);

    const proctor = await createStaff("proctor");
    const cookie = await signIn(proctor.email, proctor.password);
    const unassigned = await pause(exam.id, { reason: "Fire alarm" }, { auth: { cookie } });
    expect(unassigned).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect((await pause(exam.id, {}, { auth: { cookie } })).status).toBe(404);

    expect(await db.examPause.count({ where: { examId: exam.id } })).toBe(0);
    expect(await db.attempt.count({ where: { examId: exam.id, pausedAt: { not: null } } })).toBe(0);
    expect(await db.auditEvent.count({ where: { examId: exam.id, action: "exam.paused" } })).toBe(0);

    await db.examProctor.create({ data: { examId: exam.id, staffUserId: proctor.id } });
    const assigned = await pause(exam.id, { reason: "Fire alarm" }, { auth: { cookie } });
    expect(assigned).toMatchObject({ status: 200, body: { attempts: 1 } });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { examId: exam.id, action: "exam.paused" } });
    expect(audit).toMatchObject({ actorType: "staff", actorId: proctor.id });
  });
});
