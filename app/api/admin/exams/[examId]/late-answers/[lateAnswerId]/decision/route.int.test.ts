import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";

import { GET as listRoute } from "../../route";
import { POST } from "./route";

/** A paper submitted with a wrong single-choice answer, then the right one arriving late from a second device. */
async function paperWithLateAnswer(): Promise<{ attempt: StartedAttempt; lateAnswerId: string; digest: string }> {
  const attempt = await startedAttempt();
  const single = attempt.questions.find((q) => q.type === "single_choice")!.id;
  expect(
    (await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: single, value: "a", version: 1 }] })).status,
  ).toBe(200);
  const submitted = await submit(attempt, { deviceId: "laptop" }, randomUUID());
  expect(submitted.status).toBe(200);
  const late = await autosave(attempt, {
    deviceId: "phone",
    answers: [{ questionId: single, value: "b", version: 2 }],
  });
  // The frozen paper refuses it (409 ALREADY_SUBMITTED) and keeps it as a late answer.
  expect(late.status).toBe(409);
  await scoreNow(attempt.attemptId);
  const row = await db.lateAnswer.findFirstOrThrow({ where: { attemptId: attempt.attemptId } });
  return { attempt, lateAnswerId: row.id, digest: submitted.body.digest as string };
}

const decide = (examId: string, lateAnswerId: string, json: unknown) =>
  call(POST, { method: "POST", params: { examId, lateAnswerId }, bearer: adminToken(), json });

describe("late answers: read beside the frozen one, accepted into the result or rejected with a reason", () => {
  it("lists the late answer with the frozen value and the server's times; accepting changes the total, not the paper", async () => {
    const { attempt, lateAnswerId, digest } = await paperWithLateAnswer();
    const list = await call(listRoute, { params: { examId: attempt.examId }, bearer: adminToken() });
    expect(list.status).toBe(200);
    expect(list.body.lateAnswers).toEqual([
      expect.objectContaining({
        id: lateAnswerId,
        value: "b",
        frozenValue: "a",
        deviceId: "phone",
        via: "autosave",
        decision: null,
        position: 1,
      }),
    ]);
    expect(Number((await db.result.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } })).scoreUnits)).toBe(0);

    const accepted = await decide(attempt.examId, lateAnswerId, { decision: "accepted" });
    expect(accepted.status).toBe(201);
    expect(accepted.body.decision).toMatchObject({ decision: "accepted", by: "API token" });
    const result = await db.result.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } });
    expect(Number(result.scoreUnits)).toBe(10_000);
    const latest = await db.resultVersion.findFirstOrThrow({
      where: { attemptId: attempt.attemptId },
      orderBy: { version: "desc" },
    });
    expect(latest).toMatchObject({ cause: "late_answer_accepted", version: 2 });
    // The frozen paper and its digest are as submitted.
    const submission = await db.submission.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } });
    expect(submission.digest).toBe(digest);
    const frozen = await db.answer.findFirstOrThrow({
      where: { attemptId: attempt.attemptId, questionId: attempt.questions[0]!.id },
    });
    expect(frozen.value).toBe("a");

    const again = await decide(attempt.examId, lateAnswerId, { decision: "rejected", reason: "changed my mind" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("LATE_ANSWER_DECIDED");
    expect(again.body.error.details.decision.decision).toBe("accepted");
    expect(
      await db.auditEvent.count({ where: { attemptId: attempt.attemptId, action: { startsWith: "late_answer." } } }),
    ).toBe(1);
  });

  it("a rejection needs a reason, changes no score, and two decisions at once write one", async () => {
    const { attempt, lateAnswerId } = await paperWithLateAnswer();
    expect((await decide(attempt.examId, lateAnswerId, { decision: "rejected" })).status).toBe(422);
    expect((await decide(attempt.examId, lateAnswerId, { decision: "maybe" })).status).toBe(422);
    expect((await decide(attempt.examId, randomUUID(), { decision: "accepted" })).status).toBe(404);
    const both = await Promise.all([
      decide(attempt.examId, lateAnswerId, { decision: "rejected", reason: "arrived after the deadline" }),
      decide(attempt.examId, lateAnswerId, { decision: "accepted" }),
    ]);
    expect(both.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(await db.lateAnswerDecision.count({ where: { lateAnswerId } })).toBe(1);
  });
});
