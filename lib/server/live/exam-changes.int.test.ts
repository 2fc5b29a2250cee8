// Every write a proctor's dashboard shows tells the exam's live bus, once it is done.
import { randomUUID } from "node:crypto";

import { beforeAll, describe, expect, it } from "vitest";

import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { autoSubmitOverdue } from "@/lib/server/attempts/auto-submit";
import { db } from "@/lib/server/db/client";
import { getRedis } from "@/lib/server/redis/client";
import { redisKeys } from "@/lib/server/redis/keys";
import { autosave, heartbeat, startedAttempt, submit } from "@/test-support/server/attempts";
import { createExam, enroll, join } from "@/test-support/server/fixtures";
import { busSettled } from "@/test-support/server/bus";
import { call } from "@/test-support/server/http";

import { subscribeExam, type ExamMessage } from "./exam-bus";

async function kindsAfter(examId: string, action: () => Promise<unknown>, count: number): Promise<string[]> {
  await busSettled();
  const received: ExamMessage[] = [];
  const unsubscribe = subscribeExam(examId, (message) => received.push(message));
  try {
    await new Promise((resolve) => setTimeout(resolve, 150));
    await action();
    const until = Date.now() + 2_000;
    while (received.length < count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    return received.map((message) =>
      message.type === "change" ? message.kind : message.type === "signal" ? message.signal : message.type,
    );
  } finally {
    unsubscribe();
  }
}

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
});

describe("changes published to the exam bus", () => {
  it("join, start, an applied autosave, submit and a late answer each publish one change", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id, 1);
    const questionId = exam.questions[0]!.id;
    let cookie = "";
    expect(await kindsAfter(exam.id, async () => (cookie = await join(candidate!.joinToken)), 1)).toEqual(["joined"]);

    let attemptId = "";
    expect(
      await kindsAfter(
        exam.id,
        async () => {
          attemptId = (await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie })).body
            .attemptId;
        },
        1,
      ),
    ).toEqual(["started"]);
    const attempt = { attemptId, cookie };

    expect(
      await kindsAfter(
        exam.id,
        () => autosave(attempt, { deviceId: "laptop", answers: [{ questionId, value: "a", version: 1 }] }),
        1,
      ),
    ).toEqual(["saved"]);
    // A duplicate applies nothing and says nothing.
    expect(
      await kindsAfter(
        exam.id,
        () => autosave(attempt, { deviceId: "laptop", answers: [{ questionId, value: "a", version: 1 }] }),
        0,
      ),
    ).toEqual([]);
    expect(await kindsAfter(exam.id, () => submit(attempt, { deviceId: "laptop" }, randomUUID()), 1)).toEqual([
      "submitted",
    ]);
    expect(
      await kindsAfter(
        exam.id,
        () => autosave(attempt, { deviceId: "laptop", answers: [{ questionId, value: "b", version: 2 }] }),
        1,
      ),
    ).toEqual(["late_answer"]);
  });

  it("an autosave carrying the device's status publishes one change with the status's write: saved, or heartbeat when it applied nothing; so does a heartbeat", async () => {
    const attempt = await startedAttempt();
    const questionId = attempt.questions[0]!.id;
    const device = {
      online: true,
      pending: 1,
      oldestPendingMs: 500,
      lastAckRevision: 0,
      clock: 1,
      consecutiveFailures: 0,
      storagePersisted: true,
    };
    const save = (version: number) => () =>
      autosave(attempt, { deviceId: "laptop", answers: [{ questionId, value: "a", version }], device });
    expect(await kindsAfter(attempt.examId, save(1), 1)).toEqual(["saved"]);
    // The same delta again (a retry): nothing applied, the status still kept and told once.
    expect(await kindsAfter(attempt.examId, save(1), 1)).toEqual(["heartbeat"]);
    expect(await kindsAfter(attempt.examId, () => heartbeat(attempt), 1)).toEqual(["heartbeat"]);
    // And the status itself was kept (its live copy).
    const live = await (await getRedis())!.hget(redisKeys.heartbeats(attempt.attemptId), "laptop");
    expect(live).not.toBeNull();
  });

  it("the auto-submit sweeper publishes each attempt it froze", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id, 1);
    const cookie = await join(candidate!.joinToken);
    const attemptId = (await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie })).body
      .attemptId as string;
    await db.attempt.update({ where: { id: attemptId }, data: { deadline: new Date(Date.now() - 3_600_000) } });
    expect(await kindsAfter(exam.id, () => autoSubmitOverdue(), 1)).toEqual(["submitted"]);
  });
});
