import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { POST as reopenRoute } from "@/app/api/admin/attempts/[attemptId]/reopen/route";
import { signReceipt } from "@/lib/server/attempts/receipt";
import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken, createStaff, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { POST } from "./route";

/** The file the candidate's "Download receipt" saves (components/exam/receipt.tsx, receiptFile). */
function receiptFileOf(submitted: Record<string, unknown>, facts = { examTitle: "Networks", candidateName: "Ada" }) {
  return {
    format: "holdfast-receipt",
    v: 1,
    ...facts,
    attemptId: submitted.attemptId,
    submissionId: submitted.submissionId,
    submittedAt: submitted.submittedAt,
    source: "candidate",
    digest: submitted.digest,
    digestAlgorithm: "SHA-256 of the canonical JSON of { questionId: answer }",
    receipt: submitted.receipt,
    receiptAlgorithm: 'HMAC-SHA256(server secret, "holdfast-receipt-v1", attemptId, submittedAt, digest), base64url',
  };
}

async function submittedPaper(): Promise<{ attempt: StartedAttempt; file: ReturnType<typeof receiptFileOf> }> {
  const attempt = await startedAttempt();
  const single = attempt.questions.find((q) => q.type === "single_choice")!.id;
  const saved = await autosave(attempt, {
    deviceId: "laptop",
    answers: [{ questionId: single, value: "a", version: 1 }],
  });
  expect(saved.status).toBe(200);
  const submitted = await submit(attempt, { deviceId: "laptop" }, randomUUID());
  expect(submitted.status).toBe(200);
  return { attempt, file: receiptFileOf(submitted.body) };
}

const verify = (json: unknown, bearer: string | undefined = adminToken(), cookie?: string) =>
  call(POST, { method: "POST", json, ...(cookie ? { cookie } : { bearer }) });

/** One character of `text` at `index` changed to another of the same alphabet. */
function changeOneByte(text: string, index: number): string {
  const char = text[index]!;
  const other = char === "A" ? "B" : char === "0" ? "1" : /[0-9]/.test(char) ? "0" : "A";
  return `${text.slice(0, index)}${other}${text.slice(index + 1)}`;
}

describe("POST /api/admin/receipts/verify", () => {
  it("a real receipt is valid, names the current submission, and its digest matches the frozen paper", async () => {
    const { attempt, file } = await submittedPaper();
    const response = await verify(file);
    expect(response.status).toBe(200);
    const submission = await db.submission.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } });
    const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: attempt.enrollmentId } });
    expect(response.body).toMatchObject({
      valid: true,
      reason: null,
      attemptId: attempt.attemptId,
      examId: attempt.examId,
      candidateName: enrollment.name,
      submissionId: submission.id,
      submittedAt: file.submittedAt,
      version: 1,
      current: true,
      supersededAt: null,
      digestMatchesPaper: true,
      claimed: { examTitle: "Networks", candidateName: "Ada", source: "candidate", digest: file.digest },
    });
  });

  it("one changed byte in the signature, the submission time or the digest makes it invalid", async () => {
    const { file } = await submittedPaper();
    const tampered = [
      { ...file, receipt: changeOneByte(file.receipt as string, 5) },
      { ...file, submittedAt: changeOneByte(file.submittedAt as string, 22) },
      { ...file, digest: changeOneByte(file.digest as string, 0) },
    ];
    for (const body of tampered) {
      expect(body).not.toEqual(file);
      const response = await verify(body);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ valid: false, reason: "signature", current: null, submissionId: null });
    }
    // The untouched file is still valid: the refusals above are the changed byte's doing.
    expect((await verify(file)).body.valid).toBe(true);
  });

  it("a receipt from before a reopening is valid and names the earlier submission, kept in history", async () => {
    const { attempt, file } = await submittedPaper();
    const reopened = await call(reopenRoute, {
      method: "POST",
      params: { attemptId: attempt.attemptId },
      bearer: adminToken(),
      json: { reason: "power cut", seconds: 600 },
    });
    expect(reopened.status).toBe(200);
    // The candidate changes the paper, and submits again: the first receipt's paper is the history's snapshot.
    const single = attempt.questions.find((q) => q.type === "single_choice")!.id;
    expect(
      (await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: single, value: "b", version: 2 }] }))
        .status,
    ).toBe(200);
    const second = await submit(attempt, { deviceId: "laptop" }, randomUUID());
    expect(second.status).toBe(200);

    const earlier = await verify(file);
    expect(earlier.body).toMatchObject({ valid: true, version: 1, current: false, digestMatchesPaper: true });
    expect(earlier.body.supersededAt).toEqual(expect.any(String));
    const latest = await verify(receiptFileOf(second.body));
    expect(latest.body).toMatchObject({ valid: true, version: 2, current: true, digestMatchesPaper: true });
    expect(second.body.digest).not.toBe(file.digest);
  });

  it("a receipt signed for an attempt the server does not have is not valid, and says why", async () => {
    const attemptId = randomUUID();
    const submittedAt = new Date().toISOString();
    const digest = "0".repeat(64);
    const file = receiptFileOf({
      attemptId,
      submittedAt,
      digest,
      receipt: signReceipt({ attemptId, submittedAt, digest }),
    });
    const response = await verify(file);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ valid: false, reason: "unknown_attempt", examId: null, current: null });

    // Signed for a real attempt, but for a time and digest none of its submissions has.
    const { attempt } = await submittedPaper();
    const forged = { attemptId: attempt.attemptId, submittedAt, digest };
    const unknown = await verify(receiptFileOf({ ...forged, receipt: signReceipt(forged) }));
    expect(unknown.body).toMatchObject({
      valid: false,
      reason: "unknown_submission",
      examId: attempt.examId,
      submissionId: null,
      digestMatchesPaper: null,
    });
  });

  it("a body that is not a receipt file is 422; a proctor is refused", async () => {
    const { file } = await submittedPaper();
    expect((await verify({ hello: "world" })).status).toBe(422);
    expect((await verify({ ...file, attemptId: "not-a-uuid" })).status).toBe(422);
    expect((await verify({ ...file, receipt: null })).status).toBe(422);
    const notJson = await call(POST, {
      method: "POST",
      bearer: adminToken(),
      raw: "{ not json",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    const proctor = await createStaff("proctor");
    const refused = await verify(file, undefined, await signIn(proctor.email, proctor.password));
    expect(refused.status).toBe(403);
  });
});
