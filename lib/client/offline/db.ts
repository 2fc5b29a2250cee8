import type { Table, Transaction } from "dexie";

import type { Indexes, Keys, Records, StoreName } from "./records";
import type { HoldfastDexie } from "./schema";

/**
 * The candidate's device-side store (docs/sync-protocol.md, "The client"). Everything a candidate types is
 * written here first, in one transaction, before anything is sent; the sync engine only ever reads from
 * here what it sends. Its rows: records.ts; its tables and their upgrades: schema.ts (Dexie, ADR 024).
 */

export type {
  AnnouncementRecord,
  AttemptPause,
  AttemptRecord,
  ClosedInfo,
  DeviceRecord,
  DraftRecord,
  PaperRecord,
  RecordedError,
  StoreName,
  StoredAttempt,
  SubmitState,
  SubmittedElsewhere,
} from "./records";

/**
 * The IndexedDB version of the layout this code knows: schema.ts's newest `version(n)` times ten. Raised with each
 * new step there; a store found at a higher version belongs to a newer release (`StoreSupersededError`).
 */
export const DB_VERSION = 30;

/**
 * How a read-write transaction commits. `strict` (the default): a committed draft is on disk, not in an OS
 * buffer that a crash or a dead battery loses. `relaxed`: committed once handed to the OS — still kept when the
 * browser or the tab is killed, lost only with the machine. Only for writes the device can learn again from the
 * server (an acknowledgement, the server's time facts): losing one leaves the device as if that response had
 * been dropped on the way, which the protocol already handles (the drafts stay dirty and are sent again). It
 * spares the fsync that an edit typed meanwhile would wait behind (docs/benchmarks/log/client.md).
 */
export type Durability = "strict" | "relaxed";

type DexieTable<Name extends StoreName> = Table<Records[Name], Keys[Name]>;

/**
 * One table, either inside a transaction (`HoldfastDb.transaction`) or on its own (each call its own
 * transaction, strict). Inside a transaction, await only these calls: a wait on anything else (fetch, Web Crypto,
 * a timer) lets IndexedDB commit the transaction early, and Dexie then fails the body's next call.
 */
export class StoreTable<Name extends StoreName> {
  constructor(
    readonly name: Name,
    private readonly table: () => DexieTable<Name> | Promise<DexieTable<Name>>,
  ) {}

  async get(key: Keys[Name]): Promise<Records[Name] | undefined> {
    return (await this.table()).get(key as never);
  }

  async bulkGet(keys: readonly Keys[Name][]): Promise<(Records[Name] | undefined)[]> {
    return (await this.table()).bulkGet([...keys]);
  }

  /** Every record whose `index` equals `key`. */
  async allBy<I extends keyof Indexes[Name] & string>(index: I, key: Indexes[Name][I]): Promise<Records[Name][]> {
    return (await this.table())
      .where(index)
      .equals(key as never)
      .toArray();
  }

  async put(record: Records[Name]): Promise<void> {
    await (await this.table()).put(record);
  }

  async bulkPut(records: readonly Records[Name][]): Promise<void> {
    await (await this.table()).bulkPut([...records]);
  }

  async delete(key: Keys[Name]): Promise<void> {
    await (await this.table()).delete(key as never);
  }

  async clear(): Promise<void> {
    await (await this.table()).clear();
  }
}

/** The tables, as a transaction's body sees them (and as the database itself offers them, one call each). */
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

type Schema = typeof import("./schema");
let schema: Promise<Schema> | null = null;

/** How long to wait before fetching the store's chunk again when a fetch failed. */
export const SCHEMA_RETRY_MS = 2_000;

/**
 * schema.ts, and Dexie with it, in a chunk of their own: the page paints the server's render of the paper while it
 * loads, with the editor locked until the store has been read (ADR 024). The service worker keeps the chunk like
 * every script the page loaded, so an offline reload has it. A fetch that fails (the connection dropped in the
 * page's first moments) is made again until the chunk comes: the store opens late, never "cannot keep answers".
 * `load` is the dynamic import itself (tests pass one that fails).
 */
export function loadSchema(load: () => Promise<Schema> = () => import("./schema")): Promise<Schema> {
  schema ??= new Promise<Schema>((resolve) => {
    const attempt = () => {
      load().then(resolve, () => globalThis.setTimeout(attempt, SCHEMA_RETRY_MS));
    };
    attempt();
  });
  return schema;
}

/**
 * The candidate's device-side store on IndexedDB through Dexie (ADR 024; schema.ts). Opened on first use; closed
 * when another tab needs to upgrade or delete it, and opened again by the next call — unless the other tab
 * upgraded it past this page's `DB_VERSION`: then the store is *superseded* for this page (every call fails with
 * `StoreSupersededError`, and `onSuperseded` listeners hear it once), because only a reload brings the code that
 * knows the new layout.
 *
 * Dexie sets a transaction's durability per connection, so the store has two, opened on first use: the strict
 * one for everything the candidate did, the relaxed one for what the server repeats (`Durability`). IndexedDB
 * orders transactions over the same tables across connections as within one, so an edit and an acknowledgement
 * still run one after the other.
 */
export class HoldfastDb implements Stores {
  readonly device = this.own("device");
  readonly attempts = this.own("attempts");
  readonly papers = this.own("papers");
  readonly drafts = this.own("drafts");
  readonly announcements = this.own("announcements");
  private readonly connections = new Map<Durability, HoldfastDexie>();
  private superseded = false;
  private readonly supersededListeners = new Set<() => void>();

  constructor(readonly name = "holdfast") {}

  private own<Name extends StoreName>(name: Name): StoreTable<Name> {
    return new StoreTable(name, async () => (await this.connection("strict")).table(name) as DexieTable<Name>);
  }

  /** The connection that commits with `durability`, open. */
  private async connection(durability: Durability): Promise<HoldfastDexie> {
    if (this.superseded) throw new StoreSupersededError();
    const existing = this.connections.get(durability);
    if (existing?.isOpen()) return existing;
    const { HoldfastDexie } = await loadSchema();
    let dexie = this.connections.get(durability);
    if (!dexie) {
      dexie = new HoldfastDexie(this.name, durability);
      const own = dexie;
      own.on("versionchange", (event) => {
        // A delete (newVersion null) or an upgrade this code knows: let it go; the next call opens again.
        if (event.newVersion !== null && event.newVersion > DB_VERSION) this.markSuperseded();
        own.close({ disableAutoOpen: false });
        // Handled: Dexie's own handler would only close it too, and warn.
        return false;
      });
      this.connections.set(durability, dexie);
    }
    if (this.superseded) throw new StoreSupersededError();
    await dexie.open();
    // A page of an older release that meets a store a newer one has upgraded: Dexie opens it as it is (it never
    // downgrades), and this code would misread it.
    // (Null: another tab's upgrade or delete closed it again at once; the next call opens it again.)
    if (((dexie.backendDB() as IDBDatabase | null)?.version ?? 0) > DB_VERSION) this.markSuperseded();
    if (this.superseded) throw new StoreSupersededError();
    return dexie;
  }

  /** The database, open (tests read its layout). */
  async open(): Promise<IDBDatabase> {
    return (await this.connection("strict")).backendDB();
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
    for (const connection of this.connections.values()) connection.close({ disableAutoOpen: true });
    const listeners = [...this.supersededListeners];
    this.supersededListeners.clear();
    for (const listener of listeners) listener();
  }

  /**
   * `body` runs in one Dexie transaction over `stores` and sees them through its argument; the promise settles
   * once the transaction has committed (or with the error that aborted it: a throw in `body` aborts it, and
   * nothing it wrote is kept). A read-write transaction commits with strict durability unless `durability`
   * says `relaxed` (see `Durability` for when that is allowed).
   */
  async transaction<T>(
    mode: "r" | "rw",
    stores: readonly StoreName[],
    body: (tx: Stores) => Promise<T>,
    durability: Durability = "strict",
  ): Promise<T> {
    const dexie = await this.connection(mode === "rw" ? durability : "strict");
    return dexie.transaction(mode, [...stores], (transaction) => body(inside(transaction)));
  }

  /** Closes the connections; the next call opens the store again. */
  close(): void {
    for (const connection of this.connections.values()) connection.close({ disableAutoOpen: false });
  }

  /** Deletes the whole database (tests, benchmarks). */
  async delete(): Promise<void> {
    this.close();
    await (await loadSchema()).deleteDatabase(this.name);
  }
}

/** The tables of one transaction: each call joins it. */
function inside(transaction: Transaction): Stores {
  const table = <Name extends StoreName>(name: Name) =>
    new StoreTable(name, () => transaction.table(name) as DexieTable<Name>);
  return {
    device: table("device"),
    attempts: table("attempts"),
    papers: table("papers"),
    drafts: table("drafts"),
    announcements: table("announcements"),
  };
}

const memo = globalThis as unknown as { holdfastDb?: HoldfastDb };

/**
 * The page's one connection to the database (memoised, so hot reloads and several engines share it). In a browser,
 * the store's code starts to load here, while the page hydrates, rather than when the engine first asks for it.
 */
export function getDb(): HoldfastDb {
  if (!memo.holdfastDb) {
    memo.holdfastDb = new HoldfastDb();
    if (typeof indexedDB !== "undefined") void loadSchema();
  }
  return memo.holdfastDb;
}
