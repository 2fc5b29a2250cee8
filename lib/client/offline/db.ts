import { deleteDB, openDB, type IDBPDatabase, type IDBPObjectStore, type IDBPTransaction } from "idb";

import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";
import type { SubmitResponse } from "@/lib/shared/schemas/sync";

/**
 * The candidate's device-side store (docs/sync-protocol.md, "The client"). Everything a candidate types is
 * written here first, in one transaction, before anything is sent; the sync engine only ever reads from
 * here what it sends. Its layout and upgrades: `upgrade` below.
 */

export type SubmitState = "unsubmitted" | "submitting" | "submitted";

/** A server answer that is final for a request (not retried): kept to be shown. */
export type RecordedError = { status: number; code: string | null; message: string };

/** Why the attempt no longer accepts writes, as the server said it (409). */
export type ClosedInfo = {
  reason: "ALREADY_SUBMITTED" | "DEADLINE_PASSED";
  /** The attempt's one submission, when the server named it. */
  submissionId: string | null;
  /** When the device learned it (device clock, ms). */
  at: number;
  /** The submission's time and digest, once a read of the attempt brought them. */
  submittedAt?: string | null;
  digest?: string | null;
};

/** The submission made by someone else (another device, a proctor, the deadline) when ours got ALREADY_SUBMITTED. */
export type SubmittedElsewhere = {
  submissionId: string | null;
  submittedAt: string | null;
  digest: string | null;
};

/** The one row of `device`: this browser's device id (contract: "Identifiers and versions"). */
export type DeviceRecord = { key: "device"; deviceId: string; createdAt: number };

/**
 * An attempt as the device knows it: its row of `attempts` with its question set from `papers`. The page and the
 * sync engine see this; the storage keeps the two apart (`StoredAttempt`, `PaperRecord`).
 */
export type AttemptRecord = StoredAttempt & {
  /** The question set, so the page renders offline. */
  questions: CandidateQuestion[];
};

/**
 * The row of `attempts`: everything about the attempt but its question set. Each edit reads and writes this row
 * (its Lamport clock, and the submit state it checks), so it stays small whatever the length of the paper: the
 * questions, prompts and options are in `papers`, written when a server view is saved and read when the page
 * loads, never on a keystroke.
 */
export type StoredAttempt = {
  attemptId: string;
  examId: string;
  examTitle: string;
  /** ISO instants from the server; the device clock never decides. */
  deadline: string;
  acceptsUntil: string;
  /**
   * `serverTime` of the freshest server answer the deadline (and `acceptsUntil`) came from; older answers do not
   * overwrite them.
   */
  serverTimeSeen: string;
  /** Server time − device time, estimated at the midpoint of the last request. */
  serverOffsetMs: number;
  /** The Lamport clock: the highest answer version this device has seen for the attempt. */
  clock: number;
  /** Made once, when this record is first created; every submit retry, also after a reload, sends it. */
  idempotencyKey: string;
  submitState: SubmitState;
  /** The exact request body (JSON text) stored at the first Submit click; every retry sends these bytes. */
  submitBody: string | null;
  /** The device's digest inside `submitBody`. */
  submitDigest: string | null;
  submitResponse: SubmitResponse | null;
  submittedElsewhere: SubmittedElsewhere | null;
  /** The last final (non-retried) answer to the submit; the body is kept and can be sent again. */
  submitError: RecordedError | null;
  closed: ClosedInfo | null;
  /** The attempt revision of the last server answer this device merged or had acknowledged. */
  lastAckRevision: number;
  /** Device time (ms) of the last successful autosave, merge or submit. */
  lastSyncAt: number | null;
  /** Question ids the candidate flagged for review (local only). */
  flagged: string[];
  /**
   * The attempt's emergency-export public key (base64url), fetched while online so an emergency file can be
   * made offline (ADR 006). Not indexed, so adding it needed no schema version; absent on older records.
   */
  exportKey?: string;
  /**
   * A proctor's pause, as the server last said it (ADR 016): editing is locked and the clock stands still at
   * `deadline − pausedAt`; null while it runs. Not indexed (no schema version); absent on older records.
   */
  pause?: AttemptPause | null;
  /**
   * `serverTime` of the freshest server answer that said whether the attempt is paused; older ones do not
   * overwrite `pause`. Absent until one did (and on older records): the next one is taken.
   */
  pauseTimeSeen?: string;
};

/** The question set of an attempt (the row of `papers`), apart from the attempt's row that every edit rewrites. */
export type PaperRecord = { attemptId: string; questions: CandidateQuestion[] };

/** The attempt is paused: since when (server time) and the proctor's reason. */
export type AttemptPause = { pausedAt: string; reason: string };

export type DraftRecord = {
  attemptId: string;
  questionId: string;
  value: AnswerValue;
  version: number;
  /** Who made this value: this device for its own edits, another device for a value adopted from the server. */
  deviceId: string;
  /** 1 while the server has not acknowledged this version (IndexedDB cannot index booleans). */
  dirty: 0 | 1;
  /** Device time (ms) of the edit; 0 for a value adopted from the server. */
  editedAt: number;
  /** A final 4xx for this version: not sent again until the candidate edits the question again. */
  rejected: RecordedError | null;
  /**
   * Device time (ms) when this version reached the server after the attempt was frozen: the server kept it
   * as a late answer (409 on autosave). Not part of the paper, but not lost either. Absent otherwise.
   */
  lateAt?: number;
};

/** An announcement from staff, kept so the page shows it offline and after a reload (docs/sync-protocol.md). */
export type AnnouncementRecord = {
  attemptId: string;
  id: string;
  message: string;
  sentAt: string;
  /** 1 once the candidate dismissed it on this device (it can be shown again; the choice stays local). */
  dismissed: 0 | 1;
  /** 1 once the server recorded this device's receipt. */
  acknowledged: 0 | 1;
};

type Records = {
  device: DeviceRecord;
  attempts: StoredAttempt;
  papers: PaperRecord;
  drafts: DraftRecord;
  announcements: AnnouncementRecord;
};
type Keys = {
  device: "device";
  attempts: string;
  papers: string;
  drafts: [string, string];
  announcements: [string, string];
};
export type StoreName = keyof Records;
/** The secondary indexes, by store: name → key. */
type Indexes = {
  device: never;
  attempts: never;
  papers: never;
  drafts: { attemptId: string; "[attemptId+dirty]": [string, 0 | 1] };
  announcements: { attemptId: string };
};

/**
 * The database's layout. Dexie created it in earlier releases (its `version(1)` is IndexedDB version 10,
 * its compound index names are `[a+b]`); it is kept exactly, so a browser that holds drafts written by an
 * earlier release opens them unchanged. A schema change adds a step for `oldVersion < 40` and so on; steps
 * are never edited, so a browser holding an old database upgrades step by step without losing a draft.
 */
export const DB_VERSION = 30;

function upgrade(
  database: IDBPDatabase,
  oldVersion: number,
  transaction: IDBPTransaction<unknown, string[], "versionchange">,
): void {
  if (oldVersion < 10) {
    if (!database.objectStoreNames.contains("device")) database.createObjectStore("device", { keyPath: "key" });
    if (!database.objectStoreNames.contains("attempts"))
      database.createObjectStore("attempts", { keyPath: "attemptId" });
    if (!database.objectStoreNames.contains("drafts")) {
      const drafts = database.createObjectStore("drafts", { keyPath: ["attemptId", "questionId"] });
      drafts.createIndex("attemptId", "attemptId");
      drafts.createIndex("[attemptId+dirty]", ["attemptId", "dirty"]);
    }
  }
  if (oldVersion < 20) {
    const announcements = database.createObjectStore("announcements", { keyPath: ["attemptId", "id"] });
    announcements.createIndex("attemptId", "attemptId");
  }
  if (oldVersion < 30) {
    // Each attempt's question set moves to a row of its own: an edit rewrites the attempt's row, and no longer
    // the whole paper with it. Inside the upgrade's transaction, which a failure aborts: version 20 stays as it
    // was (the open fails, and the next one tries again), never half moved.
    database.createObjectStore("papers", { keyPath: "attemptId" });
    movePapers(transaction).catch(() => abortQuietly(transaction));
  }
}

function abortQuietly(transaction: IDBPTransaction<unknown, string[], "versionchange">): void {
  // The open rejects with the abort; the transaction's own `done` would reject unheard.
  transaction.done.catch(() => undefined);
  try {
    transaction.abort();
  } catch {
    // A failed request has aborted it already.
  }
}

/** Version 30: every `attempts` row's `questions` becomes a row of `papers`, and the attempt's row loses them. */
async function movePapers(transaction: IDBPTransaction<unknown, string[], "versionchange">): Promise<void> {
  const papers = transaction.objectStore("papers");
  let cursor = await transaction.objectStore("attempts").openCursor();
  while (cursor) {
    const { questions, ...attempt } = cursor.value as StoredAttempt & { questions?: CandidateQuestion[] };
    if (questions) {
      await papers.put!({ attemptId: attempt.attemptId, questions } satisfies PaperRecord);
      await cursor.update(attempt);
    }
    cursor = await cursor.continue();
  }
}

/**
 * How a read-write transaction commits. `strict` (the default): a committed draft is on disk, not in an OS
 * buffer that a crash or a dead battery loses. `relaxed`: committed once handed to the OS — still kept when the
 * browser or the tab is killed, lost only with the machine. Only for writes the device can learn again from the
 * server (an acknowledgement, the server's time facts): losing one leaves the device as if that response had
 * been dropped on the way, which the protocol already handles (the drafts stay dirty and are sent again). It
 * spares the fsync that an edit typed meanwhile would wait behind (docs/benchmarks/log/client.md).
 */
export type Durability = "strict" | "relaxed";

function readWrite(durability: Durability = "strict"): IDBTransactionOptions {
  return { durability };
}

/**
 * One store, either inside a transaction (`HoldfastDb.transaction`) or on its own (each call its own
 * transaction). Inside a transaction, await only these calls: a wait on anything else (fetch, Web Crypto,
 * a timer) lets IndexedDB commit the transaction early.
 */
export class StoreTable<Name extends StoreName> {
  constructor(
    readonly name: Name,
    private readonly store: (
      mode: IDBTransactionMode,
    ) => Promise<IDBPObjectStore<unknown, [Name], Name, IDBTransactionMode>>,
    /** Resolves once the write is committed (its own transaction), or at once inside a transaction. */
    private readonly committed: (store: IDBPObjectStore<unknown, [Name], Name, IDBTransactionMode>) => Promise<void>,
  ) {}

  async get(key: Keys[Name]): Promise<Records[Name] | undefined> {
    return (await (await this.store("readonly")).get(key as IDBValidKey)) as Records[Name] | undefined;
  }

  async bulkGet(keys: readonly Keys[Name][]): Promise<(Records[Name] | undefined)[]> {
    const store = await this.store("readonly");
    return (await Promise.all(keys.map((key) => store.get(key as IDBValidKey)))) as (Records[Name] | undefined)[];
  }

  /** Every record whose `index` equals `key`. */
  async allBy<I extends keyof Indexes[Name] & string>(index: I, key: Indexes[Name][I]): Promise<Records[Name][]> {
    const store = await this.store("readonly");
    return (await store.index(index as never).getAll(key as IDBValidKey)) as Records[Name][];
  }

  async put(record: Records[Name]): Promise<void> {
    const store = await this.store("readwrite");
    await store.put!(record);
    await this.committed(store);
  }

  async bulkPut(records: readonly Records[Name][]): Promise<void> {
    const store = await this.store("readwrite");
    await Promise.all(records.map((record) => store.put!(record)));
    await this.committed(store);
  }

  async delete(key: Keys[Name]): Promise<void> {
    const store = await this.store("readwrite");
    await store.delete!(key as IDBValidKey);
    await this.committed(store);
  }

  async clear(): Promise<void> {
    const store = await this.store("readwrite");
    await store.clear!();
    await this.committed(store);
  }
}

/** The stores, as a transaction's body sees them (and as the database itself offers them, one call each). */
export type Stores = { readonly [Name in StoreName]: StoreTable<Name> };

/**
 * This page's code is older than the device's store: another tab (or a page loaded since) opened it with a
 * newer release's version. Nothing this page could write would be read the newer release's way, so it writes
 * nothing and asks for a reload (`HoldfastDb.onSuperseded`).
 */
export class StoreSupersededError extends Error {
  override readonly name = "StoreSupersededError";
  constructor() {
    super("A newer version of Holdfast has opened this device's store: reload the page.");
  }
}

/**
 * The candidate's device-side store on IndexedDB (through `idb`, which only turns requests into promises;
 * ADR 012). Opened on first use; closed when another tab needs to upgrade or delete it, and opened again
 * by the next call — unless the other tab upgraded it past this page's `DB_VERSION`: then the store is
 * *superseded* for this page (every call fails with `StoreSupersededError`, and `onSuperseded` listeners hear
 * it once), because only a reload brings the code that knows the new layout.
 */
export class HoldfastDb implements Stores {
  readonly device: StoreTable<"device">;
  readonly attempts: StoreTable<"attempts">;
  readonly papers: StoreTable<"papers">;
  readonly drafts: StoreTable<"drafts">;
  readonly announcements: StoreTable<"announcements">;
  private opening: Promise<IDBPDatabase> | null = null;
  private superseded = false;
  private readonly supersededListeners = new Set<() => void>();

  constructor(readonly name = "holdfast") {
    const own = <Name extends StoreName>(store: Name) =>
      new StoreTable<Name>(
        store,
        async (mode) => {
          const database = await this.open();
          return database.transaction(store, mode, mode === "readwrite" ? readWrite() : undefined).store as never;
        },
        (objectStore) => objectStore.transaction.done,
      );
    this.device = own("device");
    this.attempts = own("attempts");
    this.papers = own("papers");
    this.drafts = own("drafts");
    this.announcements = own("announcements");
  }

  open(): Promise<IDBPDatabase> {
    if (this.superseded) return Promise.reject(new StoreSupersededError());
    this.opening ??= openDB(this.name, DB_VERSION, {
      upgrade: (database, oldVersion, _newVersion, transaction) => upgrade(database, oldVersion, transaction),
      blocking: (_currentVersion, blockedVersion) => {
        // A delete (blockedVersion null) or an upgrade this code knows: let it go; the next call opens again.
        if (blockedVersion !== null && blockedVersion > DB_VERSION) this.markSuperseded();
        this.close();
      },
      terminated: () => {
        this.opening = null;
      },
    }).catch((error: unknown) => {
      this.opening = null;
      // The store is already at a newer version than this code asks for (a page of an older release).
      if (error instanceof Error && error.name === "VersionError") {
        this.markSuperseded();
        throw new StoreSupersededError();
      }
      throw error;
    });
    return this.opening;
  }

  /** True once a newer release has the store (see `StoreSupersededError`). */
  get isSuperseded(): boolean {
    return this.superseded;
  }

  /** `listener` runs once, when a newer release takes the store; at once if it already has. Returns an unsubscribe. */
  onSuperseded(listener: () => void): () => void {
    if (this.superseded) {
      listener();
      return () => undefined;
    }
    this.supersededListeners.add(listener);
    return () => {
      this.supersededListeners.delete(listener);
    };
  }

  private markSuperseded(): void {
    if (this.superseded) return;
    this.superseded = true;
    const listeners = [...this.supersededListeners];
    this.supersededListeners.clear();
    for (const listener of listeners) listener();
  }

  /**
   * `body` runs in one transaction over `stores` and sees them through its argument; the promise settles
   * once the transaction has committed (or with the error that aborted it: a throw in `body` aborts it, and
   * nothing it wrote is kept). A read-write transaction commits with strict durability unless `durability`
   * says `relaxed` (see `Durability` for when that is allowed).
   */
  async transaction<T>(
    mode: "r" | "rw",
    stores: readonly StoreName[],
    body: (tx: Stores) => Promise<T>,
    durability?: Durability,
  ): Promise<T> {
    const database = await this.open();
    const transaction = database.transaction(
      [...stores],
      mode === "rw" ? "readwrite" : "readonly",
      mode === "rw" ? readWrite(durability) : undefined,
    );
    const inside = <Name extends StoreName>(store: Name) =>
      new StoreTable<Name>(
        store,
        () => Promise.resolve(transaction.objectStore(store) as never),
        () => Promise.resolve(),
      );
    const tx = {
      device: inside("device"),
      attempts: inside("attempts"),
      papers: inside("papers"),
      drafts: inside("drafts"),
      announcements: inside("announcements"),
    };
    let result: T;
    try {
      result = await body(tx);
    } catch (error) {
      try {
        transaction.abort();
      } catch {
        // Already finished or aborted.
      }
      await transaction.done.catch(() => undefined);
      throw error;
    }
    await transaction.done;
    return result;
  }

  close(): void {
    const opening = this.opening;
    this.opening = null;
    void opening?.then(
      (database) => database.close(),
      () => undefined,
    );
  }

  /** Deletes the whole database (tests, benchmarks). */
  async delete(): Promise<void> {
    this.close();
    await deleteDB(this.name);
  }
}

const memo = globalThis as unknown as { holdfastDb?: HoldfastDb };

/** The page's one connection to the database (memoised, so hot reloads and several engines share it). */
export function getDb(): HoldfastDb {
  memo.holdfastDb ??= new HoldfastDb();
  return memo.holdfastDb;
}
