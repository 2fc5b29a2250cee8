import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { listDrafts } from "../offline/drafts";
import { Q } from "@/test-support/client/fake-server";
import { createHarness, type Harness } from "@/test-support/client/harness";

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

type SentAnswer = { questionId: string; value: unknown; version: number; editedAt?: string };
const summary = (answers: SentAnswer[]) => answers.map((answer) => [answer.questionId, answer.value, answer.version]);

describe("edit → debounce → one request", () => {
  it("sends the edits of a typing burst as one delta 1.5 s after the last one", async () => {
    const { engine } = await started();
    expect(h.server.requestsTo("answers")).toHaveLength(0);

    await engine.edit(Q.text, "T");
    await h.advance(1_000);
    await engine.edit(Q.text, "TC");
    await engine.edit(Q.single, "b");
    await h.advance(1_400);
    expect(h.server.requestsTo("answers")).toHaveLength(0);
    expect(engine.getSnapshot().answers[Q.text]).toMatchObject({ value: "TC", status: "pending" });
    expect(engine.getSnapshot().pendingCount).toBe(2);

    await h.advance(100);
    const sent = h.server.requestsTo("answers");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.deviceId).toBe(engine.getSnapshot().deviceId);
    expect(summary(sent[0]!.body.answers)).toEqual([
      [Q.text, "TC", 2],
      [Q.single, "b", 3],
    ]);
    expect(sent[0]!.body.answers[0].editedAt).toBe(new Date(h.clock.now() - 1_500).toISOString());
    const snapshot = engine.getSnapshot();
    expect(snapshot).toMatchObject({
      pendingCount: 0,
      connection: "ok",
      lastSyncAt: h.clock.now(),
      lastAckRevision: 1,
    });
    expect(snapshot.answers[Q.text]).toMatchObject({ value: "TC", status: "saved", version: 2 });
    expect(h.server.answers.get(Q.text)).toMatchObject({ value: "TC", version: 2 });
  });

  it("shows an edit at once, before its transaction commits", async () => {
    const { engine } = await started();
    const writing = engine.edit(Q.essay, "Draft");
    expect(engine.getSnapshot().answers[Q.essay]).toMatchObject({ value: "Draft", status: "pending" });
    await expect(writing).resolves.toEqual({ ok: true, version: 1 });
  });

  it("refuses an invalid value locally, as the server would, and stores nothing", async () => {
    const { engine } = await started();
    const result = await engine.edit(Q.single, "z");
    expect(result).toMatchObject({ ok: false, reason: "invalid" });
    expect(await engine.edit("66666666-6666-4666-8666-666666666666", "x")).toMatchObject({
      ok: false,
      reason: "unknown-question",
    });
    expect(await listDrafts(h.db, h.server.attemptId)).toEqual([]);
    await h.advance(5_000);
    expect(h.server.requestsTo("answers")).toHaveLength(0);
  });
});

describe("one request in flight", () => {
  it("keeps an edit made while the request flies dirty and sends it next", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "first");
    const held = h.server.hold("answers");
    await h.advance(1_500);
    const flying = await held.arrived;
    expect(summary(flying.body.answers)).toEqual([[Q.text, "first", 1]]);

    await engine.edit(Q.text, "second");
    held.release();
    await h.settle();
    // The acknowledgement of v1 must not clean v2.
    expect(engine.getSnapshot().answers[Q.text]).toMatchObject({ value: "second", version: 2, status: "pending" });
    const [draft] = await listDrafts(h.db, h.server.attemptId);
    expect(draft).toMatchObject({ version: 2, dirty: 1 });

    await h.advance(1_500);
    expect(summary(h.server.requestsTo("answers")[1]!.body.answers)).toEqual([[Q.text, "second", 2]]);
    expect(engine.getSnapshot().answers[Q.text]).toMatchObject({ status: "saved", version: 2 });
  });

  it("never has two sync requests at the server at once, however much is typed", async () => {
    const { engine } = await started();
    for (let round = 0; round < 4; round += 1) {
      const held = h.server.hold("answers");
      await engine.edit(Q.text, `round ${round}`);
      await engine.edit(Q.numeric, round);
      await h.advance(1_500);
      await held.arrived;
      for (let i = 0; i < 3; i += 1) {
        await engine.edit(Q.essay, `typing ${round}.${i}`);
        await h.advance(2_000);
      }
      held.release();
      await h.settle();
    }
    await h.advance(10_000);
    expect(h.server.maxInFlight).toBe(1);
    expect(engine.getSnapshot().pendingCount).toBe(0);
    expect(h.server.answers.get(Q.essay)?.value).toBe("typing 3.2");
  });

  it("splits a delta larger than the body budget over consecutive requests", async () => {
    const { engine } = await started({ config: { maxDeltaBytes: 600 } });
    await engine.edit(Q.text, "x".repeat(300));
    await engine.edit(Q.essay, "y".repeat(300));
    await h.advance(1_500);
    const sent = h.server.requestsTo("answers");
    expect(sent).toHaveLength(2);
    expect(sent[0]!.body.answers).toHaveLength(1);
    expect(sent[1]!.body.answers).toHaveLength(1);
    expect(sent[1]!.at).toBe(sent[0]!.at); // no debounce or backoff between the parts
    expect(engine.getSnapshot().pendingCount).toBe(0);
  });
});

describe("stale results and the clock", () => {
  it("adopts the server's greater edit, and the next edit beats it", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "mine, offline");
    // Another device wrote version 10 meanwhile.
    h.server.put(Q.text, "phone", 10, "phone-device");
    await h.advance(1_500);

    const snapshot = engine.getSnapshot();
    expect(snapshot.answers[Q.text]).toMatchObject({
      value: "phone",
      version: 10,
      deviceId: "phone-device",
      status: "saved",
    });
    expect(snapshot.clock).toBe(10);
    expect(snapshot.pendingCount).toBe(0);
    expect(h.server.requestsTo("answers")).toHaveLength(1); // a stale answer is not retried

    expect(await engine.edit(Q.text, "laptop again")).toEqual({ ok: true, version: 11 });
    await h.advance(1_500);
    expect(h.server.answers.get(Q.text)).toMatchObject({ value: "laptop again", version: 11 });
    expect(h.server.requestsTo("answers")[1]!.body.answers[0].version).toBe(11);
  });

  it("keeps a newer local edit over a stale result that arrives after it", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "v1");
    h.server.put(Q.text, "other", 2, "aaa-other");
    const held = h.server.hold("answers");
    await h.advance(1_500);
    await held.arrived;
    // The candidate keeps typing: v3 > the server's v2.
    await engine.edit(Q.text, "v3 local");
    await engine.edit(Q.text, "v3 local!");
    held.release();
    await h.settle();
    expect(engine.getSnapshot().answers[Q.text]).toMatchObject({ value: "v3 local!", status: "pending" });
    await h.advance(1_500);
    expect(h.server.answers.get(Q.text)).toMatchObject({ value: "v3 local!" });
  });
});

describe("page hide and visibility", () => {
  it("on pagehide sends what is dirty at once, with keepalive, skipping the debounce", async () => {
    const { engine, env } = await started();
    await engine.edit(Q.text, "closing the lid");
    env.pageHide();
    await h.settle();
    const [sent] = h.server.requestsTo("answers");
    expect(sent?.keepalive).toBe(true);
    expect(summary(sent!.body.answers)).toEqual([[Q.text, "closing the lid", 1]]);
    expect(engine.getSnapshot().pendingCount).toBe(0);
  });

  it("when the tab is hidden flushes at once; when it is visible again re-reads the server", async () => {
    const { engine, env } = await started();
    await engine.edit(Q.numeric, 7);
    env.setVisible(false);
    await h.settle();
    expect(h.server.requestsTo("answers")).toHaveLength(1);

    h.server.put(Q.single, "c", 50, "phone-device");
    const gets = h.server.requestsTo("get").length;
    env.setVisible(true);
    await h.settle();
    expect(h.server.requestsTo("get")).toHaveLength(gets); // a glance away is not worth a whole-paper GET
    env.setVisible(false);
    await h.advance(30_000);
    env.setVisible(true);
    await h.settle();
    expect(h.server.requestsTo("get")).toHaveLength(gets + 1);
    expect(engine.getSnapshot().answers[Q.single]).toMatchObject({ value: "c", version: 50 });
  });

  it("sends only what fits a keepalive body", async () => {
    const { engine, env } = await started({ config: { keepaliveMaxBytes: 400 } });
    await engine.edit(Q.essay, "e".repeat(1_000));
    await engine.edit(Q.text, "short");
    env.pageHide();
    await h.settle();
    const [sent, rest] = h.server.requestsTo("answers");
    expect(sent?.keepalive).toBe(true);
    expect(summary(sent!.body.answers)).toEqual([[Q.text, "short", 2]]);
    // The page did not go away after all: the rest follows as an ordinary request.
    expect(rest?.keepalive).toBe(false);
    expect(summary(rest!.body.answers)).toEqual([[Q.essay, "e".repeat(1_000), 1]]);
    expect(engine.getSnapshot().pendingCount).toBe(0);
  });
});

describe("snapshots", () => {
  it("are immutable and only change when something changed", async () => {
    const { engine } = await started();
    const listener = vi.fn();
    engine.subscribe(listener);
    const before = engine.getSnapshot();
    expect(engine.getSnapshot()).toBe(before);
    await engine.edit(Q.text, "a");
    const after = engine.getSnapshot();
    expect(after).not.toBe(before);
    expect(before.answers[Q.text]).toBeUndefined();
    expect(after.answers[Q.text]?.value).toBe("a");
    expect(listener).toHaveBeenCalled();
    // Unchanged answers keep their object identity from one snapshot to the next (cheap memoised rows).
    await engine.edit(Q.single, "a");
    expect(engine.getSnapshot().answers[Q.text]).toBe(after.answers[Q.text]);
  });

  it("renders the server's view before the device store is read", () => {
    h.server.put(Q.text, "from server", 3, "other");
    const { engine } = h.engine({ initialView: h.server.view() });
    const snapshot = engine.getSnapshot();
    expect(snapshot.ready).toBe(false);
    expect(snapshot.questions).toHaveLength(5);
    expect(snapshot.answers[Q.text]).toMatchObject({ value: "from server", status: "saved" });
  });
});
