import { randomUUID } from "node:crypto";

import { beforeAll, describe, expect, it } from "vitest";

import { GET as eventsRoute } from "@/app/api/attempts/[attemptId]/events/route";
import { POST as receiptsRoute } from "@/app/api/attempts/[attemptId]/announcements/receipts/route";
import { GET as attemptRoute } from "@/app/api/attempts/[attemptId]/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { db } from "@/lib/server/db/client";
import { getRedis } from "@/lib/server/redis/client";
import { adminToken, createExam, createStaff, enroll, join, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { readSse } from "@/test-support/server/sse";

import { GET as listRoute, POST as sendRoute } from "./route";

type Auth = { bearer?: string; cookie?: string };
const admin: Auth = { bearer: adminToken() };

function send(examId: string, body: unknown, options: { auth?: Auth; key?: string } = {}) {
  const headers: Record<string, string> = options.key === undefined ? {} : { "idempotency-key": options.key };
  return call(sendRoute, { params: { examId }, json: body, ...(options.auth ?? admin), headers });
}

const list = (examId: string, auth: Auth = admin) => call(listRoute, { params: { examId }, ...auth });

/** An exam with two started candidates (A, B) and one who has not started (C). */
async function examWithCandidates() {
  const exam = await createExam({ durationSeconds: 1800 });
  const [a, b, c] = await enroll(exam.id, 3);
  const start = async (joinToken: string) => {
    const cookie = await join(joinToken);
    const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    return { attemptId: started.body.attemptId as string, cookie };
  };
  return { exam, a: a!, b: b!, c: c!, attemptA: await start(a!.joinToken), attemptB: await start(b!.joinToken) };
}

const viewOf = (attempt: { attemptId: string; cookie: string }) =>
  call(attemptRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie });

const acknowledge = (attempt: { attemptId: string; cookie: string }, body: unknown) =>
  call(receiptsRoute, { params: { attemptId: attempt.attemptId }, json: body, cookie: attempt.cookie });

const rowsOf = async (examId: string) => ({
  announcements: await db.announcement.count({ where: { examId } }),
  audits: await db.auditEvent.count({ where: { examId, action: "announcement.sent" } }),
});

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
});

describe("POST and GET /api/proctor/exams/{examId}/announcements", () => {
  it("sends to everyone: 201 with the stored message, in the attempt views, counted by receipts", async () => {
    const { exam, attemptA, attemptB } = await examWithCandidates();
    const sent = await send(exam.id, { message: "  Question 3: read 'metres' as 'meters'.  " });
    expect(sent.status).toBe(201);
    expect(sent.headers.get("idempotent-replayed")).toBeNull();
    expect(sent.body).toEqual({
      id: expect.any(String),
      message: "Question 3: read 'metres' as 'meters'.",
      sentAt: expect.any(String),
      enrollmentIds: null,
    });

    const view = await viewOf(attemptA);
    expect(view.body.announcements).toEqual([
      { id: sent.body.id, message: sent.body.message, sentAt: sent.body.sentAt },
    ]);

    // Two devices of A (one of them twice), one of B: 2 candidates, 3 devices.
    for (const [attempt, deviceId] of [
      [attemptA, "laptop"],
      [attemptA, "laptop"],
      [attemptA, "phone"],
      [attemptB, "laptop"],
    ] as const) {
      const receipt = await acknowledge(attempt, { deviceId, ids: [sent.body.id] });
      expect(receipt.status).toBe(204);
    }
    expect(await db.announcementReceipt.count({ where: { announcementId: sent.body.id } })).toBe(3);

    const listed = await list(exam.id);
    expect(listed.status).toBe(200);
    expect(listed.body.announcements).toEqual([
      {
        ...sent.body,
        sentBy: "API token",
        recipients: 3,
        receivedCandidates: 2,
        receivedDevices: 3,
      },
    ]);
  });

  it("lists newest first", async () => {
    const { exam } = await examWithCandidates();
    const first = await send(exam.id, { message: "first" });
    const second = await send(exam.id, { message: "second" });
    const listed = await list(exam.id);
    expect(listed.body.announcements.map((entry: { id: string }) => entry.id)).toEqual([second.body.id, first.body.id]);
  });

  it("a selection reaches only its candidates: the others' views and streams never see it", async () => {
    const { exam, a, c, attemptA, attemptB } = await examWithCandidates();
    const controller = new AbortController();
    const streamOf = (attempt: { attemptId: string; cookie: string }) =>
      eventsRoute(
        new Request(`http://holdfast.test/api/attempts/${attempt.attemptId}/events?deviceId=laptop`, {
          headers: { cookie: attempt.cookie },
          signal: controller.signal,
        }),
        { params: Promise.resolve({ attemptId: attempt.attemptId }) },
      );
    const readerA = readSse(await streamOf(attemptA));
    const readerB = readSse(await streamOf(attemptB));
    await readerA.next((message) => message.event === "ready");
    await readerB.next((message) => message.event === "ready");
    await new Promise((resolve) => setTimeout(resolve, 200));

    const sent = await send(exam.id, { message: "A and C: move to room 2", enrollmentIds: [c.id, a.id.toUpperCase()] });
    expect(sent.status).toBe(201);
    expect(sent.body.enrollmentIds).toEqual([a.id, c.id].sort());

    const pushed = await readerA.next((message) => message.event === "announcement");
    expect(pushed.data).toEqual({ id: sent.body.id, message: "A and C: move to room 2", sentAt: sent.body.sentAt });
    // B's stream heard the hint too (same exam) but sent nothing: a later broadcast arrives first.
    const everyone = await send(exam.id, { message: "10 minutes left" });
    const toB = await readerB.next((message) => message.event === "announcement");
    expect(toB.data).toMatchObject({ id: everyone.body.id });
    expect(readerB.messages.filter((message) => message.event === "announcement")).toHaveLength(1);
    controller.abort();

    expect((await viewOf(attemptA)).body.announcements.map((entry: { id: string }) => entry.id)).toEqual([
      sent.body.id,
      everyone.body.id,
    ]);
    expect((await viewOf(attemptB)).body.announcements.map((entry: { id: string }) => entry.id)).toEqual([
      everyone.body.id,
    ]);
    // B acknowledging the one not for them records nothing; A's counts.
    expect((await acknowledge(attemptB, { deviceId: "laptop", ids: [sent.body.id] })).status).toBe(204);
    expect((await acknowledge(attemptA, { deviceId: "laptop", ids: [sent.body.id] })).status).toBe(204);
    const listed = await list(exam.id);
    expect(listed.body.announcements[1]).toMatchObject({
      id: sent.body.id,
      recipients: 2,
      receivedCandidates: 1,
      receivedDevices: 1,
    });
    expect(listed.body.announcements[0]).toMatchObject({ recipients: 3, receivedCandidates: 0 });
  });

  it("10 parallel sends with one Idempotency-Key make one announcement; the replays say so", async () => {
    const { exam } = await examWithCandidates();
    const key = randomUUID();
    const body = { message: "Fire alarm test at 10:30, stay seated." };
    const responses = await Promise.all(Array.from({ length: 10 }, () => send(exam.id, body, { key })));
    for (const response of responses) expect(response.status).toBe(201);
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
    expect(responses.filter((response) => response.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
    expect(await rowsOf(exam.id)).toEqual({ announcements: 1, audits: 1 });

    const later = await send(exam.id, body, { key });
    expect(later.body).toEqual(responses[0]!.body);
    expect(later.headers.get("idempotent-replayed")).toBe("true");

    const reused = await send(exam.id, { message: "something else" }, { key });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await rowsOf(exam.id)).toEqual({ announcements: 1, audits: 1 });
  });

  it("records who sent it, in the same transaction, with an excerpt and the recipients", async () => {
    const { exam, a } = await examWithCandidates();
    const proctor = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: exam.id, staffUserId: proctor.id } });
    const cookie = await signIn(proctor.email, proctor.password);
    const long = "x".repeat(1500);
    const sent = await send(exam.id, { message: long, enrollmentIds: [a.id] }, { auth: { cookie } });
    expect(sent.status).toBe(201);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { examId: exam.id, action: "announcement.sent" } });
    expect(audit).toMatchObject({ actorType: "staff", actorId: proctor.id });
    expect(audit.data).toEqual({
      announcementId: sent.body.id,
      by: `Test proctor <${proctor.email}>`,
      excerpt: "x".repeat(200),
      recipients: [a.id],
      count: 1,
    });
    const stored = await db.announcement.findUniqueOrThrow({ where: { id: sent.body.id } });
    expect(stored).toMatchObject({ staffUserId: proctor.id, actorLabel: `Test proctor <${proctor.email}>` });
  });

  it.each([
    ["an empty message", { message: "" }, "message"],
    ["a message of spaces", { message: "   \n\t " }, "message"],
    ["a message over 2000 characters", { message: "y".repeat(2001) }, "message"],
    ["no message", { enrollmentIds: [] }, "message"],
    ["an empty selection", { message: "hi", enrollmentIds: [] }, "enrollmentIds"],
    ["an id that is not a uuid", { message: "hi", enrollmentIds: ["abc"] }, "enrollmentIds.0"],
  ])("%s: 422 naming the field, nothing sent", async (_name, body, path) => {
    const { exam } = await examWithCandidates();
    const response = await send(exam.id, body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("VALIDATION_FAILED");
    expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
    expect(await rowsOf(exam.id)).toEqual({ announcements: 0, audits: 0 });
  });

  it("an enrollment of another exam: 422 naming it, nothing sent", async () => {
    const { exam, a } = await examWithCandidates();
    const other = await createExam();
    const [stranger] = await enroll(other.id, 1);
    const response = await send(exam.id, { message: "hi", enrollmentIds: [a.id, stranger!.id] });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("VALIDATION_FAILED");
    expect(response.body.error.details.issues).toEqual([
      { path: "enrollmentIds.1", message: `${stranger!.id} is not a candidate of this exam` },
    ]);
    expect(await rowsOf(exam.id)).toEqual({ announcements: 0, audits: 0 });
  });

  it("an unassigned proctor or an unknown exam: 404 for both methods, nothing sent; the assigned proctor may", async () => {
    const { exam } = await examWithCandidates();
    const proctor = await createStaff("proctor");
    const cookie = await signIn(proctor.email, proctor.password);
    await send(exam.id, { message: "before" });

    const refused = [
      await send(exam.id, { message: "hi" }, { auth: { cookie } }),
      // Whatever the body: the scope is checked before the fields.
      await send(exam.id, { message: "" }, { auth: { cookie } }),
      await send(randomUUID(), { message: "hi" }),
      await list(exam.id, { cookie }),
      await list(randomUUID()),
    ];
    for (const response of refused) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("NOT_FOUND");
    }
    expect(await rowsOf(exam.id)).toEqual({ announcements: 1, audits: 1 });

    await db.examProctor.create({ data: { examId: exam.id, staffUserId: proctor.id } });
    expect((await send(exam.id, { message: "hi" }, { auth: { cookie } })).status).toBe(201);
    expect((await list(exam.id, { cookie })).body.announcements).toHaveLength(2);
  });
});

describe("POST /api/attempts/{attemptId}/announcements/receipts", () => {
  it("refuses another candidate's attempt (404) and bad bodies (422), recording nothing", async () => {
    const { exam, attemptA, attemptB } = await examWithCandidates();
    const sent = await send(exam.id, { message: "hello" });
    const forged = await acknowledge(
      { attemptId: attemptB.attemptId, cookie: attemptA.cookie },
      {
        deviceId: "laptop",
        ids: [sent.body.id],
      },
    );
    expect(forged.status).toBe(404);
    for (const body of [
      { deviceId: "laptop", ids: [] },
      { deviceId: "laptop", ids: ["nope"] },
      { deviceId: "", ids: [sent.body.id] },
      { ids: [sent.body.id] },
    ]) {
      expect((await acknowledge(attemptA, body)).status).toBe(422);
    }
    // An unknown id is ignored, the known one recorded.
    expect((await acknowledge(attemptA, { deviceId: "laptop", ids: [randomUUID(), sent.body.id] })).status).toBe(204);
    expect(await db.announcementReceipt.findMany({ where: { announcementId: sent.body.id } })).toEqual([
      expect.objectContaining({ attemptId: attemptA.attemptId, deviceId: "laptop" }),
    ]);
  });
});
