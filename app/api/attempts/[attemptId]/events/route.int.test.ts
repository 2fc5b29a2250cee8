import { beforeAll, describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { publishExamMessage } from "@/lib/server/live/exam-bus";
import { loadCandidateFacts } from "@/lib/server/live/load-candidate-facts";
import { getRedis } from "@/lib/server/redis/client";
import { redisKeys } from "@/lib/server/redis/keys";
import { heartbeat, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { readSse } from "@/test-support/server/sse";
import { delayBusSubscribes } from "@/test-support/server/slow-subscribe";
import { deriveCandidateStatus } from "@/lib/shared/proctor/live-status";

import { POST as pauseRoute } from "@/app/api/proctor/exams/[examId]/pause/route";
import { POST as resumeRoute } from "@/app/api/proctor/exams/[examId]/resume/route";
import { call } from "@/test-support/server/http";

import { POST as reopenRoute } from "@/app/api/admin/attempts/[attemptId]/reopen/route";
import { GET as eventsRoute, POST as postRoute } from "./route";

async function connect(attempt: Pick<StartedAttempt, "attemptId" | "cookie">, query = "?deviceId=laptop") {
  const controller = new AbortController();
  const request = new Request(`http://holdfast.test/api/attempts/${attempt.attemptId}/events${query}`, {
    headers: { cookie: attempt.cookie },
    signal: controller.signal,
  });
  const response = await eventsRoute(request, { params: Promise.resolve({ attemptId: attempt.attemptId }) });
  return { response, reader: response.status === 200 ? readSse(response) : null, abort: () => controller.abort() };
}

/** An admin reopens the attempt for 600 s more. */
function reopen(attemptId: string, reason: string): Promise<Response> {
  return reopenRoute(
    new Request(`http://holdfast.test/api/admin/attempts/${attemptId}/reopen`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken()}`, "content-type": "application/json" },
      body: JSON.stringify({ reason, seconds: 600 }),
    }),
    { params: Promise.resolve({ attemptId }) },
  );
}

async function waitFor<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 2_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await read();
  }
  return value;
}

const openSpans = (attemptId: string) => db.deviceOfflineSpan.findMany({ where: { attemptId, endedAt: null } });
const presence = async (attemptId: string) =>
  (await getRedis())!.hget(redisKeys.heartbeats(attemptId), "presence:laptop");

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(client?.status).toBe("ready");
});

describe("GET /api/attempts/{attemptId}/events", () => {
  it("opens with ready, then forwards a new deadline and a submission made elsewhere", async () => {
    const attempt = await startedAttempt();
    const { response, reader } = await connect(attempt);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const stored = await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } });
    const ready = await reader!.next((message) => message.event === "ready");
    expect(ready.data).toEqual({
      serverTime: expect.any(String),
      deadline: stored.deadline.toISOString(),
      status: "in_progress",
      pausedAt: null,
      pauseReason: null,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));

    const extended = new Date(stored.deadline.getTime() + 600_000);
    await db.attempt.update({ where: { id: attempt.attemptId }, data: { deadline: extended } });
    publishExamMessage({ type: "signal", examId: attempt.examId, attemptId: attempt.attemptId, signal: "deadline" });
    const deadline = await reader!.next((message) => message.event === "deadline");
    expect(deadline.data).toEqual({ serverTime: expect.any(String), deadline: extended.toISOString() });

    // Another attempt's signal is not this page's business.
    publishExamMessage({
      type: "signal",
      examId: attempt.examId,
      attemptId: "00000000-0000-4000-8000-000000000000",
      signal: "submitted",
    });
    publishExamMessage({ type: "signal", examId: attempt.examId, attemptId: attempt.attemptId, signal: "submitted" });
    const submitted = await reader!.next((message) => message.event === "submitted");
    expect(submitted.data).toEqual({ serverTime: expect.any(String) });
    expect(reader!.messages.filter((message) => message.event === "submitted")).toHaveLength(1);
    await reader!.cancel();
  });

  it("tells an open page when the candidate submits from another device", async () => {
    const attempt = await startedAttempt();
    const { reader } = await connect(attempt, "?deviceId=phone");
    await reader!.next((message) => message.event === "ready");
    expect((await submit(attempt, { deviceId: "laptop" }, "key-elsewhere")).status).toBe(200);
    const submitted = await reader!.next((message) => message.event === "submitted");
    expect(submitted.data).toEqual({ serverTime: expect.any(String) });
    await reader!.cancel();
  });

  it("forwards a pause with its reason and a resume with the moved deadline; ready tells a reconnecting page", async () => {
    const attempt = await startedAttempt();
    const { reader } = await connect(attempt);
    await reader!.next((message) => message.event === "ready");

    const paused = await call(pauseRoute, {
      params: { examId: attempt.examId },
      json: { reason: "Fire alarm" },
      bearer: adminToken(),
    });
    const pausedEvent = await reader!.next((message) => message.event === "paused");
    expect(pausedEvent.data).toEqual({
      serverTime: expect.any(String),
      pausedAt: paused.body.pausedAt,
      reason: "Fire alarm",
    });
    const again = await connect(attempt, "?deviceId=phone");
    expect((await again.reader!.next((message) => message.event === "ready")).data).toMatchObject({
      pausedAt: paused.body.pausedAt,
      pauseReason: "Fire alarm",
    });
    await again.reader!.cancel();

    await call(resumeRoute, { params: { examId: attempt.examId }, json: {}, bearer: adminToken() });
    const stored = await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId } });
    const resumed = await reader!.next((message) => message.event === "resumed");
    expect(resumed.data).toEqual({ serverTime: expect.any(String), deadline: stored.deadline.toISOString() });
    await reader!.cancel();
  });

  it("says ready only once its subscription is live: a pause made right after ready is heard, however slow Redis is to subscribe", async () => {
    // Redis acknowledges this exam channel's SUBSCRIBE 400 ms late (the bus's real connection, delayed): a stream
    // that said ready before its subscription was live would miss the pause published meanwhile.
    const slow = await delayBusSubscribes(400);
    try {
      const attempt = await startedAttempt();
      const { reader } = await connect(attempt);
      expect((await reader!.next((message) => message.event === "ready")).data).toMatchObject({ pausedAt: null });
      const paused = await call(pauseRoute, {
        params: { examId: attempt.examId },
        json: { reason: "Fire alarm" },
        bearer: adminToken(),
      });
      expect(paused.status).toBe(200);
      const event = await reader!.next((message) => message.event === "paused", { timeoutMs: 2_000 });
      expect(event.data).toMatchObject({ pausedAt: paused.body.pausedAt, reason: "Fire alarm" });
      expect(slow).toHaveBeenCalled();
      await reader!.cancel();
    } finally {
      slow.mockRestore();
    }
  });

  it("a pause made while the stream opens reaches the page: in ready, or as an event, never in neither", async () => {
    // Races the stream's opening (its read of the attempt, its subscription) against a proctor's pause, at
    // staggered offsets (negative: the pause starts first), each on an exam no stream of this process has
    // subscribed to yet. On this machine the pause lands before the read at the first offsets (ready says it)
    // and after it at the last (an event says it).
    const missed: number[] = [];
    for (let offsetMs = -16; offsetMs <= 4; offsetMs += 2) {
      const attempt = await startedAttempt();
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
      const pausing = sleep(offsetMs).then(() =>
        call(pauseRoute, { params: { examId: attempt.examId }, json: { reason: "Fire alarm" }, bearer: adminToken() }),
      );
      const opening = sleep(-offsetMs).then(() => connect(attempt));
      const paused = await pausing;
      expect(paused.status).toBe(200);
      const { reader } = await opening;
      const told = await reader!
        .next(
          (message) =>
            (message.event === "ready" && (message.data as { pausedAt: string | null }).pausedAt !== null) ||
            message.event === "paused",
          { timeoutMs: 1_500 },
        )
        .catch(() => null);
      if (told === null) missed.push(offsetMs);
      await reader!.cancel();
    }
    expect(missed).toEqual([]);
  });

  it("tells an open page, still on its receipt, that an admin reopened the attempt, with the new deadline", async () => {
    const attempt = await startedAttempt();
    expect((await submit(attempt, { deviceId: "laptop" }, "key-before-reopen")).status).toBe(200);
    const { reader } = await connect(attempt);
    await reader!.next((message) => message.event === "submitted");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const reopened = await reopen(attempt.attemptId, "force-submitted by mistake");
    expect(reopened.status).toBe(200);
    const { deadline } = (await reopened.json()) as { deadline: string };
    const event = await reader!.next((message) => message.event === "reopened");
    expect(event.data).toEqual({ serverTime: expect.any(String), deadline });
    await reader!.cancel();
  });

  it("says submitted at once when the attempt already is", async () => {
    const attempt = await startedAttempt();
    expect((await submit(attempt, { deviceId: "laptop" }, "key-1")).status).toBe(200);
    const { reader } = await connect(attempt);
    expect((await reader!.next((message) => message.event === "ready")).data).toMatchObject({ status: "submitted" });
    await reader!.next((message) => message.event === "submitted");
    await reader!.cancel();
  });

  it("a stream that told its page 'submitted' closes without a span (presence still marked); after 'reopened', with one", async () => {
    const attempt = await startedAttempt();
    const first = await connect(attempt);
    await first.reader!.next((message) => message.event === "ready");
    expect((await submit(attempt, { deviceId: "laptop" }, "key-closed-1")).status).toBe(200);
    await first.reader!.next((message) => message.event === "submitted");
    const closedAt = Date.now();
    first.abort();
    await first.reader!.ended;
    await waitFor(
      () => presence(attempt.attemptId),
      (value) => Number(value) >= closedAt,
    );
    expect(Number(await presence(attempt.attemptId))).toBeGreaterThanOrEqual(closedAt);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await openSpans(attempt.attemptId)).toEqual([]);

    // Reopened while a stream is open: that stream's close is an in-progress attempt's again.
    const second = await connect(attempt);
    await second.reader!.next((message) => message.event === "ready");
    const reopened = await reopen(attempt.attemptId, "submitted by mistake");
    expect(reopened.status).toBe(200);
    await second.reader!.next((message) => message.event === "reopened");
    second.abort();
    await second.reader!.ended;
    expect(
      await waitFor(
        () => openSpans(attempt.attemptId),
        (rows) => rows.length === 1,
      ),
    ).toMatchObject([{ deviceId: "laptop", cause: "disconnected", endedAt: null }]);
  });

  it("marks the device disconnected with an offline span when the stream closes, and connected when it opens again", async () => {
    const attempt = await startedAttempt();
    expect((await heartbeat(attempt)).status).toBe(200);
    const first = await connect(attempt);
    await first.reader!.next((message) => message.event === "ready");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await presence(attempt.attemptId)).toBeNull();
    expect(await openSpans(attempt.attemptId)).toEqual([]);

    const closedAt = Date.now();
    first.abort();
    await first.reader!.ended;
    const spans = await waitFor(
      () => openSpans(attempt.attemptId),
      (rows) => rows.length === 1,
    );
    expect(spans).toMatchObject([{ deviceId: "laptop", cause: "disconnected", endedAt: null }]);
    expect(Number(await presence(attempt.attemptId))).toBeGreaterThanOrEqual(closedAt);
    const [facts] = await loadCandidateFacts({ examId: attempt.examId, enrollmentIds: [attempt.enrollmentId] });
    expect(facts!.devices[0]!.disconnectedAt).toBeGreaterThanOrEqual(closedAt);
    expect(deriveCandidateStatus(facts!, Date.now()).connection).toBe("offline");

    const again = await connect(attempt);
    await again.reader!.next((message) => message.event === "ready");
    expect(
      await waitFor(
        () => openSpans(attempt.attemptId),
        (rows) => rows.length === 0,
      ),
    ).toEqual([]);
    expect(
      await waitFor(
        () => presence(attempt.attemptId),
        (value) => value === null,
      ),
    ).toBeNull();
    await again.reader!.cancel();
  });

  it("a second stream of the same device keeps it connected when the first closes", async () => {
    const attempt = await startedAttempt();
    const first = await connect(attempt);
    const second = await connect(attempt);
    await first.reader!.next((message) => message.event === "ready");
    await second.reader!.next((message) => message.event === "ready");
    await first.reader!.cancel();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await presence(attempt.attemptId)).toBeNull();
    await second.reader!.cancel();
    expect(
      await waitFor(
        () => presence(attempt.attemptId),
        (value) => value !== null,
      ),
    ).not.toBeNull();
  });

  it("answers 404 for someone else's attempt before checking the device id, 422 for a bad device id", async () => {
    const mine = await startedAttempt();
    const theirs = await startedAttempt();
    const foreign = await connect({ attemptId: theirs.attemptId, cookie: mine.cookie }, "?deviceId=bad id");
    expect(foreign.response.status).toBe(404);
    for (const query of ["", "?deviceId=", "?deviceId=has%20space", `?deviceId=${"x".repeat(65)}`]) {
      const bad = await connect(mine, query);
      expect(bad.response.status).toBe(422);
      const body = await bad.response.json();
      expect(body.error.code).toBe("VALIDATION_FAILED");
      expect(body.error.details.issues[0].path).toBe("deviceId");
    }
    const anonymous = await eventsRoute(
      new Request(`http://holdfast.test/api/attempts/${mine.attemptId}/events?deviceId=laptop`),
      {
        params: Promise.resolve({ attemptId: mine.attemptId }),
      },
    );
    expect(anonymous.status).toBe(401);
    expect(postRoute().status).toBe(405);
  });
});
