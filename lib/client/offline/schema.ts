import { Dexie, type Table, type Transaction } from "dexie";

import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import type { Keys, PaperRecord, Records, StoredAttempt } from "./records";

/**
 * The device store's tables, declared with Dexie (ADR 024). Loaded by db.ts (`loadSchema`), in a chunk of
 * its own, so Dexie costs the exam page's first paint nothing.
 *
 * Each `version(n)` block is a step of the on-disk layout and is never edited or deleted: a browser holding a
 * database of any earlier release upgrades through the steps it lacks, in order, without losing a draft. A change
 * adds `version(4)` (IndexedDB version 40; Dexie multiplies by ten) and raises `DB_VERSION` in db.ts. Releases
 * before ADR 024 wrote this same layout through `idb` (ADR 012), and the ones before those through Dexie, so
 * every candidate's database opens as it is.
 */
export class HoldfastDexie extends Dexie {
  declare readonly device: Table<Records["device"], Keys["device"]>;
  declare readonly attempts: Table<Records["attempts"], Keys["attempts"]>;
  declare readonly papers: Table<Records["papers"], Keys["papers"]>;
  declare readonly drafts: Table<Records["drafts"], Keys["drafts"]>;
  declare readonly announcements: Table<Records["announcements"], Keys["announcements"]>;

  /**
   * `durability` is how this connection's read-write transactions commit (db.ts, `Durability`): Dexie sets it per
   * connection, so the store keeps one connection per durability.
   */
  constructor(name: string, durability: "strict" | "relaxed") {
    super(name, { chromeTransactionDurability: durability });
    // IndexedDB version 10: this device's id, the attempts it opened, one draft per answered question.
    this.version(1).stores({
      device: "key",
      attempts: "attemptId",
      drafts: "[attemptId+questionId], attemptId, [attemptId+dirty]",
    });
    // 20: staff's announcements (ADR 015).
    this.version(2).stores({ announcements: "[attemptId+id], attemptId" });
    // 30: each attempt's question set in a row of its own, apart from the row every edit rewrites.
    this.version(3).stores({ papers: "attemptId" }).upgrade(movePapers);
  }
}

/**
 * Version 30: every `attempts` row's `questions` becomes a row of `papers`, and the attempt's row loses them. Inside
 * the upgrade's transaction, which a failure aborts: version 20 stays as it was (the open fails, and the next one
 * tries again), never half moved.
 */
async function movePapers(transaction: Transaction): Promise<void> {
  const attempts = transaction.table<StoredAttempt & { questions?: CandidateQuestion[] }, string>("attempts");
  const rows = await attempts.toArray();
  const papers: PaperRecord[] = [];
  const kept: StoredAttempt[] = [];
  for (const { questions, ...attempt } of rows) {
    if (!questions) continue;
    papers.push({ attemptId: attempt.attemptId, questions });
    kept.push(attempt);
  }
  await transaction.table<PaperRecord, string>("papers").bulkPut(papers);
  await attempts.bulkPut(kept);
}

/** Deletes the database `name` (tests, benchmarks): it waits for open connections elsewhere to close. */
export function deleteDatabase(name: string): Promise<void> {
  return Dexie.delete(name);
}
