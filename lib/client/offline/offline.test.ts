import { Dexie } from "dexie";
import { deleteDB, openDB, type IDBPDatabase } from "idb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { DEVICE_ID_PATTERN } from "@/lib/shared/limits";
import type { AttemptView } from "@/lib/shared/schemas/attempts";

import { applyHeartbeatFacts, getAttemptRecord, saveServerView, storeSubmitBody, draftSignature } from "./attempts";
import { listAnnouncements, storeAnnouncements } from "./announcements";
import { DB_VERSION, HoldfastDb, StoreSupersededError, getDb } from "./db";
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

/** An autosave's 200 for the first edit of Q1 (version 1). */
function acknowledgeFirstEdit(deviceId: string, now: number) {
  return markAcknowledged(db, {
    attemptId: ATTEMPT,
    deviceId,
    response: {
      revision: 1,
      serverTime: view.serverTime,
      deadline: view.deadline,
      results: [{ questionId: Q1, status: "applied", version: 1 }],
    },
    facts: { serverTime: view.serverTime },
    now,
  });
}

/** The stores and indexes the releases before ADR 024 created up to version 20 (four stores). */
function createVersion20Stores(database: IDBPDatabase): void {
  database.createObjectStore("device", { keyPath: "key" });
  database.createObjectStore("attempts", { keyPath: "attemptId" });
  const drafts = database.createObjectStore("drafts", { keyPath: ["attemptId", "questionId"] });
  drafts.createIndex("attemptId", "attemptId");
  drafts.createIndex("[attemptId+dirty]", ["attemptId", "dirty"]);
  database.createObjectStore("announcements", { keyPath: ["attemptId", "id"] }).createIndex("attemptId", "attemptId");
}

/** A database at version 20 as the previous release made it (four stores, the question set on the attempt's row). */
async function makeVersion20(name: string, rows: [store: string, row: object][]): Promise<void> {
  const old = await openDB(name, 20, {
    upgrade: createVersion20Stores,
  });
  for (const [store, row] of rows) await old.put(store, row);
  old.close();
}

describe("the database", () => {
  it("commits what the candidate wrote with strict durability, and what the server can tell again relaxed", async () => {
    const options: (string | undefined)[] = [];
    const transaction = IDBDatabase.prototype.transaction;
    const spy = vi.spyOn(IDBDatabase.prototype, "transaction").mockImplementation(function (
      this: IDBDatabase,
      names,
      mode,
      given,
    ) {
      if (mode === "readwrite") options.push(given?.durability);
      return transaction.call(this, names, mode, given);
    });
    const take = () => options.splice(0);
    try {
      const deviceId = await getOrCreateDeviceId(db);
      await saveServerView(db, { view, deviceId, serverOffsetMs: 0, now: 1, isSync: true });
      await writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "a", deviceId, now: 2 });
      await db.drafts.put({ ...(await db.drafts.get([ATTEMPT, Q1]))!, editedAt: 3 });
      const drafts = await listDrafts(db, ATTEMPT);
      await storeSubmitBody(db, {
        attemptId: ATTEMPT,
        deviceId,
        digest: "0".repeat(64),
        expected: new Map(drafts.map((draft) => [draft.questionId, draftSignature(draft)])),
        now: 4,
      });
      // The device id, the server's view, an edit, a draft put, a stored submit: all strict.
      expect(take()).toEqual(["strict", "strict", "strict", "strict", "strict"]);

      await acknowledgeFirstEdit(deviceId, 4);
      await applyHeartbeatFacts(db, {
        attemptId: ATTEMPT,
        facts: { serverTime: view.serverTime },
        isSubmitted: false,
        now: 5,
      });
      // An acknowledgement and a heartbeat's time facts: the server tells them again if they are lost.
      expect(take()).toEqual(["relaxed", "relaxed"]);
    } finally {
      spy.mockRestore();
    }
    expect(getDb()).toBe(getDb());
    expect(getDb().name).toBe("holdfast");
  });

  it("an edit and an acknowledgement started at once on the two connections run one after the other", async () => {
    // The strict and the relaxed connection are two IndexedDB connections (db.ts): an acknowledgement that read
    // the attempt before an edit committed and wrote it back after would lose the edit's clock. Raced both ways
    // round, many times: whatever runs first, the second edit stays dirty at version 2 and the clock stays at 2.
    const deviceId = await getOrCreateDeviceId(db);
    for (let round = 0; round < 20; round += 1) {
      await db.drafts.clear();
      await saveServerView(db, { view, deviceId, serverOffsetMs: 0, now: 1, isSync: true });
      await db.attempts.put({ ...(await getAttemptRecord(db, ATTEMPT))!, clock: 0 });
      await writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "first", deviceId, now: 2 });
      const edit = () => writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "second", deviceId, now: 3 });
      const ack = () => acknowledgeFirstEdit(deviceId, 3);
      const [first, second] = round % 2 === 0 ? [edit, ack] : [ack, edit];
      await Promise.all([first(), second()]);

      const draft = (await listDrafts(db, ATTEMPT)).find((d) => d.questionId === Q1)!;
      expect({ value: draft.value, version: draft.version, dirty: draft.dirty }).toEqual({
        value: "second",
        version: 2,
        dirty: 1,
      });
      expect((await getAttemptRecord(db, ATTEMPT))!.clock).toBe(2);
    }
  });

  it("keeps the layout earlier releases made with Dexie (IndexedDB version 10), adds announcements at 20 and papers at 30", async () => {
    const database = await db.open();
    expect(database.version).toBe(DB_VERSION);
    expect(DB_VERSION).toBe(30);
    expect([...database.objectStoreNames].sort()).toEqual(["announcements", "attempts", "device", "drafts", "papers"]);
    const tx = database.transaction(["device", "attempts", "papers", "drafts", "announcements"]);
    expect(tx.objectStore("papers").keyPath).toBe("attemptId");
    const announcements = tx.objectStore("announcements");
    expect(announcements.keyPath).toEqual(["attemptId", "id"]);
    expect([...announcements.indexNames]).toEqual(["attemptId"]);
    expect(announcements.index("attemptId").keyPath).toBe("attemptId");
    expect(tx.objectStore("device").keyPath).toBe("key");
    expect(tx.objectStore("attempts").keyPath).toBe("attemptId");
    const drafts = tx.objectStore("drafts");
    expect(drafts.keyPath).toEqual(["attemptId", "questionId"]);
    expect([...drafts.indexNames].sort()).toEqual(["[attemptId+dirty]", "attemptId"]);
    expect(drafts.index("[attemptId+dirty]").keyPath).toEqual(["attemptId", "dirty"]);
    expect(drafts.index("attemptId").keyPath).toBe("attemptId");
    for (const name of database.objectStoreNames) expect(tx.objectStore(name).autoIncrement).toBe(false);
  });

  it("opens a database the previous release wrote through idb (version 30) as it is, and goes on from it", async () => {
    const name = `offline-idb-${++n}`;
    const seeded = new HoldfastDb(`offline-seed-${n}`);
    const deviceId = await getOrCreateDeviceId(seeded);
    await saveServerView(seeded, { view, deviceId, serverOffsetMs: 0, now: 1, isSync: true });
    await writeEdit(seeded, { attemptId: ATTEMPT, questionId: Q1, value: "typed before the update", deviceId, now: 2 });
    await storeAnnouncements(seeded, ATTEMPT, [{ id: "a1", message: "Room 2", sentAt: "2026-12-01T09:00:00.000Z" }]);
    const rows = {
      attempt: (await seeded.attempts.get(ATTEMPT))!,
      paper: (await seeded.papers.get(ATTEMPT))!,
      draft: (await seeded.drafts.get([ATTEMPT, Q1]))!,
      announcement: (await seeded.announcements.get([ATTEMPT, "a1"]))!,
    };
    await seeded.delete();
    // The previous release's `upgrade()` (ADR 012), step by step, and its rows.
    const old = await openDB(name, 30, {
      upgrade(database) {
        createVersion20Stores(database);
        database.createObjectStore("papers", { keyPath: "attemptId" });
      },
    });
    await old.put("device", { key: "device", deviceId, createdAt: 0 });
    await old.put("attempts", rows.attempt);
    await old.put("papers", rows.paper);
    await old.put("drafts", rows.draft);
    await old.put("announcements", rows.announcement);
    old.close();

    const warn = vi.spyOn(console, "warn");
    const updated = new HoldfastDb(name);
    try {
      expect(await getOrCreateDeviceId(updated)).toBe(deviceId);
      expect(await getAttemptRecord(updated, ATTEMPT)).toEqual({ ...rows.attempt, questions: view.questions });
      expect(await listDirty(updated, ATTEMPT)).toEqual([rows.draft]);
      expect(await listAnnouncements(updated, ATTEMPT)).toEqual([rows.announcement]);
      const next = await writeEdit(updated, {
        attemptId: ATTEMPT,
        questionId: Q2,
        value: "and after",
        deviceId,
        now: 3,
      });
      expect(next).toMatchObject({ kind: "written", draft: { version: rows.draft.version + 1, value: "and after" } });
      expect((await listDirty(updated, ATTEMPT)).map((draft) => draft.questionId)).toEqual([Q1, Q2]);
      // Dexie found the layout it declares: no schema patch, no version bump, nothing to warn about.
      expect((await updated.open()).version).toBe(30);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      await updated.delete();
    }
  });

  it("opens a database an earlier release wrote with Dexie, drafts and all, and goes on from it", async () => {
    const name = `offline-dexie-${++n}`;
    const old = new Dexie(name);
    old.version(1).stores({
      device: "key",
      attempts: "attemptId",
      drafts: "[attemptId+questionId], attemptId, [attemptId+dirty]",
    });
    const legacy = new HoldfastDb(name);
    try {
      // The record and draft as the earlier release wrote them, through Dexie.
      const seeded = new HoldfastDb(`offline-seed-${n}`);
      const deviceId = await getOrCreateDeviceId(seeded);
      await saveServerView(seeded, { view, deviceId, serverOffsetMs: 0, now: 1, isSync: true });
      await writeEdit(seeded, {
        attemptId: ATTEMPT,
        questionId: Q1,
        value: "typed before the upgrade",
        deviceId,
        now: 2,
      });
      // Earlier releases kept the question set on the attempt's row.
      const record = { ...(await seeded.attempts.get(ATTEMPT))!, questions: view.questions };
      const draft = (await seeded.drafts.get([ATTEMPT, Q1]))!;
      await seeded.delete();
      await old.table("device").put({ key: "device", deviceId, createdAt: 0 });
      await old.table("attempts").put(record);
      await old.table("drafts").put(draft);
      old.close();

      expect(await getOrCreateDeviceId(legacy)).toBe(deviceId);
      expect(await listDirty(legacy, ATTEMPT)).toEqual([draft]);
      // The upgrade to version 30 moved the question set to its own row.
      expect((await getAttemptRecord(legacy, ATTEMPT))?.questions).toEqual(view.questions);
      expect(await legacy.attempts.get(ATTEMPT)).not.toHaveProperty("questions");
      const next = await writeEdit(legacy, {
        attemptId: ATTEMPT,
        questionId: Q1,
        value: "and after",
        deviceId,
        now: 3,
      });
      expect(next).toMatchObject({ kind: "written", draft: { version: draft.version + 1, value: "and after" } });
      // The upgrade to version 20 added the announcements store beside the drafts it kept.
      await storeAnnouncements(legacy, ATTEMPT, [{ id: "a1", message: "Room 2", sentAt: "2026-12-01T09:00:00.000Z" }]);
      expect(await listAnnouncements(legacy, ATTEMPT)).toMatchObject([{ id: "a1", dismissed: 0, acknowledged: 0 }]);
    } finally {
      await legacy.delete();
    }
  });

  it("moves each attempt's question set to papers when it opens a version 20 database, and keeps the rest", async () => {
    const name = `offline-v20-${++n}`;
    const seeded = new HoldfastDb(`offline-seed-${n}`);
    const deviceId = await getOrCreateDeviceId(seeded);
    await saveServerView(seeded, { view, deviceId, serverOffsetMs: 0, now: 1, isSync: true });
    await writeEdit(seeded, { attemptId: ATTEMPT, questionId: Q1, value: "typed on version 20", deviceId, now: 2 });
    const row = { ...(await seeded.attempts.get(ATTEMPT))!, questions: view.questions };
    const draft = (await seeded.drafts.get([ATTEMPT, Q1]))!;
    await seeded.delete();
    await makeVersion20(name, [
      ["device", { key: "device", deviceId, createdAt: 0 }],
      ["attempts", row],
      ["attempts", { ...row, attemptId: "another", questions: [view.questions[1]] }],
      ["drafts", draft],
    ]);

    const upgraded = new HoldfastDb(name);
    try {
      expect(await getAttemptRecord(upgraded, ATTEMPT)).toEqual(row);
      expect(await upgraded.attempts.get(ATTEMPT)).toEqual(
        Object.fromEntries(Object.entries(row).filter(([key]) => key !== "questions")),
      );
      expect(await upgraded.papers.get(ATTEMPT)).toEqual({ attemptId: ATTEMPT, questions: view.questions });
      expect(await upgraded.papers.get("another")).toEqual({ attemptId: "another", questions: [view.questions[1]] });
      expect(await listDirty(upgraded, ATTEMPT)).toEqual([draft]);
      const next = await writeEdit(upgraded, {
        attemptId: ATTEMPT,
        questionId: Q1,
        value: "and on 30",
        deviceId,
        now: 3,
      });
      expect(next).toMatchObject({ kind: "written", draft: { version: draft.version + 1 } });
    } finally {
      await upgraded.delete();
    }
  });

  it("an upgrade that fails while moving the papers leaves version 20 as it was, and the next open moves them", async () => {
    const name = `offline-v20-fail-${++n}`;
    const row = {
      attemptId: ATTEMPT,
      examId: view.examId,
      examTitle: view.examTitle,
      clock: 3,
      questions: view.questions,
    };
    await makeVersion20(name, [["attempts", row]]);
    // The move's first write (the paper's row) fails, as on a full disk.
    const put = IDBObjectStore.prototype.put;
    const update = vi.spyOn(IDBObjectStore.prototype, "put").mockImplementationOnce(function (
      this: IDBObjectStore,
      value,
      key,
    ) {
      if (this.name !== "papers") return put.call(this, value, key);
      throw new DOMException("the disk is full", "QuotaExceededError");
    });
    const upgrading = new HoldfastDb(name);
    try {
      await expect(getAttemptRecord(upgrading, ATTEMPT)).rejects.toThrow();
      update.mockRestore();
      const unchanged = await openDB(name);
      expect(unchanged.version).toBe(20);
      expect([...unchanged.objectStoreNames]).not.toContain("papers");
      expect(await unchanged.get("attempts", ATTEMPT)).toEqual(row);
      unchanged.close();

      expect(await getAttemptRecord(upgrading, ATTEMPT)).toEqual(row);
      expect(await upgrading.attempts.get(ATTEMPT)).not.toHaveProperty("questions");
    } finally {
      update.mockRestore();
      await upgrading.delete();
    }
  });

  it("writes the question set when a server view is saved, never on an edit or an acknowledgement", async () => {
    const puts: { store: string; keys: string[] }[] = [];
    const put = IDBObjectStore.prototype.put;
    const spy = vi.spyOn(IDBObjectStore.prototype, "put").mockImplementation(function (
      this: IDBObjectStore,
      value,
      key,
    ) {
      puts.push({ store: this.name, keys: Object.keys(value as object) });
      return put.call(this, value, key);
    });
    try {
      const deviceId = await getOrCreateDeviceId(db);
      puts.splice(0);
      await saveServerView(db, { view, deviceId, serverOffsetMs: 0, now: 1, isSync: true });
      expect(puts.map((entry) => entry.store).sort()).toEqual(["attempts", "papers"]);
      puts.splice(0);
      await writeEdit(db, { attemptId: ATTEMPT, questionId: Q1, value: "a", deviceId, now: 2 });
      await acknowledgeFirstEdit(deviceId, 3);
      expect(puts.map((entry) => entry.store)).toEqual(["attempts", "drafts", "drafts", "attempts"]);
      expect(puts.filter((entry) => entry.keys.includes("questions"))).toEqual([]);
      expect((await getAttemptRecord(db, ATTEMPT))?.questions).toEqual(view.questions);
    } finally {
      spy.mockRestore();
    }
  });

  it("a newer release's upgrade from another tab supersedes this page's store: it says so once and writes nothing", async () => {
    const deviceId = await getOrCreateDeviceId(db, 1);
    const heard = vi.fn();
    db.onSuperseded(heard);
    expect(db.isSuperseded).toBe(false);

    // The other tab's page of the next release opens the same database at a higher version. This page lets go of
    // its connection (the upgrade is not blocked) and knows it can no longer read or write the new layout.
    const newer = await openDB(db.name, DB_VERSION + 10, { upgrade: () => undefined });
    try {
      expect(heard).toHaveBeenCalledTimes(1);
      expect(db.isSuperseded).toBe(true);
      await expect(db.device.get("device")).rejects.toBeInstanceOf(StoreSupersededError);
      await expect(
        db.transaction("rw", ["device"], (tx) => tx.device.put({ key: "device", deviceId: "x", createdAt: 0 })),
      ).rejects.toBeInstanceOf(StoreSupersededError);
      // A listener added afterwards hears it at once; nothing was written after the upgrade.
      const late = vi.fn();
      db.onSuperseded(late);
      expect(late).toHaveBeenCalledTimes(1);
      expect(heard).toHaveBeenCalledTimes(1);
      expect(await newer.get("device", "device")).toEqual({ key: "device", deviceId, createdAt: 1 });
    } finally {
      newer.close();
    }
  });

  it("a page of an older release that opens a store a newer one has upgraded is superseded, not a storage failure", async () => {
    await getOrCreateDeviceId(db, 1);
    db.close();
    (await openDB(db.name, DB_VERSION + 10, { upgrade: () => undefined })).close();

    const older = new HoldfastDb(db.name);
    const heard = vi.fn();
    older.onSuperseded(heard);
    await expect(older.device.get("device")).rejects.toBeInstanceOf(StoreSupersededError);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(older.isSuperseded).toBe(true);
  });

  it("a delete from another tab only closes the connection: the next call opens the store again", async () => {
    await getOrCreateDeviceId(db, 1);
    const heard = vi.fn();
    db.onSuperseded(heard);
    await deleteDB(db.name);
    expect(await db.device.get("device")).toBeUndefined();
    expect(heard).not.toHaveBeenCalled();
    expect(db.isSuperseded).toBe(false);
  });

  it("fetches the store's code again until it comes when the first fetch fails, and opens the store then", async () => {
    vi.resetModules();
    const fresh = await import("./db");
    vi.useFakeTimers();
    try {
      let fetches = 0;
      const loading = fresh.loadSchema(() => {
        fetches += 1;
        return fetches === 1
          ? Promise.reject(new TypeError("Failed to fetch dynamically imported module"))
          : import("./schema");
      });
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
      expect(fetches).toBe(1);
      await vi.advanceTimersByTimeAsync(fresh.SCHEMA_RETRY_MS);
      expect(fetches).toBe(2);
      expect((await loading).HoldfastDexie).toBeTypeOf("function");
    } finally {
      vi.useRealTimers();
    }
    // The page's store, on the code that came.
    const late = new fresh.HoldfastDb(`offline-late-${++n}`);
    expect(await getOrCreateDeviceId(late as unknown as HoldfastDb)).toMatch(DEVICE_ID_PATTERN);
    await late.delete();
  });

  it("aborts a transaction whose body throws: nothing it wrote is kept", async () => {
    const deviceId = await getOrCreateDeviceId(db);
    await saveServerView(db, { view, deviceId, serverOffsetMs: 0, now: 1, isSync: true });
    await expect(
      db.transaction("rw", ["attempts", "drafts"], async (tx) => {
        const record = (await tx.attempts.get(ATTEMPT))!;
        await tx.attempts.put({ ...record, clock: 99 });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await db.attempts.get(ATTEMPT))?.clock).toBe(0);
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
    const { drafts } = await acknowledgeFirstEdit("dev", 3);
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
