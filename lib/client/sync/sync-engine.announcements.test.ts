import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { FakeChannelHub, FakeEventStreams, FakeLockManager, testEnvironment } from "@/test-support/client/fake-tabs";
import { createHarness, type Harness } from "@/test-support/client/harness";

/**
 * Step A (docs/sync-protocol.md, "Announcements"): an announcement pushed on the page's stream, or read back
 * when the stream (re)opens, is stored on the device, shown, acknowledged once stored, and still there after
 * a reload without a network. Dismissing is remembered locally.
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

const ROOM = { id: "0193a000-0000-7000-8000-000000000001", message: "Room 2 now", sentAt: "2026-12-01T09:00:00.000Z" };
const TYPO = { id: "0193a000-0000-7000-8000-000000000002", message: "Q3: metres", sentAt: "2026-12-01T09:05:00.000Z" };

async function started() {
  const tab = h.engine({ initialView: h.server.view(), environment: testEnvironment({ streams }) });
  await tab.engine.start();
  await h.settle();
  return tab;
}

const shown = (tab: { engine: { announcements: { getSnapshot(): readonly { id: string }[] } } }) =>
  tab.engine.announcements.getSnapshot().map((record) => record.id);

describe("announcements on the candidate's device", () => {
  it("a pushed one is stored, shown and acknowledged with the device id", async () => {
    const tab = await started();
    h.server.announcements = [ROOM];
    streams.live()[0]!.emit("announcement", ROOM);
    await h.settle();

    expect(tab.engine.announcements.getSnapshot()).toEqual([
      expect.objectContaining({ ...ROOM, dismissed: 0, acknowledged: 1 }),
    ]);
    expect(await h.db.announcements.get([tab.engine.attemptId, ROOM.id])).toMatchObject({ acknowledged: 1 });
    const deviceId = tab.engine.getSnapshot().deviceId!;
    expect(h.server.requestsTo("receipts").map((request) => request.body)).toEqual([{ deviceId, ids: [ROOM.id] }]);
    expect([...h.server.receipts]).toEqual([`${ROOM.id}:${deviceId}`]);

    // The same one again (a second push, a catch-up) is neither stored twice nor acknowledged again.
    streams.live()[0]!.emit("announcement", ROOM);
    await h.settle();
    expect(shown(tab)).toEqual([ROOM.id]);
    expect(h.server.requestsTo("receipts")).toHaveLength(1);
  });

  it("one sent while the device was offline arrives when the stream reopens", async () => {
    const tab = await started();
    tab.env.setOnline(false);
    await h.settle();
    h.server.announcements = [ROOM, TYPO];
    expect(shown(tab)).toEqual([]);

    tab.env.setOnline(true);
    await h.settle();
    // The reopened stream's first event is `ready`: the page reads the attempt back.
    streams
      .live()[0]!
      .emit("ready", { serverTime: h.server.serverTime(), deadline: h.server.deadline, status: "in_progress" });
    await h.settle();
    expect(shown(tab)).toEqual([ROOM.id, TYPO.id]);
    expect(h.server.receipts.size).toBe(2);
  });

  it("a receipt that did not reach the server is sent again at the next catch-up", async () => {
    const tab = await started();
    h.server.announcements = [ROOM];
    h.server.reachable = false;
    streams.live()[0]!.emit("announcement", ROOM);
    await h.settle();
    expect(tab.engine.announcements.getSnapshot()).toEqual([expect.objectContaining({ acknowledged: 0 })]);

    h.server.reachable = true;
    streams
      .live()[0]!
      .emit("ready", { serverTime: h.server.serverTime(), deadline: h.server.deadline, status: "in_progress" });
    await h.settle();
    expect(tab.engine.announcements.getSnapshot()).toEqual([expect.objectContaining({ acknowledged: 1 })]);
    expect(h.server.receipts.size).toBe(1);
  });

  it("those of the server render are kept; after a reload without network they are still shown, dismissed or not", async () => {
    h.server.announcements = [ROOM, TYPO];
    const first = await started();
    expect(shown(first)).toEqual([ROOM.id, TYPO.id]);
    await first.engine.announcements.dismiss(ROOM.id);
    first.engine.stop();

    h.server.reachable = false;
    const reloaded = h.engine({ environment: testEnvironment({ streams }) });
    await reloaded.engine.start();
    await h.settle();
    expect(reloaded.engine.announcements.getSnapshot()).toEqual([
      expect.objectContaining({ id: ROOM.id, dismissed: 1 }),
      expect.objectContaining({ id: TYPO.id, dismissed: 0 }),
    ]);
    await reloaded.engine.announcements.showAgain(ROOM.id);
    expect(reloaded.engine.announcements.getSnapshot()[0]).toMatchObject({ id: ROOM.id, dismissed: 0 });
  });

  it("a tab without the stream shows what the leader stored, and a dismissal in one tab holds in the other", async () => {
    const locks = new FakeLockManager();
    const hub = new FakeChannelHub();
    const leader = h.engine({ environment: testEnvironment({ locks, hub, streams }), initialView: h.server.view() });
    const follower = h.engine({ environment: testEnvironment({ locks, hub, streams }), initialView: h.server.view() });
    await leader.engine.start();
    await follower.engine.start();
    await h.settle();
    expect(streams.live()).toHaveLength(1);

    h.server.announcements = [ROOM];
    streams.live()[0]!.emit("announcement", ROOM);
    await h.settle();
    expect(shown(follower)).toEqual([ROOM.id]);

    await follower.engine.announcements.dismiss(ROOM.id);
    await h.settle();
    expect(leader.engine.announcements.getSnapshot()).toEqual([expect.objectContaining({ id: ROOM.id, dismissed: 1 })]);
  });

  it("a malformed announcement event is dropped", async () => {
    const tab = await started();
    streams.live()[0]!.emit("announcement", { id: ROOM.id, message: 42 });
    await h.settle();
    expect(shown(tab)).toEqual([]);
    expect(h.server.requestsTo("receipts")).toHaveLength(0);
  });
});
