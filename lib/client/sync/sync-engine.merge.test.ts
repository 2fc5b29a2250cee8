import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { getAttemptRecord } from "../offline/attempts";
import type { DraftRecord } from "../offline/db";
import { listDrafts } from "../offline/drafts";
import { ATTEMPT_ID, Q, respond } from "@/test-support/client/fake-server";
import { createHarness, type Harness } from "@/test-support/client/harness";

/**
 * Merge on load (docs/sync-protocol.md, "The client", L1–L3): per question the greater (version, deviceId)
 * wins, whichever side holds it; the clock moves to the highest version seen.
 */

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const LAPTOP = "mmm-laptop";

/** This device (the laptop) used the attempt before: its record and drafts are in IndexedDB. */
async function deviceWith(drafts: Omit<DraftRecord, "attemptId">[], clock: number) {
  await h.setDeviceId(LAPTOP);
  const first = h.engine({ initialView: h.server.view() });
  h.server.next("get", respond.network());
  await first.engine.start();
  await h.settle();
  first.engine.stop();
  await h.db.drafts.bulkPut(drafts.map((draft) => ({ ...draft, attemptId: ATTEMPT_ID })));
  const record = await h.db.attempts.get(ATTEMPT_ID);
  await h.db.attempts.put({ ...record!, clock });
}

const own = (questionId: string, value: DraftRecord["value"], version: number, dirty: 0 | 1 = 1) => ({
  questionId,
  value,
  version,
  deviceId: LAPTOP,
  dirty,
  editedAt: Date.parse("2026-12-01T08:59:00Z"),
  rejected: null,
});

async function open() {
  const requestsBefore = h.server.requests.length;
  const tab = h.engine();
  await tab.engine.start();
  await h.settle();
  return { ...tab, requests: h.server.requests.slice(requestsBefore) };
}

describe("merge on load", () => {
  it("adopts the server's value when it is newer, and does not push the older local one", async () => {
    await deviceWith([own(Q.text, "old laptop draft", 2)], 2);
    h.server.put(Q.text, "newer from phone", 3, "aaa-phone");

    const { engine, requests } = await open();
    expect(requests.map((request) => request.route)).toEqual(expect.arrayContaining(["get"]));
    expect(requests.filter((request) => request.route === "answers")).toHaveLength(0);
    expect(engine.getSnapshot().answers[Q.text]).toMatchObject({
      value: "newer from phone",
      version: 3,
      status: "saved",
    });
    const [draft] = await listDrafts(h.db, ATTEMPT_ID);
    expect(draft).toMatchObject({ value: "newer from phone", dirty: 0, deviceId: "aaa-phone" });
  });

  it("pushes the local value when it is newer (dirty or not), and the server ends with it", async () => {
    await deviceWith([own(Q.text, "laptop v5", 5), own(Q.numeric, 12, 4, 0)], 5);
    h.server.put(Q.text, "phone v3", 3, "zzz-phone");
    // Q.numeric was acknowledged once, but the server no longer holds it (restored from a backup).

    const { engine } = await open();
    const [autosave] = h.server.requestsTo("answers");
    expect(autosave!.body.answers.map((answer: { questionId: string }) => answer.questionId).sort()).toEqual(
      [Q.text, Q.numeric].sort(),
    );
    expect(h.server.answers.get(Q.text)).toMatchObject({ value: "laptop v5", version: 5, deviceId: LAPTOP });
    expect(h.server.answers.get(Q.numeric)).toMatchObject({ value: 12 });
    expect(engine.getSnapshot().pendingCount).toBe(0);
  });

  it("breaks a tie on version by device id, the same way the server does", async () => {
    // Same version 4 on both sides: "mmm-laptop" > "aaa-phone" → the laptop's wins; "zzz-tablet" > "mmm-laptop" → the tablet's wins.
    await deviceWith([own(Q.text, "laptop wins", 4), own(Q.essay, "laptop loses", 4)], 4);
    h.server.put(Q.text, "phone loses", 4, "aaa-phone");
    h.server.put(Q.essay, "tablet wins", 4, "zzz-tablet");

    const { engine } = await open();
    const snapshot = engine.getSnapshot();
    expect(snapshot.answers[Q.text]).toMatchObject({ value: "laptop wins", status: "saved" });
    expect(snapshot.answers[Q.essay]).toMatchObject({ value: "tablet wins", status: "saved", deviceId: "zzz-tablet" });
    expect(h.server.answers.get(Q.text)).toMatchObject({ value: "laptop wins", deviceId: LAPTOP });
    expect(h.server.requestsTo("answers")[0]!.body.answers).toHaveLength(1);
  });

  it("cleans a dirty draft the server already holds (a lost acknowledgement)", async () => {
    await deviceWith([own(Q.single, "b", 6)], 6);
    h.server.put(Q.single, "b", 6, LAPTOP);
    const { engine } = await open();
    expect(engine.getSnapshot().answers[Q.single]?.status).toBe("saved");
    expect(h.server.requestsTo("answers")).toHaveLength(0);
  });

  it("moves the clock to the highest version seen on either side", async () => {
    await deviceWith([own(Q.text, "a", 7)], 7);
    h.server.put(Q.essay, "phone essay", 40, "aaa-phone");
    const { engine } = await open();
    expect(engine.getSnapshot().clock).toBe(40);
    expect(await engine.edit(Q.text, "after the merge")).toEqual({ ok: true, version: 41 });
  });

  it("works from IndexedDB alone when the server cannot be reached, and merges once it can", async () => {
    await deviceWith([own(Q.text, "offline draft", 3)], 3);
    h.server.put(Q.essay, "phone essay", 9, "aaa-phone");
    h.server.next("get", respond.network(), respond.network());

    const { engine } = await open();
    let snapshot = engine.getSnapshot();
    expect(snapshot.ready).toBe(true);
    expect(snapshot.questions).toHaveLength(5); // the question set was saved locally
    expect(snapshot.deadline).toBe(h.server.deadline);
    expect(snapshot.answers[Q.text]).toMatchObject({ value: "offline draft", status: "pending" });
    expect(await engine.edit(Q.single, "a")).toEqual({ ok: true, version: 4 });

    await h.advance(5_000);
    snapshot = engine.getSnapshot();
    expect(snapshot.answers[Q.essay]).toMatchObject({ value: "phone essay", version: 9 });
    expect(snapshot.pendingCount).toBe(0);
    // The edit made before the merge had version 4 < 9, but it is another question, so nothing is lost.
    expect(h.server.answers.get(Q.single)).toMatchObject({ value: "a", version: 4 });
    expect(h.server.answers.get(Q.text)).toMatchObject({ value: "offline draft" });
  });

  it("keeps the question set and deadline on the device, with the server's clock offset", async () => {
    const clockAhead = 90_000;
    h.server.skewMs = clockAhead;
    const { engine } = h.engine({ initialView: null });
    await engine.start();
    await h.settle();
    const record = await getAttemptRecord(h.db, ATTEMPT_ID);
    expect(record).toMatchObject({
      examTitle: "Networking 101",
      deadline: h.server.deadline,
      serverOffsetMs: clockAhead,
      submitState: "unsubmitted",
    });
    expect(record!.questions).toHaveLength(5);
    expect(record!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(engine.getSnapshot().serverOffsetMs).toBe(clockAhead);
  });

  it("keeps the idempotency key made when the record was first created, across loads", async () => {
    const first = h.engine({ initialView: h.server.view() });
    await first.engine.start();
    await h.settle();
    const key = (await getAttemptRecord(h.db, ATTEMPT_ID))!.idempotencyKey;
    first.engine.stop();
    const second = h.engine({ initialView: h.server.view() });
    await second.engine.start();
    await h.settle();
    expect((await getAttemptRecord(h.db, ATTEMPT_ID))!.idempotencyKey).toBe(key);
  });
});
