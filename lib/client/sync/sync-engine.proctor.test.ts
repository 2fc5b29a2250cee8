import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { Q, respond } from "@/test-support/client/fake-server";
import { FakeEventStreams, FakeLockManager, FakeChannelHub, testEnvironment } from "@/test-support/client/fake-tabs";
import { createHarness, type Harness } from "@/test-support/client/harness";

/**
 * A proctor's actions reaching the candidate's page (docs/sync-protocol.md, "Proctor actions"): the heartbeat
 * carries the deadline the page shows (H4, the acknowledgement), and the presence stream (P1, P2) brings an
 * extension or a force-submit at once instead of at the next 15 s heartbeat.
 */

let h: Harness;
let streams: FakeEventStreams;
beforeEach(() => {
  h = createHarness();
  streams = new FakeEventStreams();
});
afterEach(async () => {
  await h.cleanup();
});

async function started() {
  const tab = h.engine({
    initialView: h.server.view(),
    environment: testEnvironment({ storagePersisted: true, streams }),
  });
  await tab.engine.start();
  await h.settle();
  return tab;
}

const beats = () => h.server.requestsTo("heartbeat");
const later = (ms: number) => new Date(Date.parse(h.server.deadline) + ms).toISOString();

describe("the heartbeat's deadline (the acknowledgement)", () => {
  it("every heartbeat carries the deadline the page shows", async () => {
    await started();
    await h.advance(15_000);
    for (const beat of beats()) expect(beat.body.deadline).toBe(h.server.deadline);
  });

  it("a deadline learnt from any answer triggers a heartbeat soon that carries it, without waiting 15 s", async () => {
    const { engine } = await started();
    const t0 = h.clock.now();
    await h.advance(6_000);
    const extended = later(600_000);
    h.server.deadline = extended;
    // An autosave's answer brings the new deadline…
    await engine.edit(Q.text, "a");
    await h.advance(1_500);
    expect(engine.getSnapshot().deadline).toBe(extended);
    // …and the heartbeat that reports it follows within the 5 s gap (not at +15 s).
    await h.advance(5_000);
    const carrying = beats().filter((beat) => beat.body.deadline === extended);
    expect(carrying.length).toBeGreaterThanOrEqual(1);
    expect(carrying[0]!.at - t0).toBeLessThan(15_000);
  });

  it("a heartbeat's own answer with a new deadline is acknowledged by the next heartbeat, soon", async () => {
    const { engine } = await started();
    const t0 = h.clock.now();
    const extended = later(300_000);
    h.server.deadline = extended;
    await h.advance(15_000); // the periodic beat brings it
    expect(engine.getSnapshot().deadline).toBe(extended);
    await h.advance(5_000);
    const carrying = beats().filter((beat) => beat.body.deadline === extended);
    expect(carrying[0]!.at - t0).toBe(20_000);
  });
});

describe("the presence stream", () => {
  it("is opened by the leader with the device id, while online and running", async () => {
    const { engine } = await started();
    expect(streams.live()).toHaveLength(1);
    const stream = streams.live()[0]!;
    expect(stream.url).toBe(
      `/api/attempts/${engine.attemptId}/events?deviceId=${encodeURIComponent(engine.getSnapshot().deviceId!)}`,
    );
    expect([...stream.events].sort()).toEqual([
      "announcement",
      "deadline",
      "paused",
      "ready",
      "reopened",
      "resumed",
      "submitted",
    ]);
  });

  it("closes on offline and reopens on online; closes on pagehide and reopens when shown again; closes on stop", async () => {
    const { engine, env } = await started();
    env.setOnline(false);
    await h.settle();
    expect(streams.live()).toHaveLength(0);
    env.setOnline(true);
    await h.settle();
    expect(streams.live()).toHaveLength(1);
    expect(streams.opened).toHaveLength(2);

    env.pageHide();
    env.setVisible(false);
    await h.settle();
    expect(streams.live()).toHaveLength(0);
    env.setVisible(true);
    await h.settle();
    expect(streams.live()).toHaveLength(1);

    engine.stop();
    expect(streams.live()).toHaveLength(0);
  });

  it("only the leader tab holds one; the next leader opens its own", async () => {
    const locks = new FakeLockManager();
    const hub = new FakeChannelHub();
    const first = h.engine({ environment: testEnvironment({ locks, hub, streams }), initialView: h.server.view() });
    const second = h.engine({ environment: testEnvironment({ locks, hub, streams }), initialView: h.server.view() });
    await first.engine.start();
    await second.engine.start();
    await h.settle();
    expect(streams.live()).toHaveLength(1);
    first.engine.stop();
    await h.settle();
    expect(second.engine.getSnapshot().isLeader).toBe(true);
    expect(streams.live()).toHaveLength(1);
    expect(streams.opened).toHaveLength(2);
  });

  it("a deadline event shows the later deadline at once and sends a heartbeat at once that carries it", async () => {
    const { engine } = await started();
    await h.advance(2_000);
    const before = beats().length;
    const extended = later(900_000);
    h.server.deadline = extended;
    streams.live()[0]!.emit("deadline", { serverTime: h.server.serverTime(), deadline: extended });
    await h.settle();
    expect(engine.getSnapshot().deadline).toBe(extended);
    expect(beats()).toHaveLength(before + 1);
    expect(beats().at(-1)!.body.deadline).toBe(extended);
    // Nothing more to say: no second beat until the periodic one.
    await h.advance(5_000);
    expect(beats()).toHaveLength(before + 1);
  });

  it("ready with the deadline already shown does nothing; ready with a later one acts like a deadline event", async () => {
    const { engine } = await started();
    const stream = streams.live()[0]!;
    const before = beats().length;
    stream.emit("ready", { serverTime: h.server.serverTime(), deadline: h.server.deadline, status: "in_progress" });
    await h.settle();
    expect(beats()).toHaveLength(before);

    const extended = later(120_000);
    h.server.deadline = extended;
    stream.emit("ready", { serverTime: h.server.serverTime(), deadline: extended, status: "in_progress" });
    await h.settle();
    expect(engine.getSnapshot().deadline).toBe(extended);
    expect(beats().at(-1)!.body.deadline).toBe(extended);
  });

  it("a submitted event ends the page on its submitted facts (the GET brings the submission)", async () => {
    const { engine, env } = await started();
    await engine.edit(Q.text, "kept on the device");
    await h.server.freeze();
    streams.live()[0]!.emit("submitted", { serverTime: h.server.serverTime() });
    await h.settle();
    const snapshot = engine.getSnapshot();
    expect(snapshot.closed).toMatchObject({ reason: "ALREADY_SUBMITTED", submissionId: "sub-1" });
    expect(await engine.edit(Q.text, "x")).toMatchObject({ ok: false, reason: "closed" });
    expect(h.server.requestsTo("get").length).toBeGreaterThanOrEqual(1);
    // Left open while the page is (its closing means the device left), but never opened again for a closed attempt.
    expect(streams.live()).toHaveLength(1);
    env.setOnline(false);
    env.setOnline(true);
    await h.settle();
    expect(streams.live()).toHaveLength(0);
    expect(streams.opened).toHaveLength(1);
  });

  it("ready saying submitted does the same", async () => {
    const { engine } = await started();
    await h.server.freeze();
    streams
      .live()[0]!
      .emit("ready", { serverTime: h.server.serverTime(), deadline: h.server.deadline, status: "submitted" });
    await h.settle();
    expect(engine.getSnapshot().closed).toMatchObject({ submissionId: "sub-1" });
  });

  it("ignores malformed events and events it does not know", async () => {
    const { engine } = await started();
    const stream = streams.live()[0]!;
    const before = beats().length;
    stream.emit("deadline", { deadline: "soon" });
    stream.emit("submitted", {});
    stream.emit("ready", { serverTime: "x" });
    await h.settle();
    expect(engine.getSnapshot().closed).toBeNull();
    expect(engine.getSnapshot().deadline).toBe(h.server.deadline);
    expect(beats()).toHaveLength(before);
  });

  it("without EventSource the engine runs as before, on heartbeats alone", async () => {
    const tab = h.engine({ initialView: h.server.view(), environment: testEnvironment() });
    await tab.engine.start();
    await h.settle();
    h.server.deadline = later(60_000);
    await h.advance(15_000);
    expect(tab.engine.getSnapshot().deadline).toBe(h.server.deadline);
  });
});

describe("a proctor's pause (ADR 016)", () => {
  const pausedAt = () => h.server.serverTime();

  it("a paused event shows the pause at once; edits made before it keep syncing", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "typed before the alarm");
    const at = pausedAt();
    streams.live()[0]!.emit("paused", { serverTime: at, pausedAt: at, reason: "Fire alarm" });
    await h.settle();
    expect(engine.getSnapshot().pause).toEqual({ pausedAt: at, reason: "Fire alarm" });
    await h.advance(5_000);
    expect(engine.getSnapshot().pendingCount).toBe(0);
    expect(engine.getSnapshot().answers[Q.text]).toMatchObject({ status: "saved", value: "typed before the alarm" });
  });

  it("a resumed event clears the pause with the moved deadline and acknowledges it with a heartbeat", async () => {
    const { engine } = await started();
    const stream = streams.live()[0]!;
    const at = pausedAt();
    stream.emit("paused", { serverTime: at, pausedAt: at, reason: "Fire alarm" });
    await h.advance(30_000);
    const before = beats().length;
    const moved = later(30_000);
    h.server.deadline = moved;
    stream.emit("resumed", { serverTime: h.server.serverTime(), deadline: moved });
    await h.settle();
    expect(engine.getSnapshot()).toMatchObject({ pause: null, deadline: moved });
    expect(beats()).toHaveLength(before + 1);
    expect(beats().at(-1)!.body.deadline).toBe(moved);
  });

  it("a pause the stream missed arrives with the next heartbeat's answer, and so does its end", async () => {
    const { engine } = await started();
    const at = pausedAt();
    const answer = (paused: boolean) =>
      respond.json(200, {
        serverTime: h.server.serverTime(),
        deadline: h.server.deadline,
        revision: h.server.revision,
        status: "in_progress",
        pausedAt: paused ? at : null,
        pauseReason: paused ? "Fire alarm" : null,
      });
    // No "paused" event reaches the page (published before its subscription was live).
    h.server.next("heartbeat", answer(true));
    await h.advance(15_000);
    expect(engine.getSnapshot().pause).toEqual({ pausedAt: at, reason: "Fire alarm" });
    h.server.next("heartbeat", answer(false));
    await h.advance(15_000);
    expect(engine.getSnapshot().pause).toBeNull();
  });

  it("ready tells a reconnecting page the pause it missed, and its end", async () => {
    const { engine } = await started();
    const stream = streams.live()[0]!;
    const at = pausedAt();
    stream.emit("ready", {
      serverTime: at,
      deadline: h.server.deadline,
      status: "in_progress",
      pausedAt: at,
      pauseReason: "Power cut",
    });
    await h.settle();
    expect(engine.getSnapshot().pause).toEqual({ pausedAt: at, reason: "Power cut" });
    await h.advance(1_000);
    stream.emit("ready", {
      serverTime: h.server.serverTime(),
      deadline: h.server.deadline,
      status: "in_progress",
      pausedAt: null,
      pauseReason: null,
    });
    await h.settle();
    expect(engine.getSnapshot().pause).toBeNull();
  });

  it("a paused event stamped before an autosave's answer but arriving after it still locks the page", async () => {
    const { engine } = await started();
    const stream = streams.live()[0]!;
    const at = pausedAt();
    // The stream stamped its event, then read the row; meanwhile an autosave was answered, stamped later, and
    // says nothing of the pause: it is no fresher word on it.
    await h.advance(500);
    await engine.edit(Q.text, "typed as the alarm rang");
    await h.advance(1_500);
    expect(h.server.requestsTo("answers")).toHaveLength(1);
    stream.emit("paused", { serverTime: at, pausedAt: at, reason: "Fire alarm" });
    await h.settle();
    expect(engine.getSnapshot().pause).toEqual({ pausedAt: at, reason: "Fire alarm" });
  });

  it("an extension stamped before a paused event but arriving after it still moves the deadline", async () => {
    const { engine } = await started();
    const stream = streams.live()[0]!;
    const extendedAt = h.server.serverTime();
    const extended = later(600_000);
    h.server.deadline = extended;
    await h.advance(200);
    const at = pausedAt();
    stream.emit("paused", { serverTime: at, pausedAt: at, reason: "Fire alarm" });
    await h.settle();
    // The heartbeat the extension sends at once is lost: the event alone must move the deadline.
    h.server.next("heartbeat", respond.network());
    stream.emit("deadline", { serverTime: extendedAt, deadline: extended });
    await h.settle();
    expect(engine.getSnapshot()).toMatchObject({ pause: { pausedAt: at }, deadline: extended });
  });

  it("an older answer does not undo a newer one: a stale paused event after the resume is ignored", async () => {
    const { engine } = await started();
    const stream = streams.live()[0]!;
    const at = pausedAt();
    await h.advance(2_000);
    stream.emit("resumed", { serverTime: h.server.serverTime(), deadline: h.server.deadline });
    await h.settle();
    stream.emit("paused", { serverTime: at, pausedAt: at, reason: "Fire alarm" });
    await h.settle();
    expect(engine.getSnapshot().pause).toBeNull();
  });
});
