import { randomUUID } from "node:crypto";

import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { db } from "@/lib/server/db/client";
import { EXAM_FEED_TIMINGS, examFeed, hasExamFeed, type FeedConnection } from "@/lib/server/live/exam-feed";
import { getRedis } from "@/lib/server/redis/client";
import { autosave, heartbeat, startedAttempt } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, enroll, join, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { readSse, type SseMessage, type SseReader } from "@/test-support/server/sse";
import { delayBusSubscribes } from "@/test-support/server/slow-subscribe";
import type { CandidateFacts, CandidatesSnapshot } from "@/lib/shared/schemas/proctor";

import { GET as snapshotRoute } from "../candidates/route";
import { GET as eventsRoute, POST as postRoute } from "./route";
import { busSettled } from "@/test-support/server/bus";

const open: SseReader[] = [];

async function connect(examId: string, options: { lastEventId?: string; query?: string; cookie?: string } = {}) {
  const headers = new Headers(
    options.cookie ? { cookie: options.cookie } : { authorization: `Bearer ${adminToken()}` },
  );
  if (options.lastEventId) headers.set("last-event-id", options.lastEventId);
  const controller = new AbortController();
  const request = new Request(`http://holdfast.test/api/proctor/exams/${examId}/events${options.query ?? ""}`, {
    headers,
    signal: controller.signal,
  });
  const response = await eventsRoute(request, { params: Promise.resolve({ examId }) });
  const reader = response.status === 200 ? readSse(response) : null;
  if (reader) open.push(reader);
  return { response, reader: reader!, abort: () => controller.abort() };
}

const candidatesOf = (message: SseMessage) => (message.data as { candidates: CandidateFacts[] }).candidates;
const names = (message: SseMessage) => candidatesOf(message).map((candidate) => candidate.enrollmentId);

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(client?.status).toBe("ready");
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((reader) => reader.cancel()));
});

describe("GET /api/proctor/exams/{examId}/events", () => {
  it("opens with retry and ready, as an uncached, unbuffered event stream", async () => {
    const attempt = await startedAttempt();
    const { response, reader } = await connect(attempt.examId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toContain("no-cache");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const ready = await reader.next((message) => message.event === "ready");
    expect(reader.messages[0]).toMatchObject({ event: "retry" });
    expect(ready.data).toMatchObject({ resumed: false, serverTime: expect.any(Number) });
    expect(ready.id).toMatch(/^[0-9a-z]+\.0$/);
  });

  it("sends a candidates event with the candidate within about a second of a heartbeat", async () => {
    const attempt = await startedAttempt();
    const { reader } = await connect(attempt.examId);
    await reader.next((message) => message.event === "ready");
    // The feed's bus subscription is made asynchronously on the Redis connection.
    await new Promise((resolve) => setTimeout(resolve, 200));

    const sentAt = Date.now();
    expect((await heartbeat(attempt, { online: false, pending: 4, oldestPendingMs: 1_000 })).status).toBe(200);
    // The heartbeat's event: the one naming its device. On a busy box the start's own event (published before the
    // feed subscribed, delivered after) may come first, without a device: it is not this one.
    const event = await reader.next(
      (message) => message.event === "candidates" && (candidatesOf(message)[0]?.devices.length ?? 0) > 0,
      { timeoutMs: 1_500 },
    );
    expect(Date.now() - sentAt).toBeLessThan(1_500);
    const [facts] = candidatesOf(event);
    expect(facts).toMatchObject({ enrollmentId: attempt.enrollmentId, phase: "in_progress" });
    expect(facts!.devices[0]).toMatchObject({ deviceId: "laptop", online: false, pending: 4 });
    expect((facts as unknown as { status: unknown }).status).toMatchObject({
      connection: "offline",
      sync: "pending",
      pending: 4,
    });
    const heardAs = Number(event.id?.split(".").pop());
    expect(heardAs).toBeGreaterThanOrEqual(1);

    // An autosave is an event too.
    const questionId = attempt.questions[0]!.id;
    expect(
      (await autosave(attempt, { deviceId: "laptop", answers: [{ questionId, value: "a", version: 1 }] })).status,
    ).toBe(200);
    const saved = await reader.next(
      (message) => message.event === "candidates" && candidatesOf(message)[0]!.answered === 1,
      { timeoutMs: 1_500 },
    );
    // Numbered on from the heartbeat's event.
    expect(Number(saved.id?.split(".").pop())).toBeGreaterThan(heardAs);
  });

  it("coalesces 500 heartbeats from 100 candidates into a few events that name every candidate", async () => {
    const exam = await createExam();
    const candidates = await enroll(exam.id, 100);
    const attempts: { attemptId: string; cookie: string; enrollmentId: string }[] = [];
    for (let index = 0; index < candidates.length; index += 10) {
      attempts.push(
        ...(await Promise.all(
          candidates.slice(index, index + 10).map(async (candidate) => {
            const cookie = await join(candidate.joinToken);
            const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
            return { attemptId: started.body.attemptId as string, cookie, enrollmentId: candidate.id };
          }),
        )),
      );
    }
    const { reader } = await connect(exam.id);
    await reader.next((message) => message.event === "ready");
    await new Promise((resolve) => setTimeout(resolve, 600));
    const from = reader.messages.length;

    for (let round = 0; round < 5; round += 1) {
      const statuses = await Promise.all(
        attempts.map((attempt) => heartbeat(attempt, { clock: round }).then((response) => response.status)),
      );
      expect(statuses.every((status) => status === 200)).toBe(true);
    }
    // Every candidate's last heartbeat has been sent in an event once the last event names them all.
    const seen = new Set<string>();
    await reader.next(
      (message) => {
        if (message.event === "candidates") for (const id of names(message)) seen.add(id);
        return seen.size === 100;
      },
      { timeoutMs: 5_000, from },
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    const events = reader.messages.slice(from).filter((message) => message.event === "candidates");
    console.log(`500 heartbeats from 100 candidates → ${events.length} candidates events`);
    expect(events.length).toBeLessThanOrEqual(25);
    expect(events.length).toBeLessThan(500 / 10);
  }, 60_000);

  it("replays what a reconnecting dashboard missed after its Last-Event-ID, or says it cannot", async () => {
    const attempt = await startedAttempt();
    const first = await connect(attempt.examId);
    await first.reader.next((message) => message.event === "ready");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await heartbeat(attempt, { clock: 1 })).status).toBe(200);
    const seen = await first.reader.next((message) => message.event === "candidates");
    await first.reader.cancel();

    // Missed while away (the feed lingers after its last connection).
    expect((await heartbeat(attempt, { clock: 2, pending: 1, oldestPendingMs: 10 })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 800));

    const resumed = await connect(attempt.examId, { lastEventId: seen.id });
    const ready = await resumed.reader.next((message) => message.event === "ready");
    expect(ready.data).toMatchObject({ resumed: true });
    const replayed = await resumed.reader.next((message) => message.event === "candidates");
    expect(candidatesOf(replayed)[0]!.devices[0]).toMatchObject({ pending: 1 });
    expect(replayed.id).not.toBe(seen.id);
    expect(ready.id).toBe(replayed.id);

    // The query parameter works as the header does; an unknown epoch or a future id cannot be resumed.
    const byQuery = await connect(attempt.examId, { query: `?lastEventId=${encodeURIComponent(seen.id!)}` });
    expect((await byQuery.reader.next((message) => message.event === "ready")).data).toMatchObject({ resumed: true });
    for (const lastEventId of ["zzzz.1", `${seen.id!.split(".")[0]}.999`, "garbage"]) {
      const fresh = await connect(attempt.examId, { lastEventId });
      expect((await fresh.reader.next((message) => message.event === "ready")).data).toMatchObject({ resumed: false });
    }
  });

  it("resumes from a snapshot's lastEventId", async () => {
    const attempt = await startedAttempt();
    const snapshot = await call<CandidatesSnapshot>(snapshotRoute, {
      params: { examId: attempt.examId },
      bearer: adminToken(),
    });
    expect(snapshot.body.lastEventId).toMatch(/^[0-9a-z]+\.\d+$/);
    expect((await heartbeat(attempt, { pending: 2, oldestPendingMs: 5 })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const { reader } = await connect(attempt.examId, { lastEventId: snapshot.body.lastEventId! });
    expect((await reader.next((message) => message.event === "ready")).data).toMatchObject({ resumed: true });
    expect(candidatesOf(await reader.next((message) => message.event === "candidates"))[0]!.enrollmentId).toBe(
      attempt.enrollmentId,
    );
  });

  it("a snapshot's lastEventId is taken once the feed hears the bus: a heartbeat right after it is replayed, however slow Redis is to subscribe", async () => {
    const slow = await delayBusSubscribes(400);
    try {
      const attempt = await startedAttempt();
      const snapshot = await call<CandidatesSnapshot>(snapshotRoute, {
        params: { examId: attempt.examId },
        bearer: adminToken(),
      });
      expect(snapshot.status).toBe(200);
      expect(slow).toHaveBeenCalled();
      expect((await heartbeat(attempt, { pending: 2, oldestPendingMs: 5 })).status).toBe(200);
      const { reader } = await connect(attempt.examId, { lastEventId: snapshot.body.lastEventId! });
      expect((await reader.next((message) => message.event === "ready")).data).toMatchObject({ resumed: true });
      // Well before the heal (60 s) would find it.
      const event = await reader.next((message) => message.event === "candidates", { timeoutMs: 2_000 });
      const facts = candidatesOf(event).find((candidate) => candidate.enrollmentId === attempt.enrollmentId);
      expect(facts?.devices).toEqual([expect.objectContaining({ deviceId: "laptop", pending: 2 })]);
    } finally {
      slow.mockRestore();
    }
  });

  it("heals a lost bus message: the periodic reload sends only candidates whose facts changed", async () => {
    const healMs = EXAM_FEED_TIMINGS.healMs;
    EXAM_FEED_TIMINGS.healMs = 400;
    try {
      const attempt = await startedAttempt();
      await enroll(attempt.examId, 2);
      await busSettled();
      const { reader } = await connect(attempt.examId);
      await reader.next((message) => message.event === "ready");
      // Let the feed's first load and a heal or two pass: nothing changed, nothing is sent.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(reader.messages.filter((message) => message.event === "candidates")).toEqual([]);

      // A change no message announced.
      await db.attempt.update({ where: { id: attempt.attemptId }, data: { revision: 41 } });
      const healed = await reader.next((message) => message.event === "candidates", { timeoutMs: 2_000 });
      expect(candidatesOf(healed).map((candidate) => [candidate.enrollmentId, candidate.revision])).toEqual([
        [attempt.enrollmentId, 41],
      ]);
    } finally {
      EXAM_FEED_TIMINGS.healMs = healMs;
    }
  });

  it("a snapshot seeds the feed it meets: the heal compares with that read instead of reading everyone again", async () => {
    const timings = { ...EXAM_FEED_TIMINGS };
    // The feed's own first read would come long after this test: only the snapshot can seed it.
    EXAM_FEED_TIMINGS.seedMs = 60_000;
    EXAM_FEED_TIMINGS.healMs = 400;
    try {
      const attempt = await startedAttempt();
      await enroll(attempt.examId, 2);
      const snapshot = await call<CandidatesSnapshot>(snapshotRoute, {
        params: { examId: attempt.examId },
        bearer: adminToken(),
      });
      expect(snapshot.body.candidates).toHaveLength(3);
      // A change no message announced, right after the snapshot: only a heal that compares with the
      // snapshot's read can see it (a feed that seeded itself now would take it as the starting point).
      await new Promise((resolve) => setTimeout(resolve, 50));
      await db.attempt.update({ where: { id: attempt.attemptId }, data: { revision: 17 } });
      const { reader } = await connect(attempt.examId);
      await reader.next((message) => message.event === "ready");
      const healed = await reader.next((message) => message.event === "candidates", { timeoutMs: 2_000 });
      expect(candidatesOf(healed).map((candidate) => [candidate.enrollmentId, candidate.revision])).toEqual([
        [attempt.enrollmentId, 17],
      ]);
    } finally {
      Object.assign(EXAM_FEED_TIMINGS, timings);
    }
  });

  it("drops the feed some time after its last connection is aborted", async () => {
    const lingerMs = EXAM_FEED_TIMINGS.lingerMs;
    EXAM_FEED_TIMINGS.lingerMs = 200;
    try {
      const exam = await createExam();
      const { reader, abort } = await connect(exam.id);
      await reader.next((message) => message.event === "ready");
      expect(examFeed(exam.id).connectionCount).toBe(1);
      abort();
      await reader.ended;
      expect(examFeed(exam.id).connectionCount).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(hasExamFeed(exam.id)).toBe(false);
    } finally {
      EXAM_FEED_TIMINGS.lingerMs = lingerMs;
    }
  });

  it("tells a connection that cannot keep up to resync, and closes it", async () => {
    const attempt = await startedAttempt();
    const feed = examFeed(attempt.examId);
    const sent: string[] = [];
    let isClosed = false;
    const slow: FeedConnection = {
      // Behind from the start: the ready event itself is accepted, the next one is not.
      send: (bytes) => (sent.push(new TextDecoder().decode(bytes)), sent.length < 2),
      close: () => (isClosed = true),
    };
    feed.connect(slow, null);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await heartbeat(attempt)).status).toBe(200);
    const until = Date.now() + 2_000;
    while (!isClosed && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isClosed).toBe(true);
    expect(sent.at(-1)).toMatch(/^event: resync\ndata: \{"serverTime":\d+,"reason":"too far behind"\}\n\n$/);
    expect(feed.connectionCount).toBe(0);
  });

  it("answers 404 to a proctor not assigned to the exam and for another exam's id, before any stream", async () => {
    const exam = await createExam();
    const proctor = await createStaff("proctor");
    const cookie = await signIn(proctor.email, proctor.password);
    expect((await connect(exam.id, { cookie })).response.status).toBe(404);
    expect((await connect(randomUUID())).response.status).toBe(404);
    await db.examProctor.create({ data: { examId: exam.id, staffUserId: proctor.id } });
    const assigned = await connect(exam.id, { cookie });
    expect(assigned.response.status).toBe(200);
    await assigned.reader.next((message) => message.event === "ready");

    const anonymous = await eventsRoute(new Request(`http://holdfast.test/api/proctor/exams/${exam.id}/events`), {
      params: Promise.resolve({ examId: exam.id }),
    });
    expect(anonymous.status).toBe(401);
    expect(postRoute().status).toBe(405);
  });
});
