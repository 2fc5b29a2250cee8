import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { startedAttempt, submit } from "@/test-support/server/attempts";
import { adminToken, createExam, enroll } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { PATCH as updateRoute } from "./route";

function setExtra(examId: string, enrollmentId: string, extraSeconds: unknown) {
  return call(updateRoute, {
    method: "PATCH",
    params: { examId, enrollmentId },
    bearer: adminToken(),
    json: { extraSeconds },
  });
}

describe("PATCH /api/admin/exams/{examId}/candidates/{enrollmentId}", () => {
  it("before the start: sets the extra time, lowering it too", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    expect((await setExtra(exam.id, candidate!.id, 1200)).body).toMatchObject({ outcome: "pending_start" });
    expect((await setExtra(exam.id, candidate!.id, 300)).body).toMatchObject({ outcome: "lowered", extraSeconds: 300 });
    expect((await setExtra(exam.id, candidate!.id, 300)).body).toMatchObject({ outcome: "unchanged" });
    expect((await db.enrollment.findUniqueOrThrow({ where: { id: candidate!.id } })).extraSeconds).toBe(300);
  });

  it("during the exam: the deadline moves by the difference, recorded as an extension the dashboard reads", async () => {
    const attempt = await startedAttempt();
    const before = await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } });
    const response = await setExtra(attempt.examId, attempt.enrollmentId, 900);
    expect(response.status).toBe(200);
    expect(response.body.outcome).toBe("extended");
    const after = await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } });
    expect(after.deadline.getTime() - before.deadline.getTime()).toBe(900_000);
    expect(response.body.deadline).toBe(after.deadline.toISOString());
    const extension = await db.timeExtension.findFirstOrThrow({ where: { attemptId: attempt.attemptId } });
    expect(extension).toMatchObject({ seconds: 900, newDeadline: after.deadline });

    // Lowering after the start is refused: a deadline never moves earlier.
    const lower = await setExtra(attempt.examId, attempt.enrollmentId, 60);
    expect(lower.status).toBe(422);
    expect((await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } })).deadline).toEqual(after.deadline);
  });

  it("two admins setting the same total at once add it once", async () => {
    const attempt = await startedAttempt();
    const before = await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } });
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => setExtra(attempt.examId, attempt.enrollmentId, 600)),
    );
    expect(responses.map((r) => r.body.outcome).sort()).toEqual([
      "extended",
      "unchanged",
      "unchanged",
      "unchanged",
      "unchanged",
    ]);
    const after = await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } });
    expect(after.deadline.getTime() - before.deadline.getTime()).toBe(600_000);
  });

  it("after submitting: 409 ALREADY_SUBMITTED; bad values and another exam change nothing", async () => {
    const attempt = await startedAttempt();
    expect((await submit(attempt, { deviceId: "laptop", answers: [] }, randomUUID())).status).toBe(200);
    expect((await setExtra(attempt.examId, attempt.enrollmentId, 600)).status).toBe(409);
    expect((await setExtra(attempt.examId, attempt.enrollmentId, -60)).status).toBe(422);
    expect((await setExtra(attempt.examId, attempt.enrollmentId, 1.5)).status).toBe(422);
    const other = await createExam();
    expect((await setExtra(other.id, attempt.enrollmentId, 600)).status).toBe(404);
    expect((await db.enrollment.findUniqueOrThrow({ where: { id: attempt.enrollmentId } })).extraSeconds).toBe(0);
  });
});
