import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { DELETE as withdrawRoute, POST as releaseRoute } from "@/app/api/admin/exams/[examId]/results/release/route";
import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";

import { GET } from "./route";

async function submittedAndScored(examOverrides: Record<string, unknown> = {}): Promise<StartedAttempt> {
  const attempt = await startedAttempt(examOverrides);
  const q = (type: string) => attempt.questions.find((question) => question.type === type)!.id;
  const answers = [
    { questionId: q("single_choice"), value: "b", version: 1 },
    { questionId: q("numeric"), value: 6, version: 1 },
  ];
  expect((await autosave(attempt, { deviceId: "laptop", answers })).status).toBe(200);
  expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
  await scoreNow(attempt.attemptId);
  return attempt;
}

const read = (attempt: StartedAttempt, cookie = attempt.cookie) =>
  call(GET, { params: { attemptId: attempt.attemptId }, cookie });
const release = (examId: string) => call(releaseRoute, { method: "POST", params: { examId }, bearer: adminToken() });
const withdraw = (examId: string) =>
  call(withdrawRoute, { method: "DELETE", params: { examId }, bearer: adminToken() });

describe("GET /api/attempts/{attemptId}/result: the release guard", () => {
  it("nothing before release, the result after, nothing again once withdrawn", async () => {
    const attempt = await submittedAndScored();
    const before = await read(attempt);
    expect(before.status).toBe(403);
    expect(before.body.error.code).toBe("RESULTS_NOT_RELEASED");
    expect(before.text).not.toMatch(/score|points|"2"/);

    const released = await release(attempt.examId);
    expect(released.status).toBe(200);
    expect(released.body.releasedAt).toMatch(/^\d{4}-/);
    // Idempotent: the first release time stays.
    expect((await release(attempt.examId)).body.releasedAt).toBe(released.body.releasedAt);

    const after = await read(attempt);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ score: 2, maxScore: 10, graded: true, releasedAt: released.body.releasedAt });
    expect(after.body.questions).toHaveLength(5);
    expect(after.body.questions[0]).toMatchObject({ position: 1, points: 1, maxPoints: 1 });

    expect((await withdraw(attempt.examId)).body.releasedAt).toBeNull();
    expect((await read(attempt)).status).toBe(403);
    const audit = await db.auditEvent.findMany({
      where: { examId: attempt.examId, action: { in: ["results.released", "results.withdrawn"] } },
      orderBy: { at: "asc" },
    });
    expect(audit.map((event) => event.action)).toEqual(["results.released", "results.withdrawn"]);
  });

  it("parallel releases release once: one time, one audit entry", async () => {
    const attempt = await submittedAndScored();
    const responses = await Promise.all(Array.from({ length: 8 }, () => release(attempt.examId)));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    expect(new Set(responses.map((response) => response.body.releasedAt)).size).toBe(1);
    expect(await db.auditEvent.count({ where: { examId: attempt.examId, action: "results.released" } })).toBe(1);
  });

  it("an exam that never shows results stays closed after release; 'immediately' opens once graded", async () => {
    const never = await submittedAndScored({ resultsVisibility: "never" });
    await release(never.examId);
    expect((await read(never)).status).toBe(403);

    const immediately = await submittedAndScored({ resultsVisibility: "immediately" });
    expect((await read(immediately)).status).toBe(200);
  });

  it("only the total when the exam shows no per-question detail; another candidate's attempt is 404", async () => {
    const attempt = await submittedAndScored();
    await db.exam.update({ where: { id: attempt.examId }, data: { resultsDetail: "total" } });
    await release(attempt.examId);
    const result = await read(attempt);
    expect(result.body).toMatchObject({ score: 2, questions: null });

    const stranger = await startedAttempt();
    expect((await read(attempt, stranger.cookie)).status).toBe(404);
  });
});
