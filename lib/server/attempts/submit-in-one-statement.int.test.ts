import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { answersDigest } from "@/lib/shared/digest";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import { autosave, startedAttempt, type StartedAttempt } from "@/test-support/server/attempts";

import { mergeDelta, readPaperForSubmit, trySubmitInOneStatement } from "./submit-in-one-statement";

function textQuestion(attempt: StartedAttempt): string {
  const question = attempt.questions.find((candidate) => candidate.type === "short_text");
  if (!question) throw new Error("the sample exam has no short text question");
  return question.id;
}

async function storedDigest(attemptId: string): Promise<string> {
  const answers = await db.answer.findMany({ where: { attemptId }, select: { questionId: true, value: true } });
  return answersDigest(
    answers.map((answer) => ({ questionId: answer.questionId, value: answer.value as AnswerValue })),
  );
}

describe("a first submit in one statement", () => {
  it("freezes the paper read plus the delta, one revision bump, the submission, its result job and its audit entry", async () => {
    const attempt = await startedAttempt();
    const questionId = textQuestion(attempt);
    expect(
      (await autosave(attempt, { deviceId: "a", answers: [{ questionId, value: "one", version: 1 }] })).status,
    ).toBe(200);
    const before = await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } });
    const paper = await readPaperForSubmit({
      attemptId: attempt.attemptId,
      candidate: { enrollmentId: attempt.enrollmentId },
      idempotencyKey: "k1",
    });
    const answers = [{ questionId, value: "two", version: 2 }];
    const written = await trySubmitInOneStatement({
      attempt: paper,
      deviceId: "a",
      answers,
      idempotencyKey: "k1",
      requestHash: "h",
      clientDigest: undefined,
    });
    expect(written).not.toBeNull();
    const response = written!.response;
    expect(response.digest).toBe(await storedDigest(attempt.attemptId));
    const submission = await db.submission.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } });
    expect(submission).toMatchObject({
      id: response.submissionId,
      version: 1,
      idempotencyKey: "k1",
      source: "candidate",
    });
    // Written once: the submission holds the very text the submit answers with.
    expect(submission.response).toBe(written!.text);
    expect(JSON.parse(submission.response!)).toEqual(response);
    const row = await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } });
    expect(row.status).toBe("submitted");
    expect(row.revision).toBe(before.revision + 1);
    expect(await db.resultJob.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
    const audit = await db.auditEvent.findMany({
      where: { attemptId: attempt.attemptId, action: "attempt.submitted" },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: "candidate", actorId: attempt.enrollmentId });
    expect(audit[0]!.data).toMatchObject({ submissionId: response.submissionId, version: 1, answers: 1 });
  });

  it("writes NOTHING when the paper changed between the read and the statement (the row-version guard)", async () => {
    const attempt = await startedAttempt();
    const questionId = textQuestion(attempt);
    const paper = await readPaperForSubmit({
      attemptId: attempt.attemptId,
      candidate: { enrollmentId: attempt.enrollmentId },
      idempotencyKey: "k1",
    });
    // Another device saves after the read: a freeze from the old read would sign a digest the paper no longer has.
    expect(
      (await autosave(attempt, { deviceId: "phone", answers: [{ questionId, value: "from the phone", version: 5 }] }))
        .status,
    ).toBe(200);
    const response = await trySubmitInOneStatement({
      attempt: paper,
      deviceId: "laptop",
      answers: [],
      idempotencyKey: "k1",
      requestHash: "h",
      clientDigest: undefined,
    });
    expect(response).toBeNull();
    expect(await db.submission.count({ where: { attemptId: attempt.attemptId } })).toBe(0);
    expect((await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } })).status).toBe("in_progress");
    expect(await db.resultJob.count({ where: { attemptId: attempt.attemptId } })).toBe(0);
  });
});

describe("mergeDelta", () => {
  it("keeps the greater (version, deviceId), device ids compared byte-wise", () => {
    const paper = [{ q: "q1", v: "stored", n: 3, d: "m" }];
    expect(mergeDelta(paper, "a", [{ questionId: "q1", value: "lower device", version: 3 }]).get("q1")).toBe("stored");
    expect(mergeDelta(paper, "m", [{ questionId: "q1", value: "same", version: 3 }]).get("q1")).toBe("stored");
    expect(mergeDelta(paper, "z", [{ questionId: "q1", value: "higher device", version: 3 }]).get("q1")).toBe(
      "higher device",
    );
    expect(mergeDelta(paper, "a", [{ questionId: "q1", value: "newer", version: 4 }]).get("q1")).toBe("newer");
    expect(mergeDelta(paper, "a", [{ questionId: "q2", value: "new", version: 1 }]).get("q2")).toBe("new");
  });
});
