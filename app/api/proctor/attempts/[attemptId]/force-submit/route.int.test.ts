import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, enroll, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { answersDigest } from "@/lib/shared/digest";

import { DELETE, POST as forceSubmitRoute } from "./route";

function forceSubmit(
  attemptId: string,
  options: { json?: unknown; raw?: string; bearer?: string; cookie?: string; headers?: Record<string, string> } = {},
) {
  const auth = options.cookie || options.bearer !== undefined ? {} : { bearer: adminToken() };
  return call(forceSubmitRoute, { method: "POST", params: { attemptId }, ...auth, ...options });
}

async function state(attemptId: string) {
  const [attempt, submissions, late] = await Promise.all([
    db.attempt.findUniqueOrThrow({ where: { id: attemptId }, select: { status: true } }),
    db.submission.findMany({ where: { attemptId } }),
    db.lateAnswer.count({ where: { attemptId } }),
  ]);
  return { status: attempt.status, submissions, late };
}

async function proctorFor(attempt: Pick<StartedAttempt, "examId">) {
  const proctor = await createStaff("proctor");
  await db.examProctor.create({ data: { examId: attempt.examId, staffUserId: proctor.id } });
  return { ...proctor, cookie: await signIn(proctor.email, proctor.password) };
}

describe("POST /api/proctor/attempts/{attemptId}/force-submit", () => {
  it("submits what the server holds, source proctor, audited with who and why", async () => {
    const attempt = await startedAttempt();
    const question = attempt.questions[2]!.id;
    await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: question, value: "held", version: 1 }] });
    const proctor = await proctorFor(attempt);

    const response = await forceSubmit(attempt.attemptId, {
      cookie: proctor.cookie,
      json: { reason: "left the room" },
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      submissionId: expect.any(String),
      submittedAt: expect.any(String),
      digest: await answersDigest([{ questionId: question, value: "held" }]),
      source: "proctor",
      alreadySubmitted: false,
    });
    const after = await state(attempt.attemptId);
    expect(after.status).toBe("submitted");
    expect(after.submissions).toHaveLength(1);
    expect(after.submissions[0]).toMatchObject({
      id: response.body.submissionId,
      source: "proctor",
      idempotencyKey: null,
      clientDigest: null,
    });
    const audit = await db.auditEvent.findFirstOrThrow({
      where: { attemptId: attempt.attemptId, action: "attempt.force_submitted" },
    });
    expect(audit).toMatchObject({
      actorType: "staff",
      actorId: proctor.id,
      examId: attempt.examId,
      enrollmentId: attempt.enrollmentId,
    });
    expect(audit.data).toMatchObject({
      submissionId: response.body.submissionId,
      reason: "left the room",
      by: `Test proctor <${proctor.email}>`,
    });
  });

  it("takes an empty body, or {}", async () => {
    const a = await startedAttempt();
    const b = await startedAttempt();
    expect((await forceSubmit(a.attemptId)).status).toBe(200);
    expect((await forceSubmit(b.attemptId, { json: {} })).status).toBe(200);
  });

  it("20 parallel force-submits: one submission, every answer 200 with its id, one audit row", async () => {
    const attempt = await startedAttempt();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => forceSubmit(attempt.attemptId, { json: { reason: "time" } })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(responses.map((r) => r.body.submissionId));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => r.body.alreadySubmitted === false)).toHaveLength(1);
    expect((await state(attempt.attemptId)).submissions).toHaveLength(1);
    expect(
      await db.auditEvent.count({ where: { attemptId: attempt.attemptId, action: "attempt.force_submitted" } }),
    ).toBe(1);
  });

  it("already submitted by the candidate: 200 with that submission and alreadySubmitted: true, nothing new", async () => {
    const attempt = await startedAttempt();
    const submitted = await submit(attempt, { deviceId: "laptop", answers: [] }, randomUUID());
    const response = await forceSubmit(attempt.attemptId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      submissionId: submitted.body.submissionId,
      submittedAt: submitted.body.submittedAt,
      digest: submitted.body.digest,
      source: "candidate",
      alreadySubmitted: true,
    });
    expect(
      await db.auditEvent.count({ where: { attemptId: attempt.attemptId, action: "attempt.force_submitted" } }),
    ).toBe(0);
  });

  it("racing the candidate's own submit: exactly one submission; the candidate gets 200 or 409 ALREADY_SUBMITTED", async () => {
    for (let round = 0; round < 5; round += 1) {
      const attempt = await startedAttempt();
      const question = attempt.questions[2]!.id;
      const [candidate, ...proctors] = await Promise.all([
        submit(
          attempt,
          { deviceId: "laptop", answers: [{ questionId: question, value: "final", version: 1 }] },
          randomUUID(),
        ),
        forceSubmit(attempt.attemptId),
        forceSubmit(attempt.attemptId),
      ]);
      const after = await state(attempt.attemptId);
      expect(after.submissions).toHaveLength(1);
      const submissionId = after.submissions[0]!.id;
      for (const proctor of proctors) {
        expect(proctor.status).toBe(200);
        expect(proctor.body.submissionId).toBe(submissionId);
      }
      if (candidate.status === 200) {
        expect(candidate.body.submissionId).toBe(submissionId);
        expect(after.submissions[0]!.source).toBe("candidate");
      } else {
        expect(candidate.status).toBe(409);
        expect(candidate.body.error).toMatchObject({ code: "ALREADY_SUBMITTED", details: { submissionId } });
        expect(after.submissions[0]!.source).toBe("proctor");
        // Its final edit was not in the frozen paper: kept as a late answer.
        expect(after.late).toBe(1);
      }
    }
  });

  it("the candidate's autosave after a force-submit is kept as late answers (409 ALREADY_SUBMITTED)", async () => {
    const attempt = await startedAttempt();
    const question = attempt.questions[2]!.id;
    await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: question, value: "before", version: 1 }] });
    const forced = await forceSubmit(attempt.attemptId);
    const late = await autosave(attempt, {
      deviceId: "laptop",
      answers: [{ questionId: question, value: "after", version: 2 }],
    });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({
      code: "ALREADY_SUBMITTED",
      details: { submissionId: forced.body.submissionId },
    });
    const rows = await db.lateAnswer.findMany({ where: { attemptId: attempt.attemptId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ questionId: question, value: "after", version: 2, via: "autosave" });
    expect(
      (await db.answer.findFirstOrThrow({ where: { attemptId: attempt.attemptId, questionId: question } })).value,
    ).toBe("before");
  });

  it("a candidate who has not started (named by enrollment id): 409 NOT_STARTED, nothing created", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const response = await forceSubmit(candidate!.id);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe("NOT_STARTED");
    expect(await db.attempt.count({ where: { enrollmentId: candidate!.id } })).toBe(0);
  });

  it("past deadline + grace and not swept yet: frozen as the auto-submit it was due to be, alreadySubmitted: true", async () => {
    const attempt = await startedAttempt({ graceSeconds: 0 });
    await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 5_000) } });
    const response = await forceSubmit(attempt.attemptId);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ source: "auto", alreadySubmitted: true });
    expect((await state(attempt.attemptId)).submissions).toHaveLength(1);
  });

  describe("scope and bad input", () => {
    it("unassigned proctor, another exam's proctor, unknown or malformed id: 404 and nothing submitted; an admin may", async () => {
      const attempt = await startedAttempt();
      const other = await startedAttempt();
      const unassigned = await createStaff("proctor");
      const otherProctor = await proctorFor(other);
      const refused = [
        await forceSubmit(attempt.attemptId, { cookie: await signIn(unassigned.email, unassigned.password) }),
        await forceSubmit(attempt.attemptId, { cookie: otherProctor.cookie }),
        await forceSubmit(randomUUID()),
        await forceSubmit("not-a-uuid"),
      ];
      for (const response of refused) {
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe("NOT_FOUND");
      }
      expect((await state(attempt.attemptId)).status).toBe("in_progress");
      const admin = await createStaff("admin");
      expect((await forceSubmit(attempt.attemptId, { cookie: await signIn(admin.email, admin.password) })).status).toBe(
        200,
      );
    });

    // Found by the bad-input benchmark: the body was checked before the scope, so a proctor of another exam
    // sending a body meant for another action got 422 instead of the 404 every foreign id gets. The fix reads
    // the scope first; the second half shows an assigned proctor still gets the 422 for that body.
    it("another exam's proctor gets 404 whatever the body; an assigned proctor gets the 422", async () => {
      const attempt = await startedAttempt();
      const other = await startedAttempt();
      const otherProctor = await proctorFor(other);
      const foreign = await forceSubmit(attempt.attemptId, {
        cookie: otherProctor.cookie,
        json: { seconds: 600, reason: "bench" },
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe("NOT_FOUND");
      const assigned = await proctorFor(attempt);
      const refused = await forceSubmit(attempt.attemptId, {
        cookie: assigned.cookie,
        json: { seconds: 600, reason: "bench" },
      });
      expect(refused.status).toBe(422);
      expect((await state(attempt.attemptId)).status).toBe("in_progress");
    });

    it("401 for a candidate's session or a wrong token", async () => {
      const attempt = await startedAttempt();
      expect((await forceSubmit(attempt.attemptId, { cookie: attempt.cookie })).status).toBe(401);
      expect((await forceSubmit(attempt.attemptId, { bearer: "wrong" })).status).toBe(401);
      expect((await state(attempt.attemptId)).status).toBe("in_progress");
    });

    it("bad bodies: 400 for broken JSON, 415 for JSON not labelled so, 422 naming the field; nothing submitted", async () => {
      const attempt = await startedAttempt();
      const results = [
        await forceSubmit(attempt.attemptId, { raw: "{", headers: { "content-type": "application/json" } }),
        await forceSubmit(attempt.attemptId, { raw: '{"reason":"x"}', headers: { "content-type": "text/plain" } }),
        await forceSubmit(attempt.attemptId, { json: { reason: 42 } }),
        await forceSubmit(attempt.attemptId, { json: { reason: "x".repeat(501) } }),
        await forceSubmit(attempt.attemptId, { json: [] }),
        // Text Postgres cannot store is refused up front, not a 500 from the audit insert.
        await forceSubmit(attempt.attemptId, { json: { reason: "left\u0000" } }),
        // Force-submit cannot be undone: a body meant for another action is refused, not ignored.
        await forceSubmit(attempt.attemptId, { json: { seconds: 60, reason: "x" } }),
      ];
      expect(results.map((r) => r.status)).toEqual([400, 415, 422, 422, 422, 422, 422]);
      expect(results[2]!.body.error.details.issues[0].path).toBe("reason");
      expect(results[5]!.body.error.details.issues[0].path).toBe("reason");
      expect((await state(attempt.attemptId)).status).toBe("in_progress");
    });

    it("405 with Allow on other methods", async () => {
      const response = DELETE();
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect((await response.json()).error.code).toBe("METHOD_NOT_ALLOWED");
    });
  });
});
