// A fingerprint of every table of a database: its row count and an order-independent checksum of its
// rows (each row as text, sorted, hashed). Tables are read from information_schema at the time of the
// snapshot, so a table added by a later migration is covered without a change here.
import pg from "pg";

export type TableFingerprint = { table: string; rows: number; checksum: string };
export type DatabaseSnapshot = TableFingerprint[];

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function snapshotDatabase(databaseUrl: string): Promise<DatabaseSnapshot> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // One snapshot of all tables, not a table at a time while something else writes.
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { rows: tables } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const snapshot: DatabaseSnapshot = [];
    for (const { table_name: table } of tables) {
      const { rows } = await client.query<{ rows: number; checksum: string }>(
        `SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS checksum
         FROM public.${quoteIdent(table)} AS t`,
      );
      snapshot.push({ table, rows: rows[0]?.rows ?? 0, checksum: rows[0]?.checksum ?? "" });
    }
    await client.query("COMMIT");
    return snapshot;
  } finally {
    await client.end();
  }
}

/** The tables whose count or checksum differ (or that exist on one side only). */
export function diffSnapshots(
  before: DatabaseSnapshot,
  after: DatabaseSnapshot,
): { table: string; before: TableFingerprint | null; after: TableFingerprint | null }[] {
  const names = [...new Set([...before, ...after].map((item) => item.table))].sort();
  const find = (snapshot: DatabaseSnapshot, table: string): TableFingerprint | null =>
    snapshot.find((item) => item.table === table) ?? null;
  return names
    .map((table) => ({ table, before: find(before, table), after: find(after, table) }))
    .filter(({ before: a, after: b }) => !a || !b || a.rows !== b.rows || a.checksum !== b.checksum);
}

/**
 * Waits until the app's results worker has scored every queued paper (result_jobs empty), so work the seeding
 * caused in the background is done before a snapshot that must then stay unchanged. Throws after `timeoutMs`.
 */
export async function waitForResultsQueue(databaseUrl: string, timeoutMs = 30_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<{ queued: number }>("SELECT count(*)::int AS queued FROM result_jobs");
      if ((rows[0]?.queued ?? 0) === 0) return;
      if (Date.now() > until)
        throw new Error(`results queue still holds ${rows[0]?.queued} jobs after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end();
  }
}
