import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { Q, respond } from "@/test-support/client/fake-server";
import { testEnvironment } from "@/test-support/client/fake-tabs";
import { createHarness, type Harness } from "@/test-support/client/harness";

/** Heartbeat (docs/sync-protocol.md, "The client", H1–H3). */

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.cleanup();
});

async function started() {
  const tab = h.engine({ initialView: h.server.view(), environment: testEnvironment({ storagePersisted: true }) });
  await tab.engine.start();
  await h.settle();
  return tab;
}

const beats = () => h.server.requestsTo("heartbeat");

describe("heartbeat", () => {
  it("is sent when the page opens and every 15 s, with the contract's fields", async () => {
    const t0 = h.clock.now();
    const { engine } = await started();
    expect(beats()).toHaveLength(1);
    expect(beats()[0]!.body).toEqual({
      deviceId: engine.getSnapshot().deviceId,
      online: true,
      pending: 0,
      oldestPendingMs: 0,
      lastAckRevision: 0,
      clock: 0,
      consecutiveFailures: 0,
      storagePersisted: true,
      deadline: h.server.deadline,
    });
    await h.advance(45_000);
    expect(beats().map((beat) => beat.at - t0)).toEqual([0, 15_000, 30_000, 45_000]);
  });

  it("rides on an autosave when a report is due: a device saving often sends no heartbeat (ADR 022)", async () => {
    const t0 = h.clock.now();
    const { engine } = await started();
    await h.advance(8_000);
    await engine.edit(Q.text, "a");
    await engine.edit(Q.essay, "b");
    await h.settle();
    // Work appearing while saving well is news the autosave carries within its debounce: no heartbeat for it.
    expect(beats()).toHaveLength(1);
    await h.advance(1_500);
    const [save] = h.server.requestsTo("answers");
    expect(save!.at - t0).toBe(9_500);
    // As it stands once this autosave is acknowledged: nothing left pending, no failures.
    expect(save!.body.device).toEqual({
      online: true,
      pending: 0,
      oldestPendingMs: 0,
      lastAckRevision: 0,
      clock: 2,
      consecutiveFailures: 0,
      storagePersisted: true,
      deadline: h.server.deadline,
    });
    expect(engine.getSnapshot().pendingCount).toBe(0);

    // The next report is due 15 s after that one, not after the last heartbeat.
    await h.advance(14_999);
    expect(beats()).toHaveLength(1);
    await h.advance(1);
    expect(beats().map((beat) => beat.at - t0)).toEqual([0, 24_500]);

    // An autosave soon after a report, saying nothing new, carries none; one half a period later does.
    await engine.edit(Q.text, "c");
    await h.advance(1_500);
    expect(h.server.requestsTo("answers")[1]!.body.device).toBeUndefined();
    await h.advance(5_000);
    await engine.edit(Q.text, "d");
    await h.advance(1_500);
    expect(h.server.requestsTo("answers")[2]!.body.device).toMatchObject({ pending: 0, clock: 4 });
    expect(beats()).toHaveLength(2);

    // Typing on and saving every few seconds for a minute: reports every ≤ 15 s, all on autosaves.
    const before = h.server.requestsTo("answers").length;
    for (let second = 0; second < 60; second += 4) {
      await engine.edit(Q.text, `e${second}`);
      await h.advance(4_000);
    }
    const saves = h.server.requestsTo("answers").slice(before);
    expect(saves.length).toBeGreaterThanOrEqual(14);
    const reportTimes = saves.filter((request) => request.body.device).map((request) => request.at);
    expect(reportTimes.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < reportTimes.length; i++)
      expect(reportTimes[i]! - reportTimes[i - 1]!).toBeLessThanOrEqual(15_000);
    expect(beats()).toHaveLength(2);
  });

  it("goes out soon after news no autosave carries: failures start; the autosave that ends them says so", async () => {
    const t0 = h.clock.now();
    const { engine } = await started();
    h.server.next("answers", ...Array.from({ length: 4 }, () => respond.network()));
    await h.advance(10_000);
    await engine.edit(Q.text, "c");
    await h.advance(1_500); // the first failure, at +1.5 s: news, sent at once (the last beat was 11.5 s ago)
    await h.settle();
    expect(beats()).toHaveLength(2);
    expect(beats()[1]!.at - t0).toBe(11_500);
    expect(beats()[1]!.body).toMatchObject({ pending: 1, consecutiveFailures: 1, online: true });

    // The retries fail three more times, then one is answered: it carries the news that all is well again.
    await h.advance(8_000);
    const saves = h.server.requestsTo("answers");
    expect(saves).toHaveLength(5);
    expect(saves[4]!.body.device).toMatchObject({ pending: 0, consecutiveFailures: 0 });
    expect(engine.getSnapshot().pendingCount).toBe(0);
    expect(beats()).toHaveLength(2);
  });

  it("still reports pending work an autosave did not carry away in time (a slow server)", async () => {
    const t0 = h.clock.now();
    const { engine } = await started();
    const held = h.server.hold("answers");
    await h.advance(1_000);
    await engine.edit(Q.text, "slow");
    // The autosave at +1.5 s hangs; the news waits a debounce and a gap (6.5 s), then goes as a heartbeat.
    await h.advance(6_499);
    expect(beats()).toHaveLength(1);
    await h.advance(1);
    expect(beats()[1]!.at - t0).toBe(7_500);
    expect(beats()[1]!.body).toMatchObject({ pending: 1, consecutiveFailures: 0 });
    held.release();
    await h.settle();
  });

  it("keeps its period after a heartbeat that hung past the next one's time", async () => {
    const t0 = h.clock.now();
    await started();
    await h.advance(14_000);
    const held = h.server.hold("heartbeat");
    await h.advance(1_000); // the beat at 15 s hangs; the next one falls due at 30 s while it flies
    await h.advance(30_000);
    held.release();
    await h.advance(30_000);
    const times = beats().map((beat) => beat.at - t0);
    expect(times.slice(0, 2)).toEqual([0, 15_000]);
    // Timed out at 35 s (20 s); the report due at 30 s goes then, and the 15 s period goes on from it.
    expect(times.slice(2)).toEqual([35_000, 50_000, 65_000]);
  });

  it("reports the browser's own word on being offline", async () => {
    const { engine, env } = await started();
    env.setOnline(false);
    await h.advance(15_000);
    expect(engine.getSnapshot().online).toBe(false);
    expect(beats().at(-1)!.body.online).toBe(false);
  });

  it("takes a proctor's extension from the answer", async () => {
    const { engine } = await started();
    const extended = new Date(Date.parse(h.server.deadline) + 600_000).toISOString();
    h.server.deadline = extended;
    await h.advance(15_000);
    expect(engine.getSnapshot().deadline).toBe(extended);
    expect(engine.getSnapshot().acceptsUntil).toBe(new Date(Date.parse(extended) + 60_000).toISOString());
  });

  it("notices a submission made elsewhere: the attempt closes and the submission id is fetched", async () => {
    const { engine } = await started();
    await h.server.freeze();
    await h.advance(15_000);
    expect(engine.getSnapshot().closed).toMatchObject({ reason: "ALREADY_SUBMITTED", submissionId: "sub-1" });
    expect(await engine.edit(Q.text, "x")).toMatchObject({ ok: false, reason: "closed" });
  });
});
