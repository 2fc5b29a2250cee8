// Admission control through route(): slow requests held open fill the in-flight bound; then an autosave and a
// heartbeat are refused at once with 503 OVERLOADED and Retry-After (before their body is read), a submit is
// still taken (it queues, never refused for load), and once the slow requests end the next ones are admitted (not metastable).
import { randomUUID } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as answersRoute } from "@/app/api/attempts/[attemptId]/answers/route";
import { autosave, heartbeat, heartbeatBody, startedAttempt, submit } from "@/test-support/server/attempts";
import { call } from "@/test-support/server/http";

import { getResilienceMetrics } from "../metrics/resilience-metrics";
import { createAdmissionController, setAdmission } from "./admission";

const MAX_IN_FLIGHT = 4;

afterAll(() => setAdmission(null));

/** An autosave whose body arrives only when `finish` is called: it holds one in-flight place until then. */
function heldAutosave(attempt: { attemptId: string; cookie: string }, questionId: string, version: number) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const response = call(answersRoute, {
    params: { attemptId: attempt.attemptId },
    cookie: attempt.cookie,
    raw: stream,
    headers: { "content-type": "application/json" },
  });
  return {
    response,
    finish() {
      const body = { deviceId: "laptop", answers: [{ questionId, value: `held ${version}`, version }] };
      controller.enqueue(new TextEncoder().encode(JSON.stringify(body)));
      controller.close();
    },
  };
}

let attempts: Awaited<ReturnType<typeof startedAttempt>>[] = [];

beforeAll(async () => {
  attempts = [];
  for (let i = 0; i < 3; i += 1) attempts.push(await startedAttempt().catch(() => startedAttempt()));
}, 60_000);

describe("admission control", () => {
  it("refuses autosaves and heartbeats past the in-flight bound with 503 + Retry-After, admits a submit, and recovers", async () => {
    const controller = createAdmissionController({ maxInFlight: MAX_IN_FLIGHT, maxEventLoopDelayMs: 0 });
    setAdmission(controller);
    const [busy, other, submitter] = attempts as [(typeof attempts)[0], (typeof attempts)[0], (typeof attempts)[0]];
    const question = busy.questions[2]!.id;
    const refusedCount = async (kind: string) =>
      (await getResilienceMetrics().admission.get()).values.find(
        (v) => v.labels.kind === kind && v.labels.decision === "refused",
      )?.value ?? 0;
    const refusedBefore = { autosave: await refusedCount("autosave"), heartbeat: await refusedCount("heartbeat") };

    const held = Array.from({ length: MAX_IN_FLIGHT }, (_, i) => heldAutosave(busy, question, i + 1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(controller.load().inFlight).toBe(MAX_IN_FLIGHT);

    const edit = { deviceId: "laptop", answers: [{ questionId: other.questions[2]!.id, value: "x", version: 1 }] };
    const refused = await autosave(other, edit);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(refused.body).toMatchObject({ error: { code: "OVERLOADED", details: { retryAfterSeconds: 2 } } });

    const beat = await heartbeat(other, heartbeatBody());
    expect(beat.status).toBe(503);
    expect(Number(beat.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    // A submit is not refused for load: it takes its turn while autosaves are refused.
    const submitted = await submit(
      submitter,
      { deviceId: "laptop", answers: [{ questionId: submitter.questions[2]!.id, value: "final", version: 1 }] },
      randomUUID(),
    );
    expect(submitted.status).toBe(200);

    expect((await refusedCount("autosave")) - refusedBefore.autosave).toBe(1);
    expect((await refusedCount("heartbeat")) - refusedBefore.heartbeat).toBe(1);

    // The burst ends: the held requests complete, and the next requests are admitted.
    for (const request of held) request.finish();
    const statuses = (await Promise.all(held.map((request) => request.response))).map((r) => r.status);
    expect(statuses).toEqual(Array.from({ length: MAX_IN_FLIGHT }, () => 200));
    expect(controller.load().inFlight).toBe(0);
    expect((await autosave(other, edit)).status).toBe(200);
    expect((await heartbeat(other, heartbeatBody())).status).toBe(200);
  }, 60_000);
});
