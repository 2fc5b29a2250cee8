import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { withLockedAttempt } from "@/lib/server/attempts/with-locked-attempt";
import { db } from "@/lib/server/db/client";
import { startedAttempt, submit } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, enroll, join, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { PUT, POST as bulkExtendRoute } from "./route";

function bulkExtend(
  examId: string,
  body: unknown,
  auth: { bearer?: string; cookie?: string } = { bearer: adminToken() },
  key?: string,
) {
  return call(bulkExtendRoute, {
    params: { examId },
    json: body,
    ...auth,
    headers: key === undefined ? {} : { "idempotency-key": key },
  });
}

/** One exam with a running, a submitted and a not-started candidate. */
async function mixedExam() {
  const exam = await createExam({ durationSeconds: 1800 });
  const [running, done, waiting] = await enroll(exam.id, 3);
  const start = async (joinToken: string) => {
    const cookie = await join(joinToken);
    const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    return { attemptId: started.body.attemptId as string, cookie };
  };
  const runningAttempt = await start(running!.joinToken);
  const doneAttempt = await start(done!.joinToken);
  const submitted = await submit(doneAttempt, { deviceId: "laptop", answers: [] }, randomUUID());
  return {
    exam,
    running: running!,
    done: done!,
    waiting: waiting!,
    runningAttempt,
    submissionId: submitted.body.submissionId as string,
  };
}

async function snapshot(examId: string) {
  return {
    enrollments: await db.enrollment.findMany({
      where: { examId },
      select: { id: true, extraSeconds: true },
      orderBy: { id: "asc" },
    }),
    attempts: await db.attempt.findMany({
      where: { examId },
      select: { id: true, deadline: true, status: true },
      orderBy: { id: "asc" },
    }),
    extensions: await db.timeExtension.count({ where: { examId } }),
  };
}

describe("POST /api/proctor/exams/{examId}/extend", () => {
  it("extends the running, queues time for the not started, refuses the submitted and reports unknown ids, per candidate", async () => {
    const { exam, running, done, waiting, runningAttempt, submissionId } = await mixedExam();
    const other = await startedAttempt();
    const before = await db.attempt.findUniqueOrThrow({ where: { id: runningAttempt.attemptId } });
    const stranger = randomUUID();

    const response = await bulkExtend(exam.id, {
      enrollmentIds: [running.id, done.id, waiting.id, other.enrollmentId, stranger, running.id.toUpperCase()],
      seconds: 300,
      reason: "room change",
    });

    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([
      {
        enrollmentId: running.id,
        outcome: "extended",
        extensionId: expect.any(String),
        deadline: new Date(before.deadline.getTime() + 300_000).toISOString(),
      },
      { enrollmentId: done.id, outcome: "already_submitted", submissionId },
      { enrollmentId: waiting.id, outcome: "pending_start", extensionId: expect.any(String) },
      { enrollmentId: other.enrollmentId, outcome: "not_found" },
      { enrollmentId: stranger, outcome: "not_found" },
    ]);
    // Another exam's candidate was never touched.
    expect(await db.enrollment.findUniqueOrThrow({ where: { id: other.enrollmentId } })).toMatchObject({
      extraSeconds: 0,
    });
    expect(await db.timeExtension.count({ where: { enrollmentId: other.enrollmentId } })).toBe(0);
    expect(await db.enrollment.findUniqueOrThrow({ where: { id: done.id } })).toMatchObject({ extraSeconds: 0 });
    expect(await db.enrollment.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ extraSeconds: 300 });
    expect(await db.timeExtension.findFirstOrThrow({ where: { enrollmentId: waiting.id } })).toMatchObject({
      attemptId: null,
      previousDeadline: null,
      newDeadline: null,
      reason: "room change",
    });
    expect(await db.auditEvent.count({ where: { examId: exam.id, action: "attempt.extended" } })).toBe(2);
  });

  it("with an Idempotency-Key, a retry extends nobody twice and says it replayed", async () => {
    const { exam, running, waiting } = await mixedExam();
    const key = randomUUID();
    const body = { enrollmentIds: [running.id, waiting.id], seconds: 120, reason: "fire drill" };
    const first = await bulkExtend(exam.id, body, undefined, key);
    const after = await snapshot(exam.id);
    const retries = await Promise.all([
      bulkExtend(exam.id, body, undefined, key),
      bulkExtend(exam.id, body, undefined, key),
    ]);
    for (const retry of retries) {
      expect(retry.status).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.body.results).toEqual(first.body.results.map((result: object) => ({ ...result, replayed: true })));
    }
    expect(await snapshot(exam.id)).toEqual(after);

    // The key covers the candidates it extended; a candidate added to the selection is extended once.
    const [late] = await enroll(exam.id);
    const widened = await bulkExtend(
      exam.id,
      { ...body, enrollmentIds: [...body.enrollmentIds, late!.id] },
      undefined,
      key,
    );
    expect(widened.headers.get("idempotent-replayed")).toBeNull();
    expect(widened.body.results.map((result: { replayed?: boolean }) => result.replayed ?? false)).toEqual([
      true,
      true,
      false,
    ]);

    const reused = await bulkExtend(exam.id, { ...body, seconds: 180 }, undefined, key);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
    const malformed = await bulkExtend(exam.id, body, undefined, "k".repeat(256));
    expect(malformed.status).toBe(400);
  });

  it("a candidate whose attempt row is held past the 3 s lock timeout is tried again, not failed", async () => {
    const { exam, running, runningAttempt } = await mixedExam();
    const before = await db.attempt.findUniqueOrThrow({ where: { id: runningAttempt.attemptId } });
    const held = withLockedAttempt(runningAttempt.attemptId, async () => {
      await new Promise((resolve) => setTimeout(resolve, 3_500));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await bulkExtend(exam.id, { enrollmentIds: [running.id], seconds: 60, reason: "long submit" });
    await held;
    expect(response.status).toBe(200);
    expect(response.body.results[0]).toMatchObject({
      outcome: "extended",
      deadline: new Date(before.deadline.getTime() + 60_000).toISOString(),
    });
    expect(await db.timeExtension.count({ where: { enrollmentId: running.id } })).toBe(1);
  });

  it("an unassigned proctor or an unknown exam: 404, nothing changed; the assigned proctor may", async () => {
    const { exam, running } = await mixedExam();
    const proctor = await createStaff("proctor");
    const cookie = await signIn(proctor.email, proctor.password);
    const before = await snapshot(exam.id);
    const body = { enrollmentIds: [running.id], seconds: 60, reason: "wifi down" };

    const refused = [
      await bulkExtend(exam.id, body, { cookie }),
      await bulkExtend(randomUUID(), body),
      await call(bulkExtendRoute, { params: { examId: "nope" }, json: body, bearer: adminToken() }),
      // Whatever the body: the scope is checked before the fields.
      await bulkExtend(exam.id, { enrollmentIds: [] }, { cookie }),
    ];
    for (const response of refused) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("NOT_FOUND");
    }
    expect(await snapshot(exam.id)).toEqual(before);

    await db.examProctor.create({ data: { examId: exam.id, staffUserId: proctor.id } });
    const allowed = await bulkExtend(exam.id, body, { cookie });
    expect(allowed.status).toBe(200);
    expect(allowed.body.results[0].outcome).toBe("extended");
  });

  it.each([
    ["no ids", { enrollmentIds: [], seconds: 60, reason: "wifi down" }, "enrollmentIds"],
    ["an id that is not a uuid", { enrollmentIds: ["abc"], seconds: 60, reason: "wifi down" }, "enrollmentIds.0"],
    ["ids missing", { seconds: 60, reason: "wifi down" }, "enrollmentIds"],
    ["seconds too small", { enrollmentIds: [randomUUID()], seconds: 10, reason: "wifi down" }, "seconds"],
    ["no reason", { enrollmentIds: [randomUUID()], seconds: 60 }, "reason"],
  ])("%s: 422 naming the field, nothing changed", async (_name, body, path) => {
    const { exam } = await mixedExam();
    const before = await snapshot(exam.id);
    const response = await bulkExtend(exam.id, body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("VALIDATION_FAILED");
    expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
    expect(await snapshot(exam.id)).toEqual(before);
  });

  it("405 with Allow on other methods", async () => {
    const response = PUT();
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect((await response.json()).error.code).toBe("METHOD_NOT_ALLOWED");
  });
});
