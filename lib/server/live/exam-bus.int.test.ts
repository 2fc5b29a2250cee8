// The exam bus through real Redis pub/sub: dashboards hear changes, a candidate page hears only its own
// attempt's signals, and change traffic never reaches candidate pages.
import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { delayBusSubscribes } from "@/test-support/server/slow-subscribe";

import { createRedisBreaker, redisBreaker, setRedisBreaker } from "../redis/breaker";
import { getRedis } from "../redis/client";
import { redisKeys } from "../redis/keys";
import {
  publishExamChange,
  publishExamMessage,
  subscribeAttemptSignals,
  subscribeExam,
  SUBSCRIPTION_WAIT_MS,
  whenLive,
  type ExamMessage,
} from "./exam-bus";

function collector<T>() {
  const received: T[] = [];
  return { received, listener: (message: T) => void received.push(message) };
}

async function until(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting for the bus");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Publishes until the first message arrives: the subscription is being set up asynchronously. */
async function publishUntilHeard(publish: () => void, received: unknown[]): Promise<void> {
  const started = Date.now();
  while (received.length === 0) {
    if (Date.now() - started > 3_000) throw new Error("the subscription never heard anything");
    publish();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("exam bus", () => {
  it("delivers an exam's changes to its dashboards and not another exam's", async () => {
    const [examId, otherExamId, enrollmentId] = [randomUUID(), randomUUID(), randomUUID()];
    const mine = collector<ExamMessage>();
    const other = collector<ExamMessage>();
    const stopMine = subscribeExam(examId, mine.listener);
    const stopOther = subscribeExam(otherExamId, other.listener);
    await publishUntilHeard(() => publishExamChange(examId, enrollmentId, "heartbeat"), mine.received);
    expect(mine.received[0]).toEqual({ type: "change", examId, enrollmentId, kind: "heartbeat" });
    expect(other.received).toEqual([]);
    stopMine();
    stopOther();
  });

  it("routes signals to the attempt's own listeners only, and changes never reach them", async () => {
    const [examId, attemptA, attemptB] = [randomUUID(), randomUUID(), randomUUID()];
    const a = collector<ExamMessage>();
    const b = collector<ExamMessage>();
    const stopA = subscribeAttemptSignals(examId, attemptA, a.listener);
    const stopB = subscribeAttemptSignals(examId, attemptB, b.listener);
    const dashboard = collector<ExamMessage>();
    const stopDashboard = subscribeExam(examId, dashboard.listener);

    await publishUntilHeard(
      () => publishExamMessage({ type: "signal", examId, attemptId: attemptA, signal: "deadline" }),
      a.received,
    );
    publishExamChange(examId, randomUUID(), "saved");
    await until(() => dashboard.received.length > 0);
    publishExamMessage({ type: "signal", examId, attemptId: attemptB, signal: "submitted" });
    await until(() => b.received.length > 0);

    expect(a.received.every((message) => message.type === "signal" && message.attemptId === attemptA)).toBe(true);
    expect(b.received).toEqual([{ type: "signal", examId, attemptId: attemptB, signal: "submitted" }]);
    expect(dashboard.received.every((message) => message.type === "change")).toBe(true);
    stopA();
    stopB();
    stopDashboard();
  });

  it("stops delivering after unsubscribe", async () => {
    const [examId, attemptId] = [randomUUID(), randomUUID()];
    const first = collector<ExamMessage>();
    const stop = subscribeAttemptSignals(examId, attemptId, first.listener);
    await publishUntilHeard(
      () => publishExamMessage({ type: "signal", examId, attemptId, signal: "deadline" }),
      first.received,
    );
    stop();
    const heardBefore = first.received.length;
    const second = collector<ExamMessage>();
    const stopSecond = subscribeAttemptSignals(examId, attemptId, second.listener);
    await publishUntilHeard(
      () => publishExamMessage({ type: "signal", examId, attemptId, signal: "deadline" }),
      second.received,
    );
    expect(first.received.length).toBe(heardBefore);
    stopSecond();
  });

  it("a subscription is live once Redis acknowledged it, however late: a publish from another connection then reaches it", async () => {
    const slow = await delayBusSubscribes(300);
    try {
      const [examId, attemptId, enrollmentId] = [randomUUID(), randomUUID(), randomUUID()];
      const dashboard = collector<ExamMessage>();
      const page = collector<ExamMessage>();
      const started = Date.now();
      const stopDashboard = subscribeExam(examId, dashboard.listener);
      const stopPage = subscribeAttemptSignals(examId, attemptId, page.listener);
      // A second listener of the same channel shares the first one's subscription, and its moment.
      const stopSecond = subscribeAttemptSignals(examId, randomUUID(), () => undefined);
      await Promise.all([stopDashboard.live, stopPage.live, stopSecond.live]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(slow).toHaveBeenCalledTimes(2);

      const publisher = (await getRedis())!;
      const change = { type: "change", examId, enrollmentId, kind: "saved" } satisfies ExamMessage;
      const signal = { type: "signal", examId, attemptId, signal: "paused" } satisfies ExamMessage;
      expect(await publisher.publish(redisKeys.examChannel(examId), JSON.stringify(change))).toBe(1);
      expect(await publisher.publish(redisKeys.examSignalChannel(examId), JSON.stringify(signal))).toBe(1);
      await until(() => dashboard.received.length > 0 && page.received.length > 0);
      expect(dashboard.received).toEqual([change]);
      expect(page.received).toEqual([signal]);
      stopDashboard();
      stopPage();
      stopSecond();
    } finally {
      slow.mockRestore();
    }
  });

  it("whenLive waits for the acknowledgement, at most 2 s; not at all while the Redis breaker is open", async () => {
    const slow = await delayBusSubscribes(5_000);
    try {
      const waiting = subscribeExam(randomUUID(), () => undefined);
      let started = Date.now();
      await whenLive(waiting.live);
      expect(Date.now() - started).toBeGreaterThanOrEqual(SUBSCRIPTION_WAIT_MS - 10);
      expect(Date.now() - started).toBeLessThan(SUBSCRIPTION_WAIT_MS + 1_000);
      waiting();

      // Open: every publish stays in this process, where a listener is from the moment it subscribes.
      setRedisBreaker(createRedisBreaker({ timeoutMs: 50, failures: 1, halfOpenAfterMs: 60_000 }));
      await redisBreaker().run(
        () => Promise.reject(new Error("Redis is away")),
        () => undefined,
      );
      expect(redisBreaker().isOpen()).toBe(true);
      const [examId, attemptId] = [randomUUID(), randomUUID()];
      const page = collector<ExamMessage>();
      const stop = subscribeAttemptSignals(examId, attemptId, page.listener);
      started = Date.now();
      await whenLive(stop.live);
      expect(Date.now() - started).toBeLessThan(100);
      publishExamMessage({ type: "signal", examId, attemptId, signal: "paused" });
      await until(() => page.received.length > 0);
      expect(page.received).toEqual([{ type: "signal", examId, attemptId, signal: "paused" }]);
      stop();
    } finally {
      setRedisBreaker(null);
      slow.mockRestore();
    }
  });

  it("sends the messages of a moment as one PUBLISH per channel, each heard once and in order", async () => {
    const examId = randomUUID();
    const dashboard = collector<ExamMessage>();
    const stopDashboard = subscribeExam(examId, dashboard.listener);
    await whenLive(stopDashboard.live);
    // What goes over the wire, seen from a connection of its own.
    const raw = (await getRedis())!.duplicate({ enableOfflineQueue: true });
    const payloads: string[] = [];
    raw.on("message", (_channel: string, payload: string) => payloads.push(payload));
    await raw.subscribe(redisKeys.examChannel(examId));
    try {
      const enrollments = Array.from({ length: 40 }, () => randomUUID());
      for (const enrollmentId of enrollments) publishExamChange(examId, enrollmentId, "submitted");
      // The same hint again in the same moment says nothing more.
      publishExamChange(examId, enrollments[0]!, "submitted");
      await until(() => dashboard.received.length >= 40);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(dashboard.received).toEqual(
        enrollments.map((enrollmentId) => ({ type: "change", examId, enrollmentId, kind: "submitted" })),
      );
      expect(payloads).toHaveLength(1);
      expect(JSON.parse(payloads[0]!)).toHaveLength(40);

      // A message alone goes as itself, not as a batch of one (what a heartbeat's own MULTI sends too).
      publishExamChange(examId, enrollments[1]!, "saved");
      await until(() => payloads.length === 2);
      expect(JSON.parse(payloads[1]!)).toEqual({ type: "change", examId, enrollmentId: enrollments[1], kind: "saved" });
      await until(() => dashboard.received.length === 41);
    } finally {
      raw.disconnect();
      stopDashboard();
    }
  });
});
