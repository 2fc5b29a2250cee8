import type { PaperRecord, Stores } from "./db";

/**
 * Operations on `papers`: one row per attempt, its question set, apart from the attempt's row that every edit
 * rewrites (docs/sync-protocol.md, "On the device"). Written when a server view is saved, read when the page loads;
 * never on a keystroke. Call inside a transaction that holds `papers`.
 */

export async function getPaper(db: Stores, attemptId: string): Promise<PaperRecord | undefined> {
  return db.papers.get(attemptId);
}

export async function savePaper(db: Stores, paper: PaperRecord): Promise<void> {
  await db.papers.put(paper);
}
