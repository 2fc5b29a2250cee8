import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { GET as exportKeyRoute } from "@/app/api/attempts/[attemptId]/export-key/route";
import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken, createStaff, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import {
  encryptEmergencyExport,
  fromBase64url,
  toBase64url,
  type EmergencyExportFile,
} from "@/lib/shared/emergency-export";

import { POST as uploadRoute } from "./route";

/** What the candidate's browser does: fetch the attempt's key (as the candidate), encrypt the unsynced drafts. */
async function exportFile(
  attempt: StartedAttempt,
  deviceId: string,
  answers: { questionId: string; value: unknown; version: number; editedAt?: string }[],
): Promise<EmergencyExportFile> {
  const key = await call(exportKeyRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie });
  expect(key.status).toBe(200);
  return encryptEmergencyExport({
    publicKey: key.body.publicKey,
    payload: {
      v: 1,
      attemptId: attempt.attemptId,
      deviceId,
      createdAt: new Date().toISOString(),
      answers: answers as { questionId: string; value: string; version: number; editedAt?: string }[],
    },
  });
}

function upload(file: unknown, auth: { bearer?: string; cookie?: string } = { bearer: adminToken() }) {
  return call(uploadRoute, { path: "/api/admin/emergency-exports", json: file, ...auth });
}

async function snapshot(attemptId: string) {
  const attempt = await db.attempt.findUniqueOrThrow({
    where: { id: attemptId },
    select: { revision: true, status: true },
  });
  const answers = await db.answer.findMany({
    where: { attemptId },
    select: { questionId: true, value: true, version: true, deviceId: true },
    orderBy: { questionId: "asc" },
  });
  const late = await db.lateAnswer.findMany({
    where: { attemptId },
    select: { questionId: true, value: true, version: true, deviceId: true, via: true },
    orderBy: { questionId: "asc" },
  });
  const audits = await db.auditEvent.count({ where: { attemptId, action: "emergency_export.imported" } });
  return { ...attempt, answers, late, audits };
}

describe("POST /api/admin/emergency-exports", () => {
  it("applies a file to an open attempt by the version rule, and a second upload changes nothing", async () => {
    const attempt = await startedAttempt();
    const [single, , short, essay] = attempt.questions;
    // The server already holds a newer edit of `short` (from another device) and an older one of `essay`.
    await autosave(attempt, {
      deviceId: "phone",
      answers: [
        { questionId: short!.id, value: "newer", version: 9 },
        { questionId: essay!.id, value: "older", version: 1 },
      ],
    });

    const file = await exportFile(attempt, "laptop", [
      { questionId: single!.id, value: "a", version: 3 },
      { questionId: short!.id, value: "offline", version: 4 },
      { questionId: essay!.id, value: "offline essay", version: 5, editedAt: "2026-11-29T10:00:00Z" },
    ]);
    const first = await upload(file);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      attemptId: attempt.attemptId,
      examId: attempt.examId,
      deviceId: "laptop",
      mode: "applied",
      counts: { applied: 2, duplicate: 0, stale: 1, late: 0 },
    });
    expect(first.body.candidate.email).toMatch(/@example\.test$/);

    const after = await snapshot(attempt.attemptId);
    const byQuestion = Object.fromEntries(after.answers.map((row) => [row.questionId, row]));
    expect(byQuestion[single!.id]).toMatchObject({ value: "a", version: 3, deviceId: "laptop" });
    expect(byQuestion[short!.id]).toMatchObject({ value: "newer", version: 9, deviceId: "phone" });
    expect(byQuestion[essay!.id]).toMatchObject({ value: "offline essay", version: 5, deviceId: "laptop" });
    expect(after.audits).toBe(1);

    const second = await upload(file);
    expect(second.status).toBe(200);
    expect(second.body.counts).toEqual({ applied: 0, duplicate: 2, stale: 1, late: 0 });
    const again = await snapshot(attempt.attemptId);
    expect({ ...again, audits: 0 }).toEqual({ ...after, audits: 0 });
  });

  it("keeps a file for a submitted attempt as late answers (via 'export'), once, and never changes the paper", async () => {
    const attempt = await startedAttempt();
    const [, multiple, short] = attempt.questions;
    const submitted = await submit(
      attempt,
      { deviceId: "phone", answers: [{ questionId: short!.id, value: "submitted", version: 1 }] },
      randomUUID(),
    );
    expect(submitted.status).toBe(200);

    const file = await exportFile(attempt, "laptop", [
      { questionId: short!.id, value: "written offline", version: 2, editedAt: "2026-11-29T10:00:00Z" },
      { questionId: multiple!.id, value: ["a", "c"], version: 3 },
    ]);
    const first = await upload(file);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ mode: "late", counts: { applied: 0, duplicate: 0, stale: 0, late: 2 } });
    const after = await snapshot(attempt.attemptId);
    expect(after.answers).toEqual([expect.objectContaining({ questionId: short!.id, value: "submitted" })]);
    expect(after.late).toHaveLength(2);
    expect(after.late.every((row) => row.via === "export" && row.deviceId === "laptop")).toBe(true);
    const kept = await db.lateAnswer.findFirstOrThrow({
      where: { attemptId: attempt.attemptId, questionId: short!.id },
    });
    expect(kept.clientEditedAt?.toISOString()).toBe("2026-11-29T10:00:00.000Z");

    const second = await upload(file);
    expect(second.status).toBe(200);
    expect(second.body.counts).toEqual({ applied: 0, duplicate: 2, stale: 0, late: 0 });
    expect((await snapshot(attempt.attemptId)).late).toEqual(after.late);
  });

  it("freezes an overdue attempt first (as an autosave would) and keeps the file as late answers", async () => {
    const attempt = await startedAttempt();
    await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: new Date(Date.now() - 120_000) } });
    const file = await exportFile(attempt, "laptop", [
      { questionId: attempt.questions[2]!.id, value: "late", version: 1 },
    ]);
    const response = await upload(file);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ mode: "late", counts: { late: 1 } });
    const after = await snapshot(attempt.attemptId);
    expect(after.status).toBe("submitted");
    expect(after.answers).toEqual([]);
    expect(
      await db.submission.findUniqueOrThrow({ where: { attemptId: attempt.attemptId }, select: { source: true } }),
    ).toEqual({ source: "auto" });
  });

  it("two uploads of one file at once store its late answers once", async () => {
    const attempt = await startedAttempt();
    await submit(attempt, { deviceId: "phone", answers: [] }, randomUUID());
    const file = await exportFile(attempt, "laptop", [
      { questionId: attempt.questions[2]!.id, value: "x", version: 4 },
    ]);
    const responses = await Promise.all(Array.from({ length: 5 }, () => upload(file)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await db.lateAnswer.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
  });

  describe("a proctor", () => {
    it("assigned to the exam may upload; another exam's proctor gets 404 and nothing changes", async () => {
      const attempt = await startedAttempt();
      const assigned = await createStaff("proctor");
      const stranger = await createStaff("proctor");
      await db.examProctor.create({ data: { examId: attempt.examId, staffUserId: assigned.id } });
      const other = await startedAttempt();
      await db.examProctor.create({ data: { examId: other.examId, staffUserId: stranger.id } });
      const file = await exportFile(attempt, "laptop", [
        { questionId: attempt.questions[2]!.id, value: "x", version: 1 },
      ]);

      const before = await snapshot(attempt.attemptId);
      const refused = await upload(file, { cookie: await signIn(stranger.email, stranger.password) });
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ error: { code: "NOT_FOUND", message: "No such attempt." } });
      expect(await snapshot(attempt.attemptId)).toEqual(before);

      const accepted = await upload(file, { cookie: await signIn(assigned.email, assigned.password) });
      expect(accepted.status).toBe(200);
      const audit = await db.auditEvent.findFirstOrThrow({
        where: { attemptId: attempt.attemptId, action: "emergency_export.imported" },
      });
      expect(audit).toMatchObject({ actorType: "staff", actorId: assigned.id, examId: attempt.examId });
    });
  });

  describe("refusals: 4xx, and the database unchanged", () => {
    it("garbage, a changed ciphertext, another attempt's file, bad answers, no credentials", async () => {
      const attempt = await startedAttempt();
      const other = await startedAttempt();
      await autosave(attempt, {
        deviceId: "phone",
        answers: [{ questionId: attempt.questions[2]!.id, value: "kept", version: 1 }],
      });
      const before = await snapshot(attempt.attemptId);
      const otherBefore = await snapshot(other.attemptId);
      const good = await exportFile(attempt, "laptop", [
        { questionId: attempt.questions[2]!.id, value: "x", version: 2 },
      ]);
      const bytes = fromBase64url(good.ciphertext);
      bytes[3] = (bytes[3] ?? 0) ^ 1;

      const notAFile = await upload({ hello: "world" });
      expect(notAFile.status).toBe(422);
      expect(notAFile.body.error.code).toBe("VALIDATION_FAILED");

      const notJson = await call(uploadRoute, {
        path: "/api/admin/emergency-exports",
        raw: "PK\u0003\u0004 a zip file",
        bearer: adminToken(),
      });
      expect(notJson.status).toBe(400);

      const tampered = await upload({ ...good, ciphertext: toBase64url(bytes) });
      expect(tampered.status).toBe(422);
      expect(tampered.body.error.message).toMatch(/cannot be read/);

      const moved = await upload({ ...good, attemptId: other.attemptId });
      expect(moved.status).toBe(422);

      const unknownAttempt = await upload(
        await encryptEmergencyExport({
          publicKey: (await call(exportKeyRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie }))
            .body.publicKey,
          payload: {
            v: 1,
            attemptId: attempt.attemptId,
            deviceId: "laptop",
            createdAt: new Date().toISOString(),
            answers: [{ questionId: randomUUID(), value: "x", version: 1 }],
          },
        }),
      );
      expect(unknownAttempt.status).toBe(422);
      expect(unknownAttempt.body.error.details.issues[0].path).toBe("answers.0.questionId");

      const badValue = await upload(
        await exportFile(attempt, "laptop", [{ questionId: attempt.questions[0]!.id, value: "zzz", version: 3 }]),
      );
      expect(badValue.status).toBe(422);

      const anonymous = await call(uploadRoute, { path: "/api/admin/emergency-exports", json: good });
      expect(anonymous.status).toBe(401);

      const asCandidate = await call(uploadRoute, {
        path: "/api/admin/emergency-exports",
        json: good,
        cookie: attempt.cookie,
      });
      expect(asCandidate.status).toBe(401);

      expect(await snapshot(attempt.attemptId)).toEqual(before);
      expect(await snapshot(other.attemptId)).toEqual(otherBefore);
    });

    it("over 1 MB → 413", async () => {
      const response = await call(uploadRoute, {
        path: "/api/admin/emergency-exports",
        raw: JSON.stringify({ ciphertext: "A".repeat(1_100_000) }),
        bearer: adminToken(),
      });
      expect(response.status).toBe(413);
    });
  });
});

describe("GET /api/attempts/{attemptId}/export-key", () => {
  it("gives the candidate their attempt's key, the same each time; another candidate gets 404", async () => {
    const attempt = await startedAttempt();
    const other = await startedAttempt();
    const first = await call(exportKeyRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie });
    const second = await call(exportKeyRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      attemptId: attempt.attemptId,
      v: 1,
      publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/),
    });
    expect(second.body).toEqual(first.body);

    const peek = await call(exportKeyRoute, { params: { attemptId: attempt.attemptId }, cookie: other.cookie });
    expect(peek.status).toBe(404);
    expect(peek.body).toEqual({ error: { code: "NOT_FOUND", message: "No such attempt." } });
    const anonymous = await call(exportKeyRoute, { params: { attemptId: attempt.attemptId } });
    expect(anonymous.status).toBe(401);
  });
});
