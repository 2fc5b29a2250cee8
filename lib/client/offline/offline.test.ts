import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { DEVICE_ID_PATTERN } from "@/lib/shared/limits";
import type { AttemptView } from "@/lib/shared/schemas/attempts";

import { getAttemptRecord, saveServerView, storeSubmitBody, draftSignature } from "./attempts";
import { HoldfastDb, getDb } from "./db";
import { base64url, getOrCreateDeviceId, makeDeviceId } from "./device";
import { listDirty, listDrafts, markAcknowledged, writeEdit } from "./drafts";

const ATTEMPT = "5f0c2a1e-8d8b-4c57-9a51-7d2f7c0e1a01";
const Q1 = "11111111-1111-4111-8111-111111111111";
const Q2 = "22222222-2222-4222-8222-222222222222";

const view: AttemptView = {
  attemptId: ATTEMPT,
  examId: "0b7c1f52-3d8e-4d8a-8b5e-2f6a9c1d4e02",
  examTitle: "Networking 101",
  status: "in_progress",
  startedAt: "2026-12-01T08:00:00.000Z",
  deadline: "2026-12-01T10:00:00.000Z",
  acceptsUntil: "2026-12-01T10:01:00.000Z",
  serverTime: "2026-12-01T09:00:00.000Z",
  revision: 0,
  questions: [
    { id: Q1, position: 1, type: "short_text", prompt: "?", points: 1 },
    { id: Q2, position: 2, type: "essay", prompt: "?", points: 1 },
  ],
  answers: [],
  submission: null,
};

let db: HoldfastDb;
let n = 0;
beforeEach(() => {
  db = new HoldfastDb(`offline-test-${++n}`);
});
afterEach(async () => {
  db.close();
  await db.delete();
});

describe("the database", () => {
  it("opens with strict durability, and is one connection per page", () => {
    expect(
      (db as unknown as { _options: { chromeTransactionDurability?: string } })._options.chromeTransactionDurability,
    ).toBe("strict");
    expect(getDb()).toBe(getDb());
    expect(getDb().name).toBe("holdfast");
  });

  it("declares version 1 with the indexes the engine queries", async () => {
    await db.open();
    expect(db.verno).toBe(1);
    expect(db.drafts.schema.primKey.keyPath).toEqual(["attemptId", "questionId"]);
    expect(db.drafts.schema.indexes.map((index) => index.name).sort()).toEqual(["[attemptId+dirty]", "attemptId"]);
  });
});

describe("device id", () => {
  it("is 22 base64url characters from 128 random bits", () => {
    const id = makeDeviceId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(id).toMatch(DEVICE_ID_PATTERN);
    expect(makeDeviceId()).not.toBe(id);
    expect(base64url(new Uint8Array([0xfb, 0xff]))).toBe("-_8");
    expect(base64url(new TextEncoder().encode("hello"))).toBe(Buffer.from("hello").toString("base64url"));
  });

  it("is made once per browser, also when two tabs ask at the same moment", async () => {
    const [a, b] = await Promise.all([getOrCreateDeviceId(db), getOrCreateDeviceId(db)]);
    expect(a).toBe(b);
    expect(await getOrCreateDeviceId(db)).toBe(a);
  });
});

describe("drafts", () => {
  beforeEach(async () => {
    await saveServerView(db, { view, deviceId: "dev", serverOffsetMs: 0, now: 0, isSync: false });
  });

  it("every edit bumps the attempt's clock in the same transaction and is written dirty with this device's id", async () => {
    const first = await writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "a", deviceId: "dev", now: 10 });
    const second = await writeEdit(db, { attemptId: ATTEMPT, questionId: Q2, value: "b", deviceId: "dev", now: 11 });
    expect(first).toMatchObject({ kind: "written", draft: { version: 1, dirty: 1, deviceId: "dev", editedAt: 10 } });
    expect(second).toMatchObject({ kind: "written", draft: { version: 2 } });
    expect((await getAttemptRecord(db, ATTEMPT))!.clock).toBe(2);
    expect((await listDirty(db, ATTEMPT)).map((draft) => draft.questionId)).toEqual([Q1, Q2]);
  });

  it("acknowledgements clean only the version that was sent", async () => {
    await writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "sent", deviceId: "dev", now: 1 });
    await writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "typed meanwhile", deviceId: "dev", now: 2 });
    const { drafts } = await markAcknowledged(db, {
      attemptId: ATTEMPT,
      deviceId: "dev",
      response: {
        revision: 1,
        serverTime: view.serverTime,
        deadline: view.deadline,
        results: [{ questionId: Q1, status: "applied", version: 1 }],
      },
      facts: { serverTime: view.serverTime },
      now: 3,
    });
    expect(drafts).toEqual([]);
    expect(await listDrafts(db, ATTEMPT)).toEqual([
      expect.objectContaining({ value: "typed meanwhile", version: 2, dirty: 1 }),
    ]);
  });

  it("a stored submit refuses every later edit", async () => {
    await writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "a", deviceId: "dev", now: 1 });
    const drafts = await listDrafts(db, ATTEMPT);
    const stored = await storeSubmitBody(db, {
      attemptId: ATTEMPT,
      deviceId: "dev",
      digest: "0".repeat(64),
      expected: new Map(drafts.map((draft) => [draft.questionId, draftSignature(draft)])),
      now: 2,
    });
    expect(stored.kind).toBe("stored");
    expect(await writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "b", deviceId: "dev", now: 3 })).toEqual({
      kind: "refused",
      reason: "submitting",
    });
  });

  it("the submit transaction notices a draft that changed after the digest was computed", async () => {
    await writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "a", deviceId: "dev", now: 1 });
    const digested = await listDrafts(db, ATTEMPT);
    await writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "ab", deviceId: "dev", now: 2 }); // another tab
    const outcome = await storeSubmitBody(db, {
      attemptId: ATTEMPT,
      deviceId: "dev",
      digest: "0".repeat(64),
      expected: new Map(digested.map((draft) => [draft.questionId, draftSignature(draft)])),
      now: 3,
    });
    expect(outcome).toEqual({ kind: "changed" });
    expect((await getAttemptRecord(db, ATTEMPT))!.submitState).toBe("unsubmitted");
  });

  it("older server answers never move a deadline back", async () => {
    const extended = {
      ...view,
      deadline: "2026-12-01T10:30:00.000Z",
      acceptsUntil: "2026-12-01T10:31:00.000Z",
      serverTime: "2026-12-01T09:10:00.000Z",
    };
    await saveServerView(db, { view: extended, deviceId: "dev", serverOffsetMs: null, now: 0, isSync: true });
    await saveServerView(db, { view, deviceId: "dev", serverOffsetMs: null, now: 0, isSync: false }); // a stale page render
    expect((await getAttemptRecord(db, ATTEMPT))!.deadline).toBe("2026-12-01T10:30:00.000Z");
  });
});
