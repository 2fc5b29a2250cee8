import { randomUUID } from "node:crypto";

import { beforeAll, describe, expect, it } from "vitest";

import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { autoSubmitAttempt } from "@/lib/server/attempts/auto-submit";
import { freezeAttempt } from "@/lib/server/attempts/freeze-attempt";
import { db } from "@/lib/server/db/client";
import { queryRows, sql } from "@/lib/server/db/sql";
import { getRedis } from "@/lib/server/redis/client";
import { redisKeys } from "@/lib/server/redis/keys";
import { autosave, heartbeat, heartbeatBody, submit } from "@/test-support/server/attempts";
import { createExam, enroll, join } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { countCandidates } from "@/lib/shared/proctor/live-status";

import { markDeviceDisconnected } from "./device-presence";
import { loadCandidateFacts } from "./load-candidate-facts";

const beat = heartbeatBody({ storagePersisted: true });

type Started = { enrollmentId: string; attemptId: string; cookie: string };

/** An exam with `count` candidates (named so they sort in order), the first `started` of them started. */
async function examWith(count: number, started: number) {
  const exam = await createExam();
  const candidates = await enroll(exam.id, count);
  const attempts: Started[] = [];
  for (const candidate of candidates.slice(0, started)) {
    const cookie = await join(candidate.joinToken);
    const response = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    if (response.status !== 201) throw new Error(`start: ${response.status} ${response.text}`);
    attempts.push({ enrollmentId: candidate.id, attemptId: response.body.attemptId, cookie });
  }
  return { exam, candidates, attempts };
}

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(client?.status).toBe("ready");
});

describe("loadCandidateFacts", () => {
  it("reads every phase with its answers, submission, late answers and the question count", async () => {
    const { exam, candidates, attempts } = await examWith(5, 4);
    const [running, submitted, autoSubmitted, forced] = attempts as [Started, Started, Started, Started];
    const [single, multiple] = exam.questions as unknown as [{ id: string }, { id: string }];

    expect(
      (
        await autosave(running, {
          deviceId: "laptop",
          answers: [
            { questionId: single.id, value: "a", version: 1 },
            { questionId: multiple.id, value: ["a"], version: 2 },
          ],
        })
      ).status,
    ).toBe(200);
    // A digest that is not the frozen paper's: the proctor is told.
    expect(
      (
        await submit(
          submitted,
          { deviceId: "laptop", answers: [{ questionId: single.id, value: "b", version: 1 }], digest: "0".repeat(64) },
          randomUUID(),
        )
      ).status,
    ).toBe(200);
    await db.attempt.update({
      where: { id: autoSubmitted.attemptId },
      data: { deadline: new Date(Date.now() - 3_600_000) },
    });
    expect(await autoSubmitAttempt(autoSubmitted.attemptId)).not.toBeNull();
    // The autosave of a frozen attempt is kept as a late answer.
    expect(
      (
        await autosave(autoSubmitted, {
          deviceId: "phone",
          answers: [{ questionId: single.id, value: "a", version: 5 }],
        })
      ).status,
    ).toBe(409);
    await db.$transaction((tx) => freezeAttempt(tx, { attemptId: forced.attemptId, source: "proctor" }));

    const facts = await loadCandidateFacts({ examId: exam.id });
    expect(facts.map((candidate) => candidate.enrollmentId)).toEqual(candidates.map((candidate) => candidate.id));
    const byId = new Map(facts.map((candidate) => [candidate.enrollmentId, candidate]));

    const live = byId.get(running.enrollmentId)!;
    expect(live).toMatchObject({
      attemptId: running.attemptId,
      phase: "in_progress",
      answered: 2,
      total: 5,
      revision: 1,
      graceSeconds: 60,
      extraSeconds: 0,
      submittedAt: null,
      submissionSource: null,
      digestMismatch: false,
      lateAnswers: 0,
      lastExtension: null,
    });
    expect(live.startedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(live.deadline).toBe(live.startedAt! + 3_600_000);
    expect(live.lastSaveAt).toBeGreaterThanOrEqual(live.startedAt!);

    expect(byId.get(submitted.enrollmentId)).toMatchObject({
      phase: "submitted",
      submissionSource: "candidate",
      digestMismatch: true,
      answered: 1,
    });
    expect(byId.get(submitted.enrollmentId)!.submittedAt).toBeGreaterThan(0);
    expect(byId.get(autoSubmitted.enrollmentId)).toMatchObject({
      phase: "auto_submitted",
      submissionSource: "auto",
      lateAnswers: 1,
      digestMismatch: false,
    });
    expect(byId.get(forced.enrollmentId)).toMatchObject({ phase: "submitted", submissionSource: "proctor" });
    expect(byId.get(candidates[4]!.id)).toMatchObject({
      attemptId: null,
      phase: "not_started",
      startedAt: null,
      deadline: null,
      answered: 0,
      total: 5,
      lastSaveAt: null,
      devices: [],
    });
    for (const candidate of facts) expect(candidate.observedAt).toBeGreaterThanOrEqual(live.startedAt!);

    const counters = countCandidates(facts, Date.now());
    expect(counters).toMatchObject({ total: 5, notStarted: 1, inProgress: 1, submitted: 3 });
  });

  it("reads only the enrollments asked for, and nothing of another exam", async () => {
    const first = await examWith(3, 0);
    const other = await examWith(1, 0);
    const wanted = [first.candidates[2]!.id, first.candidates[0]!.id, other.candidates[0]!.id, first.candidates[0]!.id];
    const facts = await loadCandidateFacts({ examId: first.exam.id, enrollmentIds: wanted });
    expect(facts.map((candidate) => candidate.enrollmentId).sort()).toEqual(
      [first.candidates[0]!.id, first.candidates[2]!.id].sort(),
    );
    expect(await loadCandidateFacts({ examId: first.exam.id, enrollmentIds: [] })).toEqual([]);
    expect(await loadCandidateFacts({ examId: randomUUID() })).toEqual([]);
  });

  it("prefers a device's live copy in Redis to its Postgres row, newest heartbeat first", async () => {
    const { exam, attempts } = await examWith(1, 1);
    const attempt = attempts[0]!;
    expect((await heartbeat(attempt, { ...beat, deviceId: "phone" })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await heartbeat(attempt, { ...beat, pending: 3, oldestPendingMs: 2_000, clock: 3 })).status).toBe(200);
    // Pending stays non-zero: not a material change, so Postgres keeps the first values.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      (await heartbeat(attempt, { ...beat, pending: 5, oldestPendingMs: 9_000, clock: 5, consecutiveFailures: 0 }))
        .status,
    ).toBe(200);

    const durable = await db.deviceHeartbeat.findUniqueOrThrow({
      where: { attemptId_deviceId: { attemptId: attempt.attemptId, deviceId: "laptop" } },
    });
    expect(durable.pending).toBe(3);

    const [facts] = await loadCandidateFacts({ examId: exam.id });
    expect(facts!.devices.map((device) => device.deviceId)).toEqual(["laptop", "phone"]);
    const laptop = facts!.devices[0]!;
    expect(laptop).toMatchObject({
      online: true,
      pending: 5,
      oldestPendingMs: 9_000,
      storagePersisted: true,
      disconnectedAt: null,
      offlineSince: null,
      deadlineSeen: null,
    });
    expect(laptop.lastHeartbeatAt).toBeGreaterThan(durable.receivedAt.getTime());
    expect(laptop.firstSeenAt).toBe(durable.firstSeenAt.getTime());

    // The live copy gone (expired, or Redis restarted): the Postgres row stands.
    const client = await getRedis();
    await client!.del(redisKeys.heartbeats(attempt.attemptId));
    const [fromPostgres] = await loadCandidateFacts({ examId: exam.id });
    expect(fromPostgres!.devices.find((device) => device.deviceId === "laptop")).toMatchObject({
      pending: 3,
      lastHeartbeatAt: durable.receivedAt.getTime(),
    });
  });

  it("carries presence, the open offline span, the device's deadline and the latest extension", async () => {
    const { exam, attempts } = await examWith(1, 1);
    const attempt = attempts[0]!;
    expect((await heartbeat(attempt, beat)).status).toBe(200);
    const disconnectedAt = Date.now();
    await markDeviceDisconnected(
      { examId: exam.id, enrollmentId: attempt.enrollmentId, attemptId: attempt.attemptId, deviceId: "laptop" },
      disconnectedAt,
    );
    const shownDeadline = new Date(Date.now() + 7_200_000);
    await db.deviceHeartbeat.update({
      where: { attemptId_deviceId: { attemptId: attempt.attemptId, deviceId: "laptop" } },
      data: { deadlineSeen: shownDeadline },
    });
    const base = {
      examId: exam.id,
      enrollmentId: attempt.enrollmentId,
      attemptId: attempt.attemptId,
      reason: "fire alarm",
      actorLabel: "Test proctor",
    };
    await db.timeExtension.create({ data: { ...base, seconds: 300, createdAt: new Date(Date.now() - 60_000) } });
    const latest = await db.timeExtension.create({
      data: {
        ...base,
        seconds: 600,
        newDeadline: shownDeadline,
        acknowledgedAt: new Date(),
        acknowledgedDeviceId: "laptop",
      },
    });

    const [facts] = await loadCandidateFacts({ examId: exam.id });
    // The live copy has no deadline field yet: the Postgres row's stands.
    expect(facts!.devices[0]).toMatchObject({
      disconnectedAt,
      offlineSince: disconnectedAt,
      deadlineSeen: shownDeadline.getTime(),
    });
    expect(facts!.lastExtension).toEqual({
      extensionId: latest.id,
      seconds: 600,
      reason: "fire alarm",
      by: "Test proctor",
      at: latest.createdAt.getTime(),
      deadline: shownDeadline.getTime(),
      acknowledgedAt: latest.acknowledgedAt!.getTime(),
      acknowledgedBy: "laptop",
    });
  });

  it("reads 10,000 candidates in a few statements (timing logged, not asserted)", async () => {
    const exam = await createExam();
    const questionIds = (exam.questions as { id: string }[]).map((question) => question.id);
    const started = Date.now();
    // Seeded in SQL: 10,000 through the API would take minutes. Four in five have started, with two
    // answers each and one heartbeat row; one in ten of those has submitted.
    await queryRows(sql`
      INSERT INTO enrollments (id, exam_id, name, email, join_token_hash)
      SELECT gen_random_uuid(), ${exam.id}::uuid, 'Bench ' || lpad(n::text, 5, '0'), 'bench' || n || '-' || ${exam.id} || '@example.test', md5(random()::text) || n
      FROM generate_series(1, 10000) n`);
    await queryRows(sql`
      INSERT INTO attempts (id, enrollment_id, exam_id, status, started_at, deadline, revision)
      SELECT gen_random_uuid(), e.id, e.exam_id, 'in_progress', now(), now() + interval '1 hour', 2
      FROM enrollments e WHERE e.exam_id = ${exam.id}::uuid AND right(e.name, 1) NOT IN ('0', '5')`);
    await queryRows(sql`
      INSERT INTO answers (id, attempt_id, question_id, value, version, device_id)
      SELECT gen_random_uuid(), a.id, q.id, '"x"'::jsonb, 1, 'laptop'
      FROM attempts a CROSS JOIN unnest(${questionIds.slice(2, 4)}::uuid[]) AS q(id) WHERE a.exam_id = ${exam.id}::uuid`);
    await queryRows(sql`
      INSERT INTO device_heartbeats (attempt_id, device_id, online, pending, oldest_pending_ms, last_ack_revision, clock, consecutive_failures)
      SELECT a.id, 'laptop', true, 0, 0, 2, 2, 0 FROM attempts a WHERE a.exam_id = ${exam.id}::uuid`);
    const seeded = await queryRows<{ id: string }>(sql`
      UPDATE attempts SET status = 'submitted' WHERE exam_id = ${exam.id}::uuid AND id IN (
        SELECT id FROM attempts WHERE exam_id = ${exam.id}::uuid ORDER BY id LIMIT 800) RETURNING id::text AS id`);
    await queryRows(sql`
      INSERT INTO submissions (id, attempt_id, digest, receipt, source)
      SELECT gen_random_uuid(), a.id, 'd', 'r', 'auto' FROM unnest(${seeded.map((row) => row.id)}::uuid[]) AS a(id)`);
    const seedMs = Date.now() - started;

    const timings: number[] = [];
    let facts: Awaited<ReturnType<typeof loadCandidateFacts>> = [];
    for (let run = 0; run < 3; run += 1) {
      const at = performance.now();
      facts = await loadCandidateFacts({ examId: exam.id });
      timings.push(Math.round(performance.now() - at));
    }
    const counters = countCandidates(facts, Date.now());
    console.log(`loadCandidateFacts, 10,000 candidates: ${timings.join(" ms, ")} ms (seeding took ${seedMs} ms)`);

    expect(facts).toHaveLength(10_000);
    expect(counters).toMatchObject({
      total: 10_000,
      notStarted: 2_000,
      inProgress: 7_200,
      submitted: 800,
      online: 7_200,
    });
    const sample = facts.find((candidate) => candidate.phase === "in_progress")!;
    expect(sample).toMatchObject({ answered: 2, total: 5, revision: 2 });
    expect(sample.devices).toHaveLength(1);
    await db.exam.delete({ where: { id: exam.id } });
  }, 120_000);
});
