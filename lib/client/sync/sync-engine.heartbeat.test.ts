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

  it("goes out soon after a change of state: pending work appears and clears, failures start", async () => {
    const t0 = h.clock.now();
    const { engine } = await started();
    await h.advance(6_000);
    await engine.edit(Q.text, "a");
    await engine.edit(Q.essay, "b");
    await h.settle();
    expect(beats()).toHaveLength(2);
    expect(beats()[1]!.body).toMatchObject({ pending: 1, clock: 0 }); // sent on the first keystroke
    expect(beats()[1]!.at - t0).toBe(6_000);

    // The flush clears the pending work; the next beat waits out the 5 s gap.
    await h.advance(1_500);
    expect(engine.getSnapshot().pendingCount).toBe(0);
    await h.advance(3_499);
    expect(beats()).toHaveLength(2);
    await h.advance(1);
    expect(beats()[2]!.body).toMatchObject({ pending: 0, clock: 2, lastAckRevision: 1 });

    // Failures start: pending work that cannot be sent, and the count.
    h.server.next("answers", ...Array.from({ length: 4 }, () => respond.network()));
    await h.advance(10_000);
    await engine.edit(Q.text, "c");
    await h.advance(5_000); // failures at +1.5 s, +1.75 s, +2.25 s, +3.25 s; the beat at +5 s
    const last = beats().at(-1)!;
    expect(last.body).toMatchObject({ pending: 1, consecutiveFailures: 4, oldestPendingMs: 5_000 });
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
