import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";

import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";

import { POST as reopenRoute } from "@/app/api/admin/attempts/[attemptId]/reopen/route";
import { GET as getExamRoute, PATCH as patchExamRoute } from "@/app/api/admin/exams/[examId]/route";
import { POST as createWebhookRoute } from "@/app/api/admin/exams/[examId]/webhooks/route";
import { POST as retryDeliveryRoute } from "@/app/api/admin/webhooks/deliveries/[deliveryId]/retry/route";
import { db } from "@/lib/server/db/client";
import { questionInputOf } from "@/lib/server/exams/question-data";
import { getMetrics } from "@/lib/server/metrics/registry";
import { setResultsReleased } from "@/lib/server/results/release-results";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken, enroll, join } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";
import { startReceiver, type Receiver } from "@/test-support/server/webhook-receiver";

import { createDeliveryWorker, runDeliveryRound, type DeliveryWorkerOptions } from "./delivery-worker";
import { deleteWebhookEndpoint } from "./delete-webhook-endpoint";
import { enqueueResultEvents } from "./enqueue-deliveries";
import { rotateWebhookSecret } from "./rotate-webhook-secret";
import { readEndpoints } from "./webhook-views";

/** Fast settings: retries within 50 ms, a 2 s timeout, a breaker that does not trip unless a test asks. */
const FAST: DeliveryWorkerOptions = {
  schedule: [0.05, 0.05, 0.05],
  timeoutMs: 2_000,
  leaseMs: 5_000,
  breakerThreshold: 100,
  breakerCooldownMs: 500,
};

const receivers: Receiver[] = [];
afterEach(async () => {
  // Leave nothing pending for the next test's rounds.
  await db.webhookDelivery.updateMany({
    where: { status: "pending" },
    data: { status: "cancelled", cancelReason: "cancelled_by_staff" },
  });
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(answer?: Receiver["answer"]): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

async function endpointFor(
  examId: string,
  url: string,
  events: string[] = ["submission.created"],
): Promise<{ id: string; secret: string }> {
  const created = await call(createWebhookRoute, {
    path: `/api/admin/exams/${examId}/webhooks`,
    params: { examId },
    bearer: adminToken(),
    json: { url, events },
  });
  expect(created.status).toBe(201);
  expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  return created.body;
}

async function submitted(attempt: StartedAttempt): Promise<void> {
  expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
}

/** Runs rounds (as the worker's timer would) until `done` holds. */
async function roundsUntil(done: () => Promise<boolean>, options: DeliveryWorkerOptions = FAST, ms = 10_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await runDeliveryRound(options);
    if (await done()) return;
    await sleep(20);
  }
  throw new Error("the deliveries never reached the expected state");
}

async function waitFor(done: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await done()) return;
    await sleep(20);
  }
  throw new Error("timed out waiting");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function deliveriesOf(endpointId: string) {
  return db.webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: "asc" } });
}

describe("webhook delivery: outbox, signatures, conditional retry", () => {
  it("a submit writes its delivery in the same transaction; a receiver failing twice gets it three times with one webhook-id, then it is delivered", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver((_, index) => (index < 2 ? { status: 503, body: "busy" } : { status: 204 }));
    const endpoint = await endpointFor(attempt.examId, hook.url);
    await submitted(attempt);
    const [pending] = await deliveriesOf(endpoint.id);
    expect(pending).toMatchObject({ status: "pending", eventType: "submission.created", attemptId: attempt.attemptId });
    expect(pending!.id).toMatch(/^msg_[0-9a-f]{32}$/);

    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "delivered");
    expect(hook.requests).toHaveLength(3);
    expect(new Set(hook.requests.map((request) => request.id))).toEqual(new Set([pending!.id]));
    const verifier = new Webhook(endpoint.secret);
    for (const request of hook.requests) {
      const body = verifier.verify(request.body, {
        "webhook-id": request.id,
        "webhook-timestamp": request.timestamp,
        "webhook-signature": request.signature,
      }) as { type: string; data: Record<string, unknown> };
      expect(body.type).toBe("submission.created");
      expect(body.data).toMatchObject({ examId: attempt.examId, attemptId: attempt.attemptId });
      expect(body.data.submissionId).toEqual(expect.any(String));
      expect(body.data.candidate).toMatchObject({ name: "Candidate 0" });
    }
    // The same bytes every time: a receiver can compare a resend with the first.
    expect(new Set(hook.requests.map((request) => request.body)).size).toBe(1);
    const attempts = await db.webhookAttempt.findMany({ where: { deliveryId: pending!.id }, orderBy: { at: "asc" } });
    expect(attempts.map((row) => [row.outcome, row.statusCode])).toEqual([
      ["retry", 503],
      ["retry", 503],
      ["delivered", 204],
    ]);
    expect(attempts[0]!.responseSnippet).toBe("busy");
    const endpointRow = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(endpointRow.lastSuccessAt).not.toBeNull();
    expect(endpointRow.recoveredAt).not.toBeNull();
  });

  it("a receiver that does not answer in time is retried; the attempt says timeout", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver((_, index) => (index === 0 ? "hang" : { status: 200 }));
    const endpoint = await endpointFor(attempt.examId, hook.url);
    await submitted(attempt);
    const options = { ...FAST, timeoutMs: 300 };
    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "delivered", options);
    const [delivery] = await deliveriesOf(endpoint.id);
    const attempts = await db.webhookAttempt.findMany({ where: { deliveryId: delivery!.id }, orderBy: { at: "asc" } });
    expect(attempts[0]).toMatchObject({ outcome: "retry", statusCode: null, error: "timeout after 300 ms" });
    expect(attempts[0]!.latencyMs).toBeGreaterThanOrEqual(290);
    expect(attempts.at(-1)).toMatchObject({ outcome: "delivered", statusCode: 200 });
  });

  it("400 is final: dead at once with final_status, one request, counted for the alert", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver(() => ({ status: 400, body: "x".repeat(800) }));
    const endpoint = await endpointFor(attempt.examId, hook.url);
    await submitted(attempt);
    const deadCount = async () =>
      (await getMetrics().webhookDead.get()).values.find((v) => v.labels.reason === "final_status")?.value ?? 0;
    const before = await deadCount();
    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "dead");
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ deadReason: "final_status", lastStatus: 400, attempts: 1 });
    expect(hook.requests).toHaveLength(1);
    const [attemptRow] = await db.webhookAttempt.findMany({ where: { deliveryId: delivery!.id } });
    expect(attemptRow!.responseSnippet).toHaveLength(500);
    expect(await deadCount()).toBe(before + 1);
  });

  it("410 disables the endpoint and dead-letters the delivery; a disabled endpoint gets no new deliveries", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver(() => ({ status: 410 }));
    const endpoint = await endpointFor(attempt.examId, hook.url);
    const [second] = await enroll(attempt.examId);
    const secondCookie = await join(second!.joinToken);
    const { POST: startRoute } = await import("@/app/api/exams/[examId]/attempts/route");
    const started = await call(startRoute, {
      method: "POST",
      params: { examId: attempt.examId },
      cookie: secondCookie,
    });
    await submitted(attempt);
    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "dead");
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({
      enabled: false,
      disabledReason: "gone_410",
    });
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ deadReason: "gone_410" });
    await submitted({ attemptId: started.body.attemptId, cookie: secondCookie } as StartedAttempt);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
    expect(hook.requests).toHaveLength(1);
  });

  it("429 with Retry-After waits as long as the receiver asks, bounded by the schedule's cap", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver(() => ({ status: 429, headers: { "retry-after": "120" } }));
    const endpoint = await endpointFor(attempt.examId, hook.url);
    await submitted(attempt);
    const options = { ...FAST, schedule: [1, 30] };
    const before = Date.now();
    await runDeliveryRound(options);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatus: 429 });
    // Asked for 120 s; the schedule's largest entry (30 s) caps it.
    const wait = delivery!.nextAttemptAt!.getTime() - before;
    expect(wait).toBeGreaterThan(29_000);
    expect(wait).toBeLessThan(31_500);
    await runDeliveryRound(options);
    expect(hook.requests).toHaveLength(1);
  });

  it("a receiver that is down is retried by the schedule, then dead-lettered with attempts_exhausted", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver();
    const url = hook.url;
    await hook.close();
    receivers.splice(receivers.indexOf(hook), 1);
    const endpoint = await endpointFor(attempt.examId, url);
    await submitted(attempt);
    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "dead");
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ deadReason: "attempts_exhausted", attempts: 4, lastStatus: null });
    expect(delivery!.lastError).toBeTruthy();
  });

  it("a person retries a dead delivery after the receiver is fixed: delivered with the same webhook-id; the endpoint reads failing until then", async () => {
    const attempt = await startedAttempt();
    let fixed = false;
    const hook = await receiver(() => (fixed ? { status: 200 } : { status: 422, body: "unknown field" }));
    const endpoint = await endpointFor(attempt.examId, hook.url);
    await submitted(attempt);
    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "dead");
    const [dead] = await deliveriesOf(endpoint.id);
    // A final refusal never opens the breaker; the endpoint still says its deliveries are dying.
    const [failing] = await readEndpoints({ endpointId: endpoint.id });
    expect(failing!.breaker.state).toBe("closed");
    expect(failing!.lastDead).toMatchObject({ count: 1, statusCode: 422, reason: "final_status" });
    expect(Date.parse(failing!.lastDead!.at)).toBeGreaterThanOrEqual(dead!.createdAt.getTime());
    fixed = true;
    const retried = await call(retryDeliveryRoute, {
      path: `/api/admin/webhooks/deliveries/${dead!.id}/retry`,
      params: { deliveryId: dead!.id },
      bearer: adminToken(),
      method: "POST",
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: dead!.id, status: "pending", deadReason: null });
    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "delivered");
    expect(hook.requests.map((request) => request.id)).toEqual([dead!.id, dead!.id]);
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).recoveredAt).not.toBeNull();
    // Delivered since: nothing dead after the last success, so healthy again.
    expect((await readEndpoints({ endpointId: endpoint.id }))[0]!.lastDead).toBeNull();
    const again = await call(retryDeliveryRoute, {
      params: { deliveryId: dead!.id },
      bearer: adminToken(),
      method: "POST",
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("DELIVERY_NOT_RETRYABLE");
    const audit = await db.auditEvent.findMany({ where: { action: "delivery.retried", examId: attempt.examId } });
    expect(audit).toHaveLength(1);
  });

  it("during a rotation both secrets sign, so a receiver on either verifies", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver();
    const endpoint = await endpointFor(attempt.examId, hook.url);
    const rotated = await rotateWebhookSecret({ endpointId: endpoint.id, caller: { kind: "api-token" } });
    expect(rotated.secret).not.toBe(endpoint.secret);
    await submitted(attempt);
    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "delivered");
    // A first success is not a recovery.
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).recoveredAt).toBeNull();
    const [request] = hook.requests;
    expect(request!.signature.split(" ")).toHaveLength(2);
    const headers = {
      "webhook-id": request!.id,
      "webhook-timestamp": request!.timestamp,
      "webhook-signature": request!.signature,
    };
    expect(() => new Webhook(endpoint.secret).verify(request!.body, headers)).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(request!.body, headers)).not.toThrow();
    expect(() =>
      new Webhook(`whsec_${Buffer.from("someone else").toString("base64")}`).verify(request!.body, headers),
    ).toThrow();
  });

  it("a result.updated whose result was superseded by a newer version already delivered is cancelled, not sent", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver();
    const endpoint = await endpointFor(attempt.examId, hook.url, ["result.released", "result.updated"]);
    await submitted(attempt);
    await scoreNow(attempt.attemptId);
    await setResultsReleased({ examId: attempt.examId, released: true, caller: { kind: "api-token" } });
    const [released] = await deliveriesOf(endpoint.id);
    expect(released).toMatchObject({ eventType: "result.released", resultVersion: 1 });
    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "delivered");
    const body = JSON.parse(hook.requests[0]!.body) as { data: Record<string, unknown> };
    expect(body.data).toMatchObject({ resultVersion: 1, maxScore: 10, score: 0, graded: true });

    // A late retry of version 1 after version 2 reached the receiver.
    await db.$transaction((tx) =>
      enqueueResultEvents(tx, { examId: attempt.examId, eventType: "result.updated", attemptIds: [attempt.attemptId] }),
    );
    await db.webhookDelivery.create({
      data: {
        id: `msg_${randomUUID().replaceAll("-", "")}`,
        endpointId: endpoint.id,
        examId: attempt.examId,
        eventType: "result.updated",
        attemptId: attempt.attemptId,
        resultVersion: 2,
        payload: {},
        status: "delivered",
        deliveredAt: new Date(),
        nextAttemptAt: null,
      },
    });
    await roundsUntil(async () => (await deliveriesOf(endpoint.id)).every((delivery) => delivery.status !== "pending"));
    const stale = (await deliveriesOf(endpoint.id)).find(
      (delivery) => delivery.eventType === "result.updated" && delivery.resultVersion === 1,
    );
    expect(stale).toMatchObject({ status: "cancelled", cancelReason: "superseded" });
    expect(hook.requests).toHaveLength(1);
  });
});

describe("webhook delivery: events and context checks", () => {
  it("a new version of a released result is announced as result.updated with its resultVersion", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver();
    const endpoint = await endpointFor(attempt.examId, hook.url, ["result.updated"]);
    const choice = attempt.questions.find((question) => question.type === "single_choice")!.id;
    const saved = await autosave(attempt, {
      deviceId: "laptop",
      answers: [{ questionId: choice, value: "b", version: 1 }],
    });
    expect(saved.status).toBe(200);
    await submitted(attempt);
    await scoreNow(attempt.attemptId);
    // Not released yet: a new version is not announced.
    expect(await deliveriesOf(endpoint.id)).toHaveLength(0);
    await setResultsReleased({ examId: attempt.examId, released: true, caller: { kind: "api-token" } });
    expect(await deliveriesOf(endpoint.id)).toHaveLength(0); // this endpoint did not ask for result.released

    const exam = await call(getExamRoute, { params: { examId: attempt.examId }, bearer: adminToken() });
    const questions = exam.body.questions.map((question: Parameters<typeof questionInputOf>[0]) =>
      questionInputOf(question.type === "single_choice" ? { ...question, answerKey: "a" } : question),
    );
    const patched = await call(patchExamRoute, {
      method: "PATCH",
      params: { examId: attempt.examId },
      bearer: adminToken(),
      json: { revision: exam.body.revision, questions },
    });
    expect(patched.status).toBe(200);
    await scoreNow(attempt.attemptId);
    const [updated] = await deliveriesOf(endpoint.id);
    expect(updated).toMatchObject({ eventType: "result.updated", resultVersion: 2, status: "pending" });
    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "delivered");
    const body = JSON.parse(hook.requests[0]!.body) as { type: string; data: Record<string, unknown> };
    expect(body).toMatchObject({ type: "result.updated", data: { resultVersion: 2, attemptId: attempt.attemptId } });
  });

  it("a submission.created whose submission a reopening moved to history is cancelled as submission_voided", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver();
    const endpoint = await endpointFor(attempt.examId, hook.url);
    await submitted(attempt);
    const reopened = await call(reopenRoute, {
      params: { attemptId: attempt.attemptId },
      bearer: adminToken(),
      json: { seconds: 600, reason: "Power cut in room 2" },
    });
    expect(reopened.status).toBe(200);
    await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status !== "pending");
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({
      status: "cancelled",
      cancelReason: "submission_voided",
    });
    expect(hook.requests).toHaveLength(0);
  });

  it("a deleted endpoint's deliveries are never sent", async () => {
    const attempt = await startedAttempt();
    const hook = await receiver();
    const endpoint = await endpointFor(attempt.examId, hook.url);
    await submitted(attempt);
    await deleteWebhookEndpoint({ endpointId: endpoint.id, caller: { kind: "api-token" } });
    await runDeliveryRound(FAST);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({
      status: "cancelled",
      cancelReason: "endpoint_deleted",
    });
    expect(hook.requests).toHaveLength(0);
  });
});

describe("webhook delivery: the shared circuit breaker", () => {
  it("opens after consecutive failures across two workers, sends nothing while open, and a half-open probe closes it", async () => {
    const attempt = await startedAttempt();
    let healthy = false;
    const hook = await receiver(() => (healthy ? { status: 200 } : { status: 503 }));
    const endpoint = await endpointFor(attempt.examId, hook.url);
    const others = await enroll(attempt.examId, 3);
    await submitted(attempt);
    for (const candidate of others) {
      const cookie = await join(candidate.joinToken);
      const { POST: startRoute } = await import("@/app/api/exams/[examId]/attempts/route");
      const started = await call(startRoute, { method: "POST", params: { examId: attempt.examId }, cookie });
      await submitted({ attemptId: started.body.attemptId, cookie } as StartedAttempt);
    }
    expect(await deliveriesOf(endpoint.id)).toHaveLength(4);

    const options = { ...FAST, breakerThreshold: 3, breakerCooldownMs: 700, schedule: [0.05, 0.05, 0.05, 0.05, 0.05] };
    const workers = [
      createDeliveryWorker({ ...options, intervalMs: 20 }),
      createDeliveryWorker({ ...options, intervalMs: 20 }),
    ];
    try {
      await waitFor(
        async () => (await db.webhookBreaker.findUnique({ where: { endpointId: endpoint.id } }))?.state === "open",
      );
      const breaker = await db.webhookBreaker.findUniqueOrThrow({ where: { endpointId: endpoint.id } });
      const seenWhenOpened = hook.requests.length;
      await sleep(300);
      expect(hook.requests.length).toBe(seenWhenOpened);
      // Every request after the opening came after the wait, and the first of them alone (the probe).
      healthy = true;
      await waitFor(async () => (await deliveriesOf(endpoint.id)).every((delivery) => delivery.status === "delivered"));
      const later = hook.requests.slice(seenWhenOpened);
      expect(later.length).toBeGreaterThanOrEqual(4);
      expect(later[0]!.at).toBeGreaterThanOrEqual(breaker.retryAt!.getTime() - 5);
      expect(later[1]!.at).toBeGreaterThanOrEqual(later[0]!.at);
      const closed = await db.webhookBreaker.findUniqueOrThrow({ where: { endpointId: endpoint.id } });
      expect(closed).toMatchObject({ state: "closed", consecutiveFailures: 0 });
      expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).recoveredAt).not.toBeNull();
      // Delivered exactly once each from the receiver's side: four distinct ids answered 200.
      const okIds = new Set(later.map((request) => request.id));
      expect(okIds.size).toBe(4);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  });
});

describe("webhook delivery: a cohort against a receiver that is down for a while", () => {
  it("nothing is lost, the receiver is not hammered while the breaker is open, and each delivery lands once", async () => {
    const attempt = await startedAttempt();
    const outageMs = 1_500;
    let downUntil = Number.POSITIVE_INFINITY;
    const hook = await receiver(() => (Date.now() < downUntil ? { status: 503 } : { status: 200 }));
    const endpoint = await endpointFor(attempt.examId, hook.url);
    const cohort = await enroll(attempt.examId, 19);
    const { POST: startRoute } = await import("@/app/api/exams/[examId]/attempts/route");
    const papers: StartedAttempt[] = [attempt];
    for (const candidate of cohort) {
      const cookie = await join(candidate.joinToken);
      const started = await call(startRoute, { method: "POST", params: { examId: attempt.examId }, cookie });
      papers.push({ attemptId: started.body.attemptId, cookie } as StartedAttempt);
    }
    await Promise.all(papers.map((paper) => submitted(paper)));
    expect(await deliveriesOf(endpoint.id)).toHaveLength(20);
    // The outage starts with the workers, not before the submits: on a loaded machine 20 submits may take
    // most of it, leaving the breaker nothing to trip on.
    downUntil = Date.now() + outageMs;

    const cooldownMs = 300;
    const options = { ...FAST, breakerThreshold: 3, breakerCooldownMs: cooldownMs, schedule: Array(8).fill(0.2) };
    const workers = [
      createDeliveryWorker({ ...options, intervalMs: 20 }),
      createDeliveryWorker({ ...options, intervalMs: 20 }),
    ];
    try {
      await waitFor(async () => (await deliveriesOf(endpoint.id)).every((delivery) => delivery.status === "delivered"));
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
    const failed = hook.requests.filter((request) => request.at < downUntil);
    // Each delivery may fail once in the first batch (sent together, before the breaker has seen a failure);
    // after that only probes reach the receiver, about one per cooldown. Without the breaker every delivery is
    // retried on the 0.2 s schedule through the outage: about 20 × 7 failed requests.
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThanOrEqual(papers.length + Math.ceil(outageMs / cooldownMs) + 2);
    const delivered = hook.requests.filter((request) => request.at >= downUntil);
    expect(new Set(delivered.map((request) => request.id)).size).toBe(20);
    expect(delivered).toHaveLength(20);
  });
});

describe("webhook delivery: a worker killed mid-send", () => {
  it("another worker resends with the same webhook-id once the lease expires", async () => {
    const attempt = await startedAttempt();
    let firstArrived = false;
    const hook = await receiver((_, index) => {
      if (index === 0) {
        firstArrived = true;
        return "hang";
      }
      return { status: 200 };
    });
    const endpoint = await endpointFor(attempt.examId, hook.url);
    await submitted(attempt);
    const [delivery] = await deliveriesOf(endpoint.id);

    const root = fileURLToPath(new URL("../../..", import.meta.url));
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=react-server",
        "test-support/server/webhook-worker-child.ts",
        JSON.stringify({ ...FAST, leaseMs: 1_500, timeoutMs: 20_000 }),
      ],
      { cwd: root, env: process.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let childError = "";
    child.stderr.on("data", (chunk: Buffer) => (childError += chunk.toString()));
    try {
      await waitFor(() => firstArrived, 20_000).catch(() => {
        throw new Error(`the child worker never sent: ${childError}`);
      });
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      const claimed = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.id } });
      expect(claimed).toMatchObject({ status: "pending", attempts: 0 });
      expect(claimed.leaseUntil).not.toBeNull();

      // Before the lease expires nobody else takes it; after, this worker resends it.
      await runDeliveryRound(FAST);
      expect(hook.requests).toHaveLength(1);
      await roundsUntil(async () => (await deliveriesOf(endpoint.id))[0]!.status === "delivered");
      expect(hook.requests.map((request) => request.id)).toEqual([delivery!.id, delivery!.id]);
      expect(hook.requests[1]!.body).toBe(hook.requests[0]!.body);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 40_000);
});
