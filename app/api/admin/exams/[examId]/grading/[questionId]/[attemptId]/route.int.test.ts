import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";

import { GET as queueRoute } from "../route";
import { PUT } from "./route";

const essayOf = (attempt: StartedAttempt) => attempt.questions.find((q) => q.type === "essay")!.id;

async function submittedEssay(examOverrides: Record<string, unknown> = {}): Promise<StartedAttempt> {
  const attempt = await startedAttempt(examOverrides);
  const answers = [{ questionId: essayOf(attempt), value: "TCP halves its window on loss.", version: 1 }];
  expect((await autosave(attempt, { deviceId: "laptop", answers })).status).toBe(200);
  expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
  await scoreNow(attempt.attemptId);
  return attempt;
}

const put = (attempt: StartedAttempt, json: unknown, questionId = essayOf(attempt)) =>
  call(PUT, {
    method: "PUT",
    params: { examId: attempt.examId, questionId, attemptId: attempt.attemptId },
    bearer: adminToken(),
    json,
  });

const queue = (attempt: StartedAttempt, marker = "first") =>
  call(queueRoute, {
    path: `/api/admin/exams/${attempt.examId}/grading/${essayOf(attempt)}?marker=${marker}`,
    params: { examId: attempt.examId, questionId: essayOf(attempt) },
    bearer: adminToken(),
  });

describe("grading: blind queue, marks with a revision check, results follow", () => {
  it("the queue is blind and shows the essay waiting; a mark decides it and the result gets a version", async () => {
    const attempt = await submittedEssay();
    const before = await queue(attempt);
    expect(before.status).toBe(200);
    const item = before.body.items.find((entry: { attemptId: string }) => entry.attemptId === attempt.attemptId);
    expect(item).toMatchObject({
      candidateName: null,
      value: "TCP halves its window on loss.",
      source: "pending",
      reason: "essay",
      points: null,
      grades: {},
    });
    expect(item.candidateCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(JSON.stringify(before.body)).not.toContain("Candidate 0"); // the fixture's name

    const saved = await put(attempt, { points: 3.5, comment: "Good, but no slow start.", revision: 0 });
    expect(saved.status).toBe(200);
    expect(saved.body.grade).toMatchObject({ points: 3.5, revision: 1, by: "API token" });
    const result = await db.result.findUnique({ where: { attemptId: attempt.attemptId } });
    expect(result).toMatchObject({ version: 2, pending: 0 });
    expect(Number(result!.scoreUnits)).toBe(35_000);
    const latest = await db.resultVersion.findFirst({ where: { attemptId: attempt.attemptId, version: 2 } });
    expect(latest).toMatchObject({ cause: "graded", actorLabel: "API token" });
    const audit = await db.auditEvent.findFirst({ where: { attemptId: attempt.attemptId, action: "grade.saved" } });
    expect(audit?.data).toMatchObject({ marker: "first", points: 3.5 });
  });

  it("two graders saving on the same revision: exactly one wins, the other gets 409 with the winner's mark", async () => {
    const attempt = await submittedEssay();
    for (let round = 0; round < 3; round += 1) {
      const current = await db.grade.findFirst({ where: { attemptId: attempt.attemptId, marker: "first" } });
      const revision = current?.revision ?? 0;
      const responses = await Promise.all([
        put(attempt, { points: 1, comment: `A ${round}`, revision }),
        put(attempt, { points: 2, comment: `B ${round}`, revision }),
      ]);
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 409]);
      const loser = responses.find((response) => response.status === 409)!;
      const winner = responses.find((response) => response.status === 200)!;
      expect(loser.body.error.code).toBe("GRADE_CONFLICT");
      expect(loser.body.error.details.current).toEqual(winner.body.grade);
    }
    const grades = await db.grade.findMany({ where: { attemptId: attempt.attemptId } });
    expect(grades).toHaveLength(1);
    expect(grades[0]!.revision).toBe(3); // created in round 0, changed once in each later round
  });

  it("refuses more points than the question has, bad input, and papers or questions of another exam", async () => {
    const attempt = await submittedEssay();
    const tooMany = await put(attempt, { points: 5.5, revision: 0 });
    expect(tooMany.status).toBe(422);
    for (const body of [
      { points: -1, revision: 0 },
      { points: 1.00001, revision: 0 },
      { points: 1 },
      { revision: 0 },
    ]) {
      expect((await put(attempt, body)).status).toBe(422);
    }
    const other = await submittedEssay();
    expect((await put(attempt, { points: 1, revision: 0 }, essayOf(other))).status).toBe(404);
    expect(await db.grade.count({ where: { attemptId: attempt.attemptId } })).toBe(0);
  });

  it("double marking: each marker sees only their own mark; disagreement waits for an admin's final mark", async () => {
    const attempt = await submittedEssay();
    await db.exam.update({ where: { id: attempt.examId }, data: { secondMarking: true } });
    expect((await put(attempt, { marker: "first", points: 2, revision: 0 })).status).toBe(200);
    const second = await queue(attempt, "second");
    const item = second.body.items.find((entry: { attemptId: string }) => entry.attemptId === attempt.attemptId);
    expect(item.grades).toEqual({});
    expect(item.points).toBeNull();
    expect((await put(attempt, { marker: "second", points: 4, revision: 0 })).status).toBe(200);
    let result = await db.result.findUnique({ where: { attemptId: attempt.attemptId } });
    expect(result!.pending).toBe(1);
    const final = await queue(attempt, "final");
    const both = final.body.items.find((entry: { attemptId: string }) => entry.attemptId === attempt.attemptId);
    expect(both.grades.first.points).toBe(2);
    expect(both.grades.second.points).toBe(4);
    expect(both.reason).toBe("disagreement");
    expect((await put(attempt, { marker: "final", points: 3, revision: 0 })).status).toBe(200);
    result = await db.result.findUnique({ where: { attemptId: attempt.attemptId } });
    expect(result!.pending).toBe(0);
    expect(Number(result!.scoreUnits)).toBe(30_000);
  });
});
