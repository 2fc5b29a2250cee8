// The submit queue through route() (issue 38): a deadline storm of 3,000 submits against a worker saturated on purpose
// (admission bounds far below the storm, so autosaves are shed meanwhile) — every submit is taken in its turn and
// none refused, one submission each; and the refusal when the queue cannot serve a submit before its attempt's
// deadline + grace: 503 OVERLOADED with the queue's expected wait as Retry-After, and nothing changed.
import { randomUUID } from "node:crypto";

import { afterAll, afterEach, describe, expect, it } from "vitest";

import { sha256Hex } from "@/lib/server/crypto";
import { db } from "@/lib/server/db/client";
import { queryRows, sql } from "@/lib/server/db/sql";
import { autosave, startedAttempt, submit } from "@/test-support/server/attempts";
import { createExam } from "@/test-support/server/fixtures";
import { SESSION_COOKIES } from "@/lib/server/auth/cookies";

import { getResilienceMetrics } from "../metrics/resilience-metrics";
import { createAdmissionController, setAdmission } from "./admission";

const STORM = 3_000;

afterEach(() => setAdmission(null));
afterAll(() => setAdmission(null));

/** `count` candidates of one exam with started attempts and live sessions, seeded in SQL (the API would take minutes). */
async function seedCandidates(examId: string, count: number) {
  const tokens = Array.from({ length: count }, () => randomUUID().replaceAll("-", "") + randomUUID());
  const enrollments = await queryRows<{ id: string; n: number }>(sql`
    INSERT INTO enrollments (id, exam_id, name, email, join_token_hash)
    SELECT gen_random_uuid(), ${examId}::uuid, 'Storm ' || n, 'storm' || n || '-' || ${examId} || '@example.test',
           md5(random()::text) || n
    FROM generate_series(1, ${count}::int) n
    RETURNING id::text AS id, substring(name from 7)::int AS n`);
  enrollments.sort((a, b) => a.n - b.n);
  const ids = enrollments.map((row) => row.id);
  await queryRows(sql`
    INSERT INTO sessions (id, token_hash, kind, enrollment_id, expires_at)
    SELECT gen_random_uuid(), t.hash, 'candidate', t.enrollment_id::uuid, now() + interval '1 hour'
    FROM unnest(${tokens.map((token) => sha256Hex(token))}::text[], ${ids}::text[]) AS t(hash, enrollment_id)`);
  const attempts = await queryRows<{ id: string; enrollment_id: string }>(sql`
    INSERT INTO attempts (id, enrollment_id, exam_id, status, started_at, deadline)
    SELECT gen_random_uuid(), e::uuid, ${examId}::uuid, 'in_progress', now(), now() + interval '1 hour'
    FROM unnest(${ids}::text[]) AS e
    RETURNING id::text AS id, enrollment_id::text AS enrollment_id`);
  const attemptOf = new Map(attempts.map((row) => [row.enrollment_id, row.id]));
  return ids.map((id, i) => ({
    attemptId: attemptOf.get(id)!,
    cookie: `${SESSION_COOKIES.candidate}=${tokens[i]}`,
  }));
}

async function refused(reason: "late" | "full") {
  const values = (await getResilienceMetrics().submitQueueRefused.get()).values;
  return values.find((value) => value.labels.reason === reason)?.value ?? 0;
}

describe("the submit queue in a deadline storm", () => {
  it("takes 3,000 submits against a saturated worker in turn: none refused, one submission each, autosaves shed meanwhile", async () => {
    const exam = await createExam();
    const question = exam.questions[2]!.id;
    const candidates = await seedCandidates(exam.id, STORM);
    // A candidate of another exam, whose autosave during the storm shows whether the worker sheds load.
    const probe = await startedAttempt();

    // Every candidate has autosaved (admission off, as in the other tests), so this process knows each attempt's
    // deadline + grace: the queue checks every submit against it.
    const saved = await Promise.all(
      candidates.map((candidate) =>
        autosave(candidate, { deviceId: "laptop", answers: [{ questionId: question, value: "draft", version: 1 }] }),
      ),
    );
    expect(saved.filter((response) => response.status !== 200)).toEqual([]);

    // Saturated on purpose: 16 requests in flight and 50 ms of event-loop delay are the bounds, and 3,000 arrive at once.
    const controller = createAdmissionController(
      { maxInFlight: 16, maxEventLoopDelayMs: 50 },
      { places: 8, maxWaiting: 20_000 },
    );
    setAdmission(controller);
    const refusedBefore = (await refused("late")) + (await refused("full"));

    const keys = candidates.map(() => randomUUID());
    const storm = candidates.map((candidate, i) =>
      submit(
        candidate,
        { deviceId: "laptop", answers: [{ questionId: question, value: `final ${i}`, version: 2 }] },
        keys[i],
      ),
    );
    // While the storm waits its turn, an autosave is shed (503): the worker is saturated.
    let sawQueue = false;
    for (let i = 0; i < 200 && !sawQueue; i += 1) {
      sawQueue = controller.submitQueue().waiting > 0;
      if (!sawQueue) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(sawQueue).toBe(true);
    const shed = await autosave(probe, {
      deviceId: "laptop",
      answers: [{ questionId: probe.questions[2]!.id, value: "probe", version: 1 }],
    });
    expect(shed.status).toBe(503);

    const responses = await Promise.all(storm);
    const statuses = new Map<number, number>();
    for (const response of responses) statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ 200: STORM });
    expect((await refused("late")) + (await refused("full")) - refusedBefore).toBe(0);

    const [row] = await queryRows<{ submissions: number; frozen: number }>(sql`
      SELECT count(*)::int AS submissions, count(*) FILTER (WHERE a.status = 'submitted')::int AS frozen
      FROM submissions s JOIN attempts a ON a.id = s.attempt_id WHERE a.exam_id = ${exam.id}::uuid`);
    expect(row).toEqual({ submissions: STORM, frozen: STORM });
    // Each submit froze its own final answer.
    const frozen = await db.answer.findMany({
      where: { attempt: { examId: exam.id }, questionId: question },
      select: { attemptId: true, value: true, version: true },
    });
    const finalOf = new Map(candidates.map((candidate, i) => [candidate.attemptId, `final ${i}`]));
    expect(frozen).toHaveLength(STORM);
    expect(frozen.filter((answer) => answer.version !== 2 || answer.value !== finalOf.get(answer.attemptId))).toEqual(
      [],
    );
    // Once the storm has passed, the queue is empty and autosaves are admitted again.
    expect(controller.submitQueue()).toMatchObject({ working: 0, waiting: 0 });
    expect(controller.load().inFlight).toBe(0);
    await db.exam.delete({ where: { id: exam.id } });
  }, 180_000);

  it("refuses a submit whose turn would come after its deadline + grace, with the queue's wait as Retry-After, and changes nothing", async () => {
    // One place, held by a long submit: a submit in line waits the time a submit has been taking (30 s here).
    const controller = createAdmissionController(
      { maxInFlight: 0, maxEventLoopDelayMs: 0 },
      { places: 1, maxWaiting: 20_000, initialServiceMs: 30_000 },
    );
    setAdmission(controller);
    const closing = await startedAttempt({ graceSeconds: 0 });
    const open = await startedAttempt();
    // The closing attempt's deadline is 10 s away; this process learns it from its autosave.
    await queryRows(
      sql`UPDATE attempts SET deadline = now() + interval '10 seconds' WHERE id = ${closing.attemptId}::uuid`,
    );
    const edit = (attempt: typeof closing, value: string) => ({
      deviceId: "laptop",
      answers: [{ questionId: attempt.questions[2]!.id, value, version: 1 }],
    });
    expect((await autosave(closing, edit(closing, "draft"))).status).toBe(200);
    expect((await autosave(open, edit(open, "draft"))).status).toBe(200);

    let finishLong!: () => void;
    const long = controller.runSubmit(() => new Promise<void>((done) => (finishLong = done)));
    await new Promise((resolve) => setImmediate(resolve));
    const lateBefore = await refused("late");

    const late = await submit(closing, { deviceId: "laptop", answers: [] }, randomUUID());
    expect(late.status).toBe(503);
    expect(late.headers.get("retry-after")).toBe("30");
    expect(late.body).toMatchObject({ error: { code: "OVERLOADED", details: { retryAfterSeconds: 30 } } });
    expect((await refused("late")) - lateBefore).toBe(1);
    const untouched = await db.attempt.findUniqueOrThrow({
      where: { id: closing.attemptId },
      select: { status: true, submission: true },
    });
    expect(untouched).toEqual({ status: "in_progress", submission: null });

    // An attempt an hour from its deadline waits its turn in the same line, and is submitted once the place frees.
    const inLine = submit(open, { deviceId: "laptop", answers: [] }, randomUUID());
    for (let i = 0; i < 200 && controller.submitQueue().waiting === 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(controller.submitQueue()).toMatchObject({ working: 1, waiting: 1 });
    finishLong();
    await long;
    expect((await inLine).status).toBe(200);
    expect((await refused("late")) - lateBefore).toBe(1);
  }, 60_000);
});
