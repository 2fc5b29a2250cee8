import { randomUUID } from "node:crypto";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { createSession } from "@/lib/server/auth/sessions";
import { db } from "@/lib/server/db/client";
import {
  autosave,
  eachRequestOnceTheSessionEnded,
  SESSION_ENDINGS,
  startedAttempt,
  submit,
} from "@/test-support/server/attempts";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";
import { answersDigest } from "@/lib/shared/digest";
import { compareEdits } from "@/lib/shared/versions";

import { GET as getAttemptRoute } from "../route";
import { POST as answersRoute } from "./route";

async function paper(attemptId: string) {
  const rows = await db.answer.findMany({
    where: { attemptId },
    select: { questionId: true, value: true, version: true, deviceId: true },
  });
  return Object.fromEntries(
    rows.map((row) => [row.questionId, { value: row.value, version: row.version, deviceId: row.deviceId }]),
  );
}

async function snapshot(attemptId: string) {
  const attempt = await db.attempt.findUniqueOrThrow({
    where: { id: attemptId },
    select: { revision: true, status: true },
  });
  return { ...attempt, answers: await paper(attemptId), late: await db.lateAnswer.count({ where: { attemptId } }) };
}

describe("POST /api/attempts/{attemptId}/answers", () => {
  it("applies a delta, reports duplicates, and bumps the revision once per applying request", async () => {
    const attempt = await startedAttempt();
    const [single, multiple, short, , numeric] = attempt.questions;
    const delta = {
      deviceId: "laptop",
      answers: [
        { questionId: single!.id, value: "a", version: 1 },
        { questionId: multiple!.id, value: ["c", "a"], version: 2 },
        { questionId: short!.id, value: "127.0.0.1", version: 3 },
        { questionId: numeric!.id, value: 32, version: 4 },
      ],
    };
    const first = await autosave(attempt, delta);
    expect(first.status).toBe(200);
    expect(first.body.revision).toBe(1);
    expect(first.body.results.map((r: { status: string }) => r.status)).toEqual([
      "applied",
      "applied",
      "applied",
      "applied",
    ]);
    expect(Date.parse(first.body.serverTime)).not.toBeNaN();
    expect(Date.parse(first.body.deadline)).toBeGreaterThan(Date.now());

    const again = await autosave(attempt, delta);
    expect(again.status).toBe(200);
    expect(again.body.revision).toBe(1);
    expect(again.body.results.every((r: { status: string }) => r.status === "duplicate")).toBe(true);
    expect((await paper(attempt.attemptId))[multiple!.id]).toEqual({
      value: ["c", "a"],
      version: 2,
      deviceId: "laptop",
    });
  });

  it("answers stale with the server's value when it holds a newer edit, and never overwrites it", async () => {
    const attempt = await startedAttempt();
    const question = attempt.questions[2]!.id;
    await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: question, value: "new", version: 7 }] });
    const old = await autosave(attempt, {
      deviceId: "phone",
      answers: [{ questionId: question, value: "old", version: 5 }],
    });
    expect(old.status).toBe(200);
    expect(old.body.results).toEqual([
      { questionId: question, status: "stale", version: 7, value: "new", deviceId: "laptop" },
    ]);
    expect(old.body.revision).toBe(1);
    expect((await paper(attempt.attemptId))[question]!.value).toBe("new");
  });

  it("clears an answer with value null, versioned: a stale packet never brings the old value back, and the paper scores it blank", async () => {
    const attempt = await startedAttempt();
    const numeric = attempt.questions.find((question) => question.type === "numeric")!.id;
    const single = attempt.questions.find((question) => question.type === "single_choice")!.id;
    await autosave(attempt, {
      deviceId: "laptop",
      answers: [
        { questionId: numeric, value: 6, version: 1 },
        { questionId: single, value: "b", version: 1 },
      ],
    });
    const cleared = await autosave(attempt, {
      deviceId: "laptop",
      answers: [
        { questionId: numeric, value: null, version: 2 },
        { questionId: single, value: null, version: 2 },
      ],
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.results.map((result: { status: string }) => result.status)).toEqual(["applied", "applied"]);
    expect((await paper(attempt.attemptId))[numeric]).toMatchObject({ value: null, version: 2 });
    // The older value arriving late (another device, a retry) is stale: the answer stays cleared.
    const late = await autosave(attempt, {
      deviceId: "phone",
      answers: [{ questionId: numeric, value: 6, version: 1 }],
    });
    expect(late.body.results).toEqual([
      { questionId: numeric, status: "stale", version: 2, value: null, deviceId: "laptop" },
    ]);
    // The attempt's view gives the cleared answer back as null, with its version.
    const view = await call(getAttemptRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie });
    expect(view.body.answers).toEqual(
      expect.arrayContaining([expect.objectContaining({ questionId: numeric, value: null, version: 2 })]),
    );
    // Submitted: the paper's digest is that of a paper without those two answers, and they score as blank.
    const submitted = await submit(attempt, { deviceId: "laptop" }, randomUUID());
    expect(submitted.status).toBe(200);
    expect(submitted.body.digest).toBe(await answersDigest([]));
    await scoreNow(attempt.attemptId);
    const result = await db.result.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } });
    const questions = result.questions as { questionId: string; units: number; reason: string }[];
    expect(questions.find((question) => question.questionId === numeric)).toMatchObject({ units: 0, reason: "blank" });
    expect(questions.find((question) => question.questionId === single)).toMatchObject({ units: 0, reason: "blank" });
  });

  it("breaks a version tie by deviceId, byte-wise, whatever the database locale", async () => {
    const attempt = await startedAttempt();
    const question = attempt.questions[2]!.id;
    // In byte order "Z" (0x5A) < "_" (0x5F) < "a" (0x61); most locales would put them differently.
    for (const deviceId of ["a", "_", "Z"]) {
      await autosave(attempt, { deviceId, answers: [{ questionId: question, value: deviceId, version: 3 }] });
    }
    expect((await paper(attempt.attemptId))[question]).toEqual({ value: "a", version: 3, deviceId: "a" });
  });

  it("keeps the greatest version when a request names a question twice", async () => {
    const attempt = await startedAttempt();
    const question = attempt.questions[2]!.id;
    const response = await autosave(attempt, {
      deviceId: "laptop",
      answers: [
        { questionId: question, value: "second", version: 2 },
        { questionId: question, value: "first", version: 1 },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([{ questionId: question, status: "applied", version: 2 }]);
    expect((await paper(attempt.attemptId))[question]!.value).toBe("second");
  });

  describe("bad input: 4xx, and the attempt unchanged", () => {
    const cases: { name: string; body: (q: string[]) => unknown; status: number; code: string; path?: string }[] = [
      {
        name: "an unknown question id (with a valid one beside it)",
        body: (q) => ({
          deviceId: "d",
          answers: [
            { questionId: q[2], value: "ok", version: 1 },
            { questionId: randomUUID(), value: "x", version: 1 },
          ],
        }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "answers.1.questionId",
      },
      {
        name: "an option that is not the question's",
        body: (q) => ({ deviceId: "d", answers: [{ questionId: q[0], value: "z", version: 1 }] }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "answers.0.value",
      },
      {
        name: "a multiple choice with a repeated option",
        body: (q) => ({ deviceId: "d", answers: [{ questionId: q[1], value: ["a", "a"], version: 1 }] }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "answers.0.value",
      },
      {
        name: "text for a numeric question",
        body: (q) => ({ deviceId: "d", answers: [{ questionId: q[4], value: "32", version: 1 }] }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "answers.0.value",
      },
      {
        name: "short text over 2,000 characters",
        body: (q) => ({ deviceId: "d", answers: [{ questionId: q[2], value: "x".repeat(2001), version: 1 }] }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "answers.0.value",
      },
      {
        name: "a forged huge version",
        body: (q) => ({ deviceId: "d", answers: [{ questionId: q[2], value: "x", version: 2 ** 31 }] }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "answers.0.version",
      },
      {
        name: "version 0",
        body: (q) => ({ deviceId: "d", answers: [{ questionId: q[2], value: "x", version: 0 }] }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "answers.0.version",
      },
      {
        name: "a fractional version",
        body: (q) => ({ deviceId: "d", answers: [{ questionId: q[2], value: "x", version: 1.5 }] }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "answers.0.version",
      },
      {
        name: "a deviceId with a space",
        body: (q) => ({ deviceId: "my phone", answers: [{ questionId: q[2], value: "x", version: 1 }] }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "deviceId",
      },
      {
        name: "a deviceId of 65 characters",
        body: (q) => ({ deviceId: "d".repeat(65), answers: [{ questionId: q[2], value: "x", version: 1 }] }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "deviceId",
      },
      {
        // null is a cleared answer (tested below); a boolean is no answer of any type.
        name: "a boolean value",
        body: (q) => ({ deviceId: "d", answers: [{ questionId: q[2], value: true, version: 1 }] }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "answers.0.value",
      },
      {
        name: "more answers than questions",
        body: (q) => ({
          deviceId: "d",
          answers: Array.from({ length: 6 }, (_, i) => ({ questionId: q[2], value: "x", version: i + 1 })),
        }),
        status: 422,
        code: "VALIDATION_FAILED",
        path: "answers",
      },
    ];
    for (const testCase of cases) {
      it(`${testCase.name} → ${testCase.status}`, async () => {
        const attempt = await startedAttempt();
        const before = await snapshot(attempt.attemptId);
        const response = await autosave(attempt, testCase.body(attempt.questions.map((q) => q.id)));
        expect(response.status).toBe(testCase.status);
        expect(response.body.error.code).toBe(testCase.code);
        if (testCase.path)
          expect(response.body.error.details.issues.map((i: { path: string }) => i.path)).toContain(testCase.path);
        expect(await snapshot(attempt.attemptId)).toEqual(before);
      });
    }

    it("malformed JSON → 400, over 1 MB → 413, no session → 401, another candidate's attempt → 404", async () => {
      const attempt = await startedAttempt();
      const other = await startedAttempt();
      const before = await snapshot(attempt.attemptId);
      const malformed = await call(answersRoute, {
        params: { attemptId: attempt.attemptId },
        cookie: attempt.cookie,
        raw: '{"deviceId":',
      });
      expect(malformed.status).toBe(400);
      const huge = await autosave(attempt, {
        deviceId: "d",
        answers: [{ questionId: attempt.questions[3]!.id, value: "x".repeat(1_100_000), version: 1 }],
      });
      expect(huge.status).toBe(413);
      const anonymous = await call(answersRoute, {
        params: { attemptId: attempt.attemptId },
        json: { deviceId: "d", answers: [] },
      });
      expect(anonymous.status).toBe(401);
      const peek = await autosave(
        { attemptId: attempt.attemptId, cookie: other.cookie },
        { deviceId: "d", answers: [{ questionId: attempt.questions[2]!.id, value: "x", version: 1 }] },
      );
      expect(peek.status).toBe(404);
      expect(peek.body).toEqual({ error: { code: "NOT_FOUND", message: "No such attempt." } });
      expect(await snapshot(attempt.attemptId)).toEqual(before);
    });

    // The delta is validated against the caller's own exam before the attempt is read, and the write is
    // scoped to the caller's enrollment in the same statement: a delta that is valid for the caller's
    // exam, sent to someone else's attempt, must still apply nothing and answer 404.
    it("another candidate's attempt with a delta valid for the caller's own exam → 404, nothing applied", async () => {
      const attempt = await startedAttempt();
      const other = await startedAttempt();
      const before = await snapshot(attempt.attemptId);
      const otherBefore = await snapshot(other.attemptId);
      const valid = { deviceId: "d", answers: [{ questionId: other.questions[2]!.id, value: "x", version: 1 }] };
      const response = await autosave({ attemptId: attempt.attemptId, cookie: other.cookie }, valid);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: "NOT_FOUND", message: "No such attempt." } });
      expect(await snapshot(attempt.attemptId)).toEqual(before);
      expect(await snapshot(other.attemptId)).toEqual(otherBefore);
      const missing = await autosave({ attemptId: randomUUID(), cookie: other.cookie }, valid);
      expect(missing.status).toBe(404);
    });
  });

  // The autosave checks a session this process already knows in its own statement (route.ts,
  // `foldsSessionCheck`) instead of reading it first. Each case warms that knowledge with a save that succeeds,
  // then ends the session behind this process's back, as another instance (or an admin) would.
  describe("a session ended since this process last read it", () => {
    // Each request is the first after the session ended (a 401 makes this process forget the session, and the
    // next request would read it again): a valid delta, which the statement itself refuses; then requests that
    // fail before the statement runs, where 401 must still come first.
    type Started = Awaited<ReturnType<typeof startedAttempt>>;
    const requests: Record<string, (attempt: Started, other: Started) => ReturnType<typeof autosave>> = {
      "a valid delta": (attempt) =>
        autosave(attempt, {
          deviceId: "d",
          answers: [{ questionId: attempt.questions[2]!.id, value: "second", version: 2 }],
        }),
      "a delta the exam refuses": (attempt) =>
        autosave(attempt, {
          deviceId: "d",
          answers: [{ questionId: attempt.questions[2]!.id, value: { not: "text" }, version: 3 }],
        }),
      "a body of the wrong shape": (attempt) => autosave(attempt, { deviceId: "d", answers: "none" }),
      "someone else's attempt": (attempt, other) =>
        autosave(
          { attemptId: other.attemptId, cookie: attempt.cookie },
          { deviceId: "d", answers: [{ questionId: other.questions[2]!.id, value: "x", version: 1 }] },
        ),
      "no such attempt": (attempt) =>
        autosave(
          { attemptId: randomUUID(), cookie: attempt.cookie },
          { deviceId: "d", answers: [{ questionId: attempt.questions[2]!.id, value: "x", version: 4 }] },
        ),
    };

    eachRequestOnceTheSessionEnded({
      requests,
      state: snapshot,
      unchanged: "nothing applied",
      also: async (attempt) => expect((await paper(attempt.attemptId))[attempt.questions[2]!.id]?.value).toBe("first"),
    });

    it("a session still valid keeps saving, one save after another (the statement confirms it each time)", async () => {
      const attempt = await startedAttempt();
      for (let version = 1; version <= 3; version += 1) {
        const response = await autosave(attempt, {
          deviceId: "d",
          answers: [{ questionId: attempt.questions[2]!.id, value: `v${version}`, version }],
        });
        expect(response.status).toBe(200);
        expect(response.body.results).toEqual([{ questionId: attempt.questions[2]!.id, status: "applied", version }]);
      }
      expect((await paper(attempt.attemptId))[attempt.questions[2]!.id]).toEqual({
        value: "v3",
        version: 3,
        deviceId: "d",
      });
    });

    it("a new session of the same candidate (the join link opened again) saves at once", async () => {
      const attempt = await startedAttempt();
      await autosave(attempt, {
        deviceId: "d",
        answers: [{ questionId: attempt.questions[2]!.id, value: "old", version: 1 }],
      });
      await SESSION_ENDINGS["signed out"](attempt);
      expect(
        (
          await autosave(attempt, {
            deviceId: "d",
            answers: [{ questionId: attempt.questions[2]!.id, value: "x", version: 2 }],
          })
        ).status,
      ).toBe(401);
      const enrollment = await db.enrollment.findUniqueOrThrow({ where: { id: attempt.enrollmentId } });
      expect(enrollment.joinRevokedAt).toBeNull();
      const session = await createSession({ kind: "candidate", enrollmentId: attempt.enrollmentId });
      const again = await autosave(
        { attemptId: attempt.attemptId, cookie: `${attempt.cookie.split("=")[0]}=${session.token}` },
        { deviceId: "d", answers: [{ questionId: attempt.questions[2]!.id, value: "new", version: 3 }] },
      );
      expect(again.status).toBe(200);
      expect((await paper(attempt.attemptId))[attempt.questions[2]!.id]?.value).toBe("new");
    });
  });

  // Found by `npm run bench -- bad-input`. Bug: a valid delta sent as text/plain (or a form, or with no
  // Content-Type) was applied, and a body with invalid UTF-8 had the bad bytes turned into U+FFFD and
  // stored. Cause: readJsonBody decoded leniently and never looked at Content-Type. Fix: bytes are decoded
  // fatally (400) and a JSON body must be labelled JSON (415); nothing is applied either way.
  describe("bodies that are not labelled JSON or not UTF-8", () => {
    it("a valid delta as text/plain, a form or unlabelled → 415; invalid UTF-8 → 400; nothing applied", async () => {
      const attempt = await startedAttempt();
      const before = await snapshot(attempt.attemptId);
      const delta = JSON.stringify({
        deviceId: "laptop",
        answers: [{ questionId: attempt.questions[2]!.id, value: "sent as text", version: 9 }],
      });
      for (const type of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded", undefined]) {
        const response = await call(answersRoute, {
          params: { attemptId: attempt.attemptId },
          cookie: attempt.cookie,
          raw: new TextEncoder().encode(delta),
          headers: type ? { "content-type": type } : {},
        });
        expect(response.status).toBe(415);
        expect(response.body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
      }
      const bytes = new TextEncoder().encode(delta.replace("sent as text", "\u0001"));
      const invalid = new Uint8Array([
        ...bytes.subarray(0, bytes.indexOf(0x5c)),
        0xff,
        ...bytes.subarray(bytes.indexOf(0x5c) + 6),
      ]);
      const notUtf8 = await call(answersRoute, {
        params: { attemptId: attempt.attemptId },
        cookie: attempt.cookie,
        raw: invalid,
        headers: { "content-type": "application/json" },
      });
      expect(notUtf8.status).toBe(400);
      expect(await snapshot(attempt.attemptId)).toEqual(before);
    });

    it("the same delta labelled application/json is applied", async () => {
      const attempt = await startedAttempt();
      const response = await call(answersRoute, {
        params: { attemptId: attempt.attemptId },
        cookie: attempt.cookie,
        raw: JSON.stringify({
          deviceId: "laptop",
          answers: [{ questionId: attempt.questions[2]!.id, value: "sent as JSON", version: 9 }],
        }),
        headers: { "content-type": "application/json; charset=utf-8" },
      });
      expect(response.status).toBe(200);
      expect((await paper(attempt.attemptId))[attempt.questions[2]!.id]!.value).toBe("sent as JSON");
    });
  });

  // Found by `npm run bench -- bad-input`. Bug: a text answer with a NUL or an unpaired surrogate was a 500
  // (Postgres refuses both in jsonb), and the client retries a 500 forever, holding back the valid answers of
  // the same delta. Cause: answerValueProblem checked type and length only. Fix: such text is a 422.
  it("a text answer with a NUL or an unpaired surrogate → 422, nothing of the delta applied", async () => {
    const attempt = await startedAttempt();
    const before = await snapshot(attempt.attemptId);
    const [, , short, essay, numeric] = attempt.questions;
    for (const value of ["a\u0000b", "\ud800", "tail \udfff"]) {
      for (const question of [short!, essay!]) {
        const response = await autosave(attempt, {
          deviceId: "laptop",
          answers: [
            { questionId: numeric!.id, value: 7, version: 3 },
            { questionId: question.id, value, version: 4 },
          ],
        });
        expect(response.status).toBe(422);
        expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([
          "answers.1.value",
        ]);
      }
    }
    expect(await snapshot(attempt.attemptId)).toEqual(before);
    const astral = await autosave(attempt, {
      deviceId: "laptop",
      answers: [{ questionId: essay!.id, value: "emoji 😀 and 𝓼𝓬𝓻𝓲𝓹𝓽", version: 5 }],
    });
    expect(astral.status).toBe(200);
  });

  // Found by `npm run bench -- bad-input`. Bug: a multiple-choice value nested 100,000 arrays deep was a 500:
  // the check serialised the bad element to name it in the message. Fix: it is described by its type.
  it("a multiple-choice value nested very deeply → 422, nothing applied", async () => {
    const attempt = await startedAttempt();
    const before = await snapshot(attempt.attemptId);
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const response = await call(answersRoute, {
      params: { attemptId: attempt.attemptId },
      cookie: attempt.cookie,
      raw: `{"deviceId":"laptop","answers":[{"questionId":"${attempt.questions[1]!.id}","value":${deep},"version":2}]}`,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details.issues).toEqual([
      { path: "answers.0.value", message: "has a list where an option id belongs" },
    ]);
    expect(await snapshot(attempt.attemptId)).toEqual(before);
  });

  it("after submit: 409 ALREADY_SUBMITTED with the submission id, and the edit kept as a late answer", async () => {
    const attempt = await startedAttempt();
    const question = attempt.questions[2]!.id;
    const submitted = await submit(
      attempt,
      { deviceId: "laptop", answers: [{ questionId: question, value: "final", version: 1 }] },
      randomUUID(),
    );
    expect(submitted.status).toBe(200);

    const late = await autosave(attempt, {
      deviceId: "phone",
      answers: [{ questionId: question, value: "too late", version: 9, editedAt: "2026-11-29T10:00:00Z" }],
    });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("ALREADY_SUBMITTED");
    expect(late.body.error.details.submissionId).toBe(submitted.body.submissionId);
    expect((await paper(attempt.attemptId))[question]!.value).toBe("final");
    const kept = await db.lateAnswer.findMany({ where: { attemptId: attempt.attemptId } });
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      questionId: question,
      value: "too late",
      version: 9,
      deviceId: "phone",
      via: "autosave",
    });
    expect(kept[0]!.clientEditedAt?.toISOString()).toBe("2026-11-29T10:00:00.000Z");
  });

  it("after deadline + grace: 409 DEADLINE_PASSED, the attempt auto-submitted with what it held, the edit kept late", async () => {
    const attempt = await startedAttempt({ graceSeconds: 0 });
    const question = attempt.questions[2]!.id;
    await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: question, value: "in time", version: 1 }] });
    await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 1000) } });

    const late = await autosave(attempt, {
      deviceId: "laptop",
      answers: [{ questionId: question, value: "after time", version: 2 }],
    });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("DEADLINE_PASSED");
    expect(late.body.error.details).toMatchObject({
      submissionId: expect.any(String),
      deadline: expect.any(String),
      serverTime: expect.any(String),
    });
    const submission = await db.submission.findUniqueOrThrow({ where: { attemptId: attempt.attemptId } });
    expect(submission.source).toBe("auto");
    expect((await paper(attempt.attemptId))[question]!.value).toBe("in time");
    expect(await db.lateAnswer.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
  });

  it("within the grace period, a save is still accepted", async () => {
    const attempt = await startedAttempt({ graceSeconds: 60 });
    await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 5_000) } });
    const response = await autosave(attempt, {
      deviceId: "laptop",
      answers: [{ questionId: attempt.questions[2]!.id, value: "just in", version: 1 }],
    });
    expect(response.status).toBe(200);
    expect(response.body.results[0].status).toBe("applied");
  });
});

describe("convergence (guarantee 3), property-based through the real endpoint", () => {
  // Edit histories on 1–3 devices, cut into deltas as a device would send them, then delivered in any
  // order, any number of times. The final paper must hold, per question, the greatest (version,
  // deviceId) of all edits sent; the revision must never decrease. Some edits clear the answer (null): a clearing
  // converges like any other edit, and an older value delivered after it never brings the answer back.
  const deviceIds = ["phone", "Laptop", "tab_2", "tab-1"];
  const editArb = fc.record({
    device: fc.nat({ max: 2 }),
    question: fc.nat({ max: 2 }),
    text: fc.option(fc.string({ maxLength: 8 }), { nil: null, freq: 4 }),
    cut: fc.boolean(),
  });
  const historyArb = fc.record({
    devices: fc.shuffledSubarray(deviceIds, { minLength: 1, maxLength: 3 }),
    edits: fc.array(editArb, { minLength: 1, maxLength: 25 }),
    // Devices sometimes see each other's versions (after a sync), which moves their clocks forward.
    syncs: fc.array(fc.nat({ max: 24 }), { maxLength: 4 }),
    order: fc.array(fc.nat(), { minLength: 60, maxLength: 60 }),
    repeats: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 60, maxLength: 60 }),
  });

  it("ends in the same state whatever the order and duplication of deliveries", async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, async ({ devices, edits, syncs, order, repeats }) => {
        const attempt = await startedAttempt({
          questions: [0, 1, 2].map((i) => ({ type: "short_text", prompt: `Q${i}` })),
        });
        const questionIds = attempt.questions.map((q) => q.id);

        type Edit = { questionId: string; value: string | null; version: number; deviceId: string };
        const clocks = devices.map(() => 0);
        const pending = devices.map(() => new Map<string, Edit>());
        const batches: { deviceId: string; answers: Edit[] }[] = [];
        const sent: Edit[] = [];
        edits.forEach((edit, index) => {
          const d = edit.device % devices.length;
          const deviceId = devices[d]!;
          if (syncs.includes(index)) {
            const highest = Math.max(...clocks);
            for (let i = 0; i < clocks.length; i += 1) clocks[i] = highest;
          }
          clocks[d] = clocks[d]! + 1;
          pending[d]!.set(questionIds[edit.question]!, {
            questionId: questionIds[edit.question]!,
            value: edit.text,
            version: clocks[d]!,
            deviceId,
          });
          if (edit.cut || index === edits.length - 1) {
            for (let i = 0; i < devices.length; i += 1) {
              if (pending[i]!.size === 0) continue;
              const answers = [...pending[i]!.values()];
              batches.push({ deviceId: devices[i]!, answers });
              sent.push(...answers);
              pending[i]!.clear();
            }
          }
        });

        const deliveries = batches.flatMap((batch, i) => Array<typeof batch>(repeats[i % repeats.length]!).fill(batch));
        const shuffled = deliveries
          .map((batch, i) => ({ batch, key: order[i % order.length]! + i / 1000 }))
          .sort((a, b) => a.key - b.key);
        let lastRevision = 0;
        for (const { batch } of shuffled) {
          const response = await autosave(attempt, {
            deviceId: batch.deviceId,
            answers: batch.answers.map(({ questionId, value, version }) => ({ questionId, value, version })),
          });
          expect(response.status).toBe(200);
          expect(response.body.revision).toBeGreaterThanOrEqual(lastRevision);
          lastRevision = response.body.revision;
        }

        const expected: Record<string, { value: string | null; version: number; deviceId: string }> = {};
        for (const edit of sent) {
          const current = expected[edit.questionId];
          if (!current || compareEdits(edit, current) > 0)
            expected[edit.questionId] = { value: edit.value, version: edit.version, deviceId: edit.deviceId };
        }
        expect(await paper(attempt.attemptId)).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  it("converges when the same deltas arrive concurrently from several devices", async () => {
    const attempt = await startedAttempt();
    const question = attempt.questions[3]!.id;
    const deltas = Array.from({ length: 60 }, (_, i) => ({
      deviceId: ["a", "b", "c"][i % 3]!,
      // Every seventh a clearing (null), racing the values.
      answers: [{ questionId: question, value: i % 7 === 3 ? null : `v${i}`, version: (i % 20) + 1 }],
    }));
    const responses = await Promise.all(deltas.map((delta) => autosave(attempt, delta)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    // The greatest is version 20; among the devices that sent version 20 ("a" at i=19? see below) the greatest id wins.
    const winner = deltas.reduce((best, delta) =>
      compareEdits(
        { ...delta.answers[0]!, deviceId: delta.deviceId },
        { ...best.answers[0]!, deviceId: best.deviceId },
      ) > 0
        ? delta
        : best,
    );
    expect((await paper(attempt.attemptId))[question]).toEqual({
      value: winner.answers[0]!.value,
      version: winner.answers[0]!.version,
      deviceId: winner.deviceId,
    });
    const applied = responses.filter((r) => r.body.results[0].status === "applied").length;
    expect((await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } })).revision).toBe(applied);
  });
});
