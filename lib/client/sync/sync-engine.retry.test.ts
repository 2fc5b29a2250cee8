import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { listDrafts } from "../offline/drafts";
import { Q, respond } from "@/test-support/client/fake-server";
import { createHarness, type Harness } from "@/test-support/client/harness";

/**
 * The contract's retry discipline (docs/sync-protocol.md, "The client", F3–F7): network errors, 5xx, 429 and
 * 409 REQUEST_IN_PROGRESS are retried with full-jitter backoff (random() is 0.5 here, so waits are 250 ms,
 * 500 ms, 1 s, 2 s, 4 s, capped at 4 s = half of 8 s) and a breaker; other 4xx are final.
 */

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.cleanup();
});

async function started(options: Parameters<Harness["engine"]>[0] = {}) {
  const tab = h.engine({ initialView: h.server.view(), ...options });
  await tab.engine.start();
  await h.settle();
  return tab;
}

/** Device-clock times of the autosaves so far. */
const autosaveTimes = () => h.server.requestsTo("answers").map((request) => request.at);

describe("retried classes", () => {
  it.each([
    ["a network error", respond.network()],
    ["a 500", respond.error(500, "INTERNAL")],
    ["a 503 with Retry-After", respond.error(503, "UNAVAILABLE", { headers: { "Retry-After": "0" } })],
    ["a 200 that is not JSON (captive portal)", respond.text(200, "<html>Sign in to Hotel Wi-Fi</html>")],
  ])("retries after %s, with backoff, and ends saved", async (_, failure) => {
    const { engine } = await started();
    h.server.next("answers", failure);
    await engine.edit(Q.text, "keep me");
    await h.advance(1_500);
    const start = h.clock.now();
    expect(autosaveTimes()).toEqual([start]);
    expect(engine.getSnapshot()).toMatchObject({
      connection: "unstable",
      consecutiveFailures: 1,
      pendingCount: 1,
      nextAttemptAt: start + 250,
    });

    await h.advance(249);
    expect(autosaveTimes()).toHaveLength(1);
    await h.advance(1);
    expect(autosaveTimes()).toEqual([start, start + 250]);
    expect(engine.getSnapshot()).toMatchObject({ connection: "ok", consecutiveFailures: 0, pendingCount: 0 });
    expect(h.server.answers.get(Q.text)?.value).toBe("keep me");
  });

  it("doubles the wait after each failure", async () => {
    // No breaker and no periodic probe here (the probe drops the backoff wait, by design): the bare doubling.
    const { engine } = await started({
      config: { breaker: { failureThreshold: 100, coolDownMs: 20_000 }, probeMs: 1e9 },
    });
    h.server.next("answers", ...Array.from({ length: 7 }, () => respond.network()));
    await engine.edit(Q.text, "x");
    await h.advance(1_500);
    await h.advance(60_000);
    const times = autosaveTimes();
    const gaps = times.slice(1).map((time, index) => time - times[index]!);
    expect(gaps).toEqual([250, 500, 1_000, 2_000, 4_000, 4_000, 4_000]);
    expect(engine.getSnapshot().pendingCount).toBe(0);
  });

  it("never waits longer than the 8 s cap, nor less than a Retry-After, even one above the cap", async () => {
    const { engine } = await started({
      random: () => 0.999_999,
      config: { breaker: { failureThreshold: 100, coolDownMs: 20_000 }, probeMs: 1e9 },
    });
    h.server.next(
      "answers",
      ...Array.from({ length: 8 }, () => respond.network()),
      respond.error(429, "RATE_LIMITED", { headers: { "Retry-After": "12" } }),
    );
    await engine.edit(Q.text, "x");
    await h.advance(1_500);
    await h.advance(120_000);
    const times = autosaveTimes();
    const gaps = times.slice(1).map((time, index) => time - times[index]!);
    expect(gaps).toEqual([499, 999, 1_999, 3_999, 7_999, 7_999, 7_999, 7_999, 12_000]);
    expect(engine.getSnapshot().pendingCount).toBe(0);
  });

  it("honours 429 Retry-After: nothing is sent sooner, whatever triggers a flush, and the UI knows when", async () => {
    const { engine, env } = await started();
    h.server.next(
      "answers",
      respond.error(429, "RATE_LIMITED", { headers: { "Retry-After": "3" }, details: { retryAfterSeconds: 3 } }),
    );
    await engine.edit(Q.text, "busy");
    await h.advance(1_500);
    const start = h.clock.now();
    expect(engine.getSnapshot()).toMatchObject({ retryAt: start + 3_000, connection: "unstable" });

    env.setOnline(false);
    env.setOnline(true);
    env.setVisible(false);
    env.setVisible(true);
    await engine.flushNow();
    await h.advance(2_999);
    expect(autosaveTimes()).toEqual([start]);
    await h.advance(1);
    expect(autosaveTimes()).toEqual([start, start + 3_000]);
    expect(engine.getSnapshot()).toMatchObject({ retryAt: null, pendingCount: 0, connection: "ok" });
  });

  it("abandons a request that hangs and retries it", async () => {
    const { engine } = await started();
    h.server.hold("answers"); // never answered
    await engine.edit(Q.text, "slow wifi");
    await h.advance(1_500);
    const start = h.clock.now();
    await h.advance(20_000);
    expect(engine.getSnapshot().consecutiveFailures).toBe(1);
    await h.advance(250);
    expect(autosaveTimes()).toEqual([start, start + 20_250]);
    expect(engine.getSnapshot().pendingCount).toBe(0);
  });
});

describe("final answers", () => {
  it("422: marks the drafts rejected with the server's message, keeps them, and does not loop", async () => {
    const { engine } = await started();
    h.server.next(
      "answers",
      respond.error(422, "VALIDATION_FAILED", { message: "Invalid answers: the exam changed." }),
    );
    await engine.edit(Q.text, "refused");
    await h.advance(1_500);
    await h.advance(120_000);
    expect(autosaveTimes()).toHaveLength(1);
    const snapshot = engine.getSnapshot();
    expect(snapshot.answers[Q.text]).toMatchObject({
      value: "refused",
      status: "rejected",
      message: "Invalid answers: the exam changed.",
    });
    expect(snapshot).toMatchObject({ pendingCount: 0, rejectedCount: 1, connection: "ok", consecutiveFailures: 0 });
    expect(await listDrafts(h.db, h.server.attemptId)).toEqual([
      expect.objectContaining({ value: "refused", dirty: 1, rejected: expect.objectContaining({ status: 422 }) }),
    ]);

    // Editing the question again clears the mark and sends the new version.
    await engine.edit(Q.text, "accepted");
    await h.advance(1_500);
    expect(autosaveTimes()).toHaveLength(2);
    expect(engine.getSnapshot().answers[Q.text]).toMatchObject({ value: "accepted", status: "saved" });
  });

  it("422 naming one answer: only that draft is rejected, the others go at once", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "fine");
    await engine.edit(Q.single, "b");
    h.server.next(
      "answers",
      respond.error(422, "VALIDATION_FAILED", {
        details: { issues: [{ path: "answers.1.value", message: '"b" is not an option' }] },
      }),
    );
    await h.advance(1_500);
    const [first, second] = h.server.requestsTo("answers");
    expect(first!.body.answers).toHaveLength(2);
    expect(second!.body.answers.map((answer: { questionId: string }) => answer.questionId)).toEqual([Q.text]);
    expect(engine.getSnapshot().answers[Q.single]).toMatchObject({ status: "rejected" });
    expect(engine.getSnapshot().answers[Q.text]).toMatchObject({ status: "saved" });
  });

  it("401: stops sending (no loop) but keeps the drafts pending; a retry-now sends again", async () => {
    const { engine } = await started();
    h.server.next(
      "answers",
      respond.error(401, "UNAUTHENTICATED", { message: "Open your personal join link to start a session." }),
    );
    await engine.edit(Q.text, "session expired");
    await h.advance(1_500);
    await h.advance(60_000);
    expect(autosaveTimes()).toHaveLength(1);
    expect(engine.getSnapshot()).toMatchObject({ blocked: { status: 401, code: "UNAUTHENTICATED" }, pendingCount: 1 });

    await engine.flushNow();
    await h.settle();
    expect(engine.getSnapshot()).toMatchObject({ blocked: null, pendingCount: 0 });
    expect(h.server.answers.get(Q.text)?.value).toBe("session expired");
  });

  it.each(["ALREADY_SUBMITTED", "DEADLINE_PASSED"] as const)(
    "409 %s closes the attempt: recorded with the submission id, nothing more sent, drafts kept",
    async (code) => {
      const { engine } = await started();
      h.server.next(
        "answers",
        respond.error(409, code, {
          details: { submissionId: "sub-9", serverTime: h.server.serverTime(), deadline: h.server.deadline },
        }),
      );
      await engine.edit(Q.text, "too late");
      await h.advance(1_500);
      const snapshot = engine.getSnapshot();
      expect(snapshot.closed).toMatchObject({ reason: code, submissionId: "sub-9" });
      expect(snapshot.answers[Q.text]).toMatchObject({ value: "too late" });
      expect(await engine.edit(Q.text, "more")).toMatchObject({ ok: false, reason: "closed" });
      await h.advance(60_000);
      expect(autosaveTimes()).toHaveLength(1);
      expect(await listDrafts(h.db, h.server.attemptId)).toHaveLength(1);
    },
  );

  it("the drafts a 409-closed autosave carried are delivered late: never pending again, even after the re-read; the submission's facts arrive", async () => {
    const { engine } = await started();
    h.server.status = "submitted";
    h.server.submission = { submissionId: "sub-9", submittedAt: "2026-11-29T10:00:00.000Z", digest: "d".repeat(64) };
    h.server.next(
      "answers",
      respond.error(409, "DEADLINE_PASSED", {
        details: { submissionId: "sub-9", serverTime: h.server.serverTime(), deadline: h.server.deadline },
      }),
    );
    await engine.edit(Q.text, "arrived late");
    await h.advance(1_500);
    // The engine re-reads the attempt (merge) after learning it closed.
    await h.advance(2_000);
    await h.settle();
    const snapshot = engine.getSnapshot();
    expect(snapshot.answers[Q.text]).toMatchObject({ value: "arrived late", status: "late" });
    expect(snapshot.pendingCount).toBe(0);
    expect(snapshot.closed).toMatchObject({
      submissionId: "sub-9",
      submittedAt: "2026-11-29T10:00:00.000Z",
      digest: "d".repeat(64),
    });
    const [draft] = await listDrafts(h.db, h.server.attemptId);
    expect(draft).toMatchObject({ dirty: 0, lateAt: expect.any(Number) });
    await h.advance(60_000);
    expect(autosaveTimes()).toHaveLength(1);
  });
});

describe("circuit breaker", () => {
  it("opens after 5 failures in a row, sends nothing for 20 s, then one probe; a failed probe opens it again", async () => {
    const { engine, env } = await started();
    h.server.next("answers", ...Array.from({ length: 6 }, () => respond.error(502, "INTERNAL")));
    await engine.edit(Q.text, "x");
    await h.advance(1_500);
    await h.advance(250 + 500 + 1_000 + 2_000);
    expect(autosaveTimes()).toHaveLength(5);
    const opened = h.clock.now();
    expect(engine.getSnapshot()).toMatchObject({
      breaker: "open",
      consecutiveFailures: 5,
      nextAttemptAt: opened + 20_000,
    });

    // Neither the periodic probe (every 10 s) nor hiding the tab gets through an open breaker.
    env.setVisible(false);
    await h.advance(19_999);
    expect(autosaveTimes()).toHaveLength(5);
    await h.advance(1);
    expect(autosaveTimes()).toHaveLength(6); // the probe, answered 502 again
    expect(engine.getSnapshot()).toMatchObject({ breaker: "open", consecutiveFailures: 6 });

    await h.advance(20_000);
    expect(autosaveTimes()).toHaveLength(7); // the next probe succeeds
    expect(engine.getSnapshot()).toMatchObject({ breaker: "closed", consecutiveFailures: 0, pendingCount: 0 });
  });

  it("stops heartbeats while open", async () => {
    const { engine } = await started();
    h.server.next("answers", ...Array.from({ length: 5 }, () => respond.network()));
    await engine.edit(Q.text, "x");
    await h.advance(1_500 + 250 + 500 + 1_000 + 2_000);
    expect(engine.getSnapshot().breaker).toBe("open");
    const beats = h.server.requestsTo("heartbeat").length;
    await h.advance(19_000);
    expect(h.server.requestsTo("heartbeat")).toHaveLength(beats);
  });

  it("the online event lets an open breaker probe at once", async () => {
    const { engine, env } = await started();
    h.server.next("answers", ...Array.from({ length: 5 }, () => respond.network()));
    await engine.edit(Q.text, "x");
    await h.advance(1_500 + 250 + 500 + 1_000 + 2_000);
    expect(engine.getSnapshot()).toMatchObject({ breaker: "open", online: false, connection: "offline" });
    env.setOnline(true);
    await h.settle();
    expect(autosaveTimes()).toHaveLength(6);
    expect(engine.getSnapshot()).toMatchObject({ breaker: "closed", online: true, connection: "ok", pendingCount: 0 });
  });
});

describe("what triggers a flush", () => {
  it("coming back online sends at once, without waiting for the backoff", async () => {
    const { engine, env } = await started();
    h.server.next("answers", respond.network(), respond.network(), respond.network());
    await engine.edit(Q.text, "x");
    await h.advance(1_500 + 250 + 500); // three failures; next wait 1 s
    expect(autosaveTimes()).toHaveLength(3);
    env.setOnline(false);
    await h.settle();
    expect(engine.getSnapshot().connection).toBe("offline");
    env.setOnline(true);
    await h.settle();
    expect(autosaveTimes()).toHaveLength(4);
    expect(engine.getSnapshot().pendingCount).toBe(0);
  });

  it("the periodic probe saves at least every 10 s while the candidate never pauses for 1.5 s", async () => {
    const { engine } = await started();
    for (let second = 0; second < 12; second += 1) {
      await engine.edit(Q.essay, `word ${second}`);
      await h.advance(1_000);
    }
    expect(autosaveTimes()).toHaveLength(1);
    expect(h.server.answers.get(Q.essay)?.value).toBe("word 9");
  });
});
