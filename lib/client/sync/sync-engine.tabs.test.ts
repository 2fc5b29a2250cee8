import { openDB } from "idb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { DB_VERSION } from "@/lib/client/offline/db";

import type { FetchLike } from "./http";
import { ATTEMPT_ID, Q, respond } from "@/test-support/client/fake-server";
import { FakeChannelHub, FakeLockManager, testEnvironment } from "@/test-support/client/fake-tabs";
import { createHarness, type Harness } from "@/test-support/client/harness";

/** Several tabs on one attempt (docs/sync-protocol.md, "The client", T1–T2). */

let h: Harness;
let locks: FakeLockManager;
let hub: FakeChannelHub;
beforeEach(() => {
  h = createHarness();
  locks = new FakeLockManager();
  hub = new FakeChannelHub();
});
afterEach(async () => {
  await h.cleanup();
});

async function openTab() {
  const requests: string[] = [];
  const fetch: FetchLike = (input, init) => {
    requests.push(`${init.method ?? "GET"} ${input}`);
    return h.server.fetch(input, init);
  };
  const tab = h.engine({ initialView: h.server.view(), fetch, environment: testEnvironment({ locks, hub }) });
  await tab.engine.start();
  await h.settle();
  return { ...tab, requests };
}

describe("two tabs on one attempt", () => {
  it("only the leader talks to the server; the other tab's edits reach IndexedDB first and the leader sends them", async () => {
    const leader = await openTab();
    const other = await openTab();
    expect(leader.engine.getSnapshot().isLeader).toBe(true);
    expect(other.engine.getSnapshot().isLeader).toBe(false);
    expect(other.requests).toEqual([]);

    await other.engine.edit(Q.text, "typed in tab two");
    await leader.engine.edit(Q.single, "a");
    await h.settle();
    // Every tab shows every edit, pending.
    expect(leader.engine.getSnapshot().answers[Q.text]).toMatchObject({ value: "typed in tab two", status: "pending" });
    expect(other.engine.getSnapshot().answers[Q.single]).toMatchObject({ value: "a", status: "pending" });

    await h.advance(1_500);
    expect(other.requests).toEqual([]);
    const autosaves = h.server.requestsTo("answers");
    expect(autosaves).toHaveLength(1);
    expect(autosaves[0]!.body.answers.map((answer: { questionId: string }) => answer.questionId).sort()).toEqual(
      [Q.text, Q.single].sort(),
    );
    // And every tab shows the same per-question status.
    for (const tab of [leader, other]) {
      expect(tab.engine.getSnapshot().answers[Q.text]?.status).toBe("saved");
      expect(tab.engine.getSnapshot().pendingCount).toBe(0);
    }
    // Edits in both tabs share one clock: versions never collide.
    expect(h.server.answers.get(Q.text)?.version).toBe(1);
    expect(h.server.answers.get(Q.single)?.version).toBe(2);
    await h.advance(60_000);
    expect(other.requests).toEqual([]);
    expect(h.server.maxInFlight).toBe(1);
  });

  it("shows the leader's network state in every tab", async () => {
    const leader = await openTab();
    const other = await openTab();
    h.server.next("answers", respond.error(429, "RATE_LIMITED", { headers: { "Retry-After": "4" } }));
    await leader.engine.edit(Q.text, "x");
    await h.advance(1_500);
    expect(other.engine.getSnapshot()).toMatchObject({
      connection: "unstable",
      retryAt: h.clock.now() + 4_000,
      pendingCount: 1,
    });
    await h.advance(4_000);
    expect(other.engine.getSnapshot()).toMatchObject({ connection: "ok", retryAt: null, pendingCount: 0 });
  });

  it("closing the leader hands over without losing an edit", async () => {
    const leader = await openTab();
    const other = await openTab();
    h.server.next("answers", respond.network());
    await leader.engine.edit(Q.essay, "written in the leader just before it closed");
    await h.advance(1_500);
    expect(h.server.answers.has(Q.essay)).toBe(false);
    leader.engine.stop();
    await h.settle();

    expect(other.engine.getSnapshot().isLeader).toBe(true);
    await other.engine.edit(Q.text, "then typed in the survivor");
    await h.advance(1_500);
    expect(h.server.answers.get(Q.essay)?.value).toBe("written in the leader just before it closed");
    expect(h.server.answers.get(Q.text)?.value).toBe("then typed in the survivor");
    expect(other.engine.getSnapshot().pendingCount).toBe(0);
  });

  it("a newer release upgrading the device's store stops this tab: it hands over the sync role, sends nothing more and asks for a reload", async () => {
    const leader = await openTab();
    await leader.engine.edit(Q.essay, "kept before the upgrade");
    const lock = `holdfast-sync-${ATTEMPT_ID}`;
    expect(locks.isHeld(lock)).toBe(true);
    expect(leader.engine.getSnapshot().storeSuperseded).toBe(false);

    // A page of the next release, in another tab, opens the store at a higher version.
    const sentBefore = leader.requests.length;
    const newer = await openDB(h.db.name, DB_VERSION + 10, { upgrade: () => undefined });
    try {
      await h.settle();
      expect(leader.engine.getSnapshot()).toMatchObject({ storeSuperseded: true, isLeader: false, storageError: null });
      // The sync role is free for a tab of the new release, which sends what this one stored.
      expect(locks.isHeld(lock)).toBe(false);
      expect(await newer.get("drafts", [ATTEMPT_ID, Q.essay])).toMatchObject({
        value: "kept before the upgrade",
        dirty: 1,
      });
      // Nothing more is written or sent from here.
      expect(await leader.engine.edit(Q.text, "typed after the upgrade")).toMatchObject({ ok: false });
      await h.advance(60_000);
      expect(leader.requests.slice(sentBefore)).toEqual([]);
      expect(await newer.get("drafts", [ATTEMPT_ID, Q.text])).toBeUndefined();
    } finally {
      newer.close();
    }
  });

  it("a submit clicked in the other tab is sent by the leader, and both tabs end submitted", async () => {
    const leader = await openTab();
    const other = await openTab();
    await other.engine.edit(Q.text, "final answer");
    const final = await other.engine.submit();
    expect(final.submitState).toBe("submitted");
    expect(other.requests).toEqual([]);
    expect(h.server.requestsTo("submit")).toHaveLength(1);
    await h.settle();
    expect(leader.engine.getSnapshot().submitState).toBe("submitted");
    expect(await leader.engine.edit(Q.text, "x")).toMatchObject({ ok: false, reason: "submitted" });
    expect(h.server.answers.get(Q.text)?.value).toBe("final answer");
  });

  it("an edit in one tab is refused once another tab's submit is stored", async () => {
    const leader = await openTab();
    const other = await openTab();
    h.server.hold("submit");
    void leader.engine.submit();
    await h.settle();
    expect(other.engine.getSnapshot().submitState).toBe("submitting");
    expect(await other.engine.edit(Q.text, "too late")).toMatchObject({ ok: false, reason: "submitting" });
  });
});
