// The simulated candidate's Submit click against a scripted transport: it must wait as the page's engine does
// (lib/client/sync/scheduler.ts) — for the autosave request in flight, never for the autosave's retry loop, its
// plain backoff or its Retry-After (submits have their own limits) — or exam-day's click → done says more (or
// less) than a browser would wait.
import { describe, expect, it } from "vitest";

import type { HttpResult } from "../load/http-client";
import { RunStats } from "../load/op-stats";
import { SimCandidate } from "./sim-candidate";
import type { Request } from "./transport";

type Sent = { at: number; path: string; body: string };

function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return { status, headers, body: JSON.stringify(body) };
}

const OK_AUTOSAVE = (body: string): HttpResult => {
  const { answers } = JSON.parse(body) as { answers: { questionId: string; version: number }[] };
  return answer(200, {
    revision: 1,
    results: answers.map((item) => ({ questionId: item.questionId, status: "applied", version: item.version })),
  });
};

/** A candidate of a one-question exam whose transport answers autosaves with `autosaves` in turn (then 200). */
function candidate(autosaves: ((body: string) => HttpResult | Promise<HttpResult>)[], submits: HttpResult[] = []) {
  const sent: Sent[] = [];
  const started = Date.now();
  const stats = new RunStats();
  stats.startWindow();
  const sim = new SimCandidate({
    index: 0,
    email: "a@example.test",
    joinToken: "token",
    examId: "exam",
    questions: [{ id: "q1", type: "short_text", optionIds: [] }],
    preparedAttemptId: "attempt",
    stats,
    timings: { debounceMs: 60_000, heartbeatMs: 0, requestTimeoutMs: 5_000, submitTimeoutMs: 5_000 },
    giveUpAtMs: Infinity,
    signal: new AbortController().signal,
    random: () => 0.999,
    transport: async (request: Request) => {
      sent.push({ at: Date.now() - started, path: request.path, body: request.body ?? "" });
      if (request.path.endsWith("/submit"))
        return (
          submits.shift() ??
          answer(200, { submissionId: "s1", receipt: "r", digest: "d", submittedAt: new Date().toISOString() })
        );
      const next = autosaves.shift() ?? OK_AUTOSAVE;
      return next(request.body ?? "");
    },
  });
  return { sim, sent };
}

async function prepared(sim: SimCandidate): Promise<void> {
  expect(await sim.joinAndStart()).toBe(true);
  sim.edit();
}

describe("a simulated candidate's Submit click", () => {
  it("does not wait out the Retry-After an autosave was refused with, and sends no autosave retry before the submit", async () => {
    const { sim, sent } = candidate([() => answer(503, { error: { code: "OVERLOADED" } }, { "retry-after": "2" })]);
    await prepared(sim);
    void sim.flush();
    while (sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const clickedAt = Date.now();
    await sim.submit();
    expect(Date.now() - clickedAt).toBeLessThan(300);
    expect(sent.map((request) => request.path.split("/").at(-1))).toEqual(["answers", "submit"]);
    // The refused draft rides on the submit.
    expect((JSON.parse(sent[1]!.body) as { answers: unknown[] }).answers).toHaveLength(1);
  });

  it("drops a plain backoff at the click: the submit goes at once, carrying the draft", async () => {
    const { sim, sent } = candidate([() => answer(500, { error: { code: "INTERNAL" } })]);
    await prepared(sim);
    void sim.flush();
    while (sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const clickedAt = Date.now();
    await sim.submit();
    // The backoff would have been ~500 ms (random 0.999 of the first window).
    expect(Date.now() - clickedAt).toBeLessThan(300);
    expect(sent.map((request) => request.path.split("/").at(-1))).toEqual(["answers", "submit"]);
    expect((JSON.parse(sent[1]!.body) as { answers: unknown[] }).answers).toHaveLength(1);
  });

  it("waits for the autosave request in flight, and leaves out of the submit what that request got acknowledged", async () => {
    const gate: { release?: () => void } = {};
    const { sim, sent } = candidate([
      (body) =>
        new Promise<HttpResult>((resolve) => {
          gate.release = () => resolve(OK_AUTOSAVE(body));
        }),
    ]);
    await prepared(sim);
    void sim.flush();
    while (!gate.release) await new Promise((resolve) => setTimeout(resolve, 5));
    const submitted = sim.submit();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toHaveLength(1);
    gate.release!();
    await submitted;
    expect(sent.map((request) => request.path.split("/").at(-1))).toEqual(["answers", "submit"]);
    expect((JSON.parse(sent[1]!.body) as { answers: unknown[] }).answers).toEqual([]);
  });

  it("honours the submit's own Retry-After between its tries", async () => {
    const { sim, sent } = candidate([], [answer(503, { error: { code: "OVERLOADED" } }, { "retry-after": "1" })]);
    await prepared(sim);
    await sim.submit();
    const submits = sent.filter((request) => request.path.endsWith("/submit"));
    expect(submits).toHaveLength(2);
    expect(submits[1]!.at - submits[0]!.at).toBeGreaterThanOrEqual(990);
  });
});
