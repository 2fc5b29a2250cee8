import "server-only";

import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { recomputeResults, type ResultActor, type ResultCause } from "./recompute-results";

/** Papers per transaction: each chunk's result rows stay locked only while that chunk is scored. */
const CHUNK = 500;

/**
 * Scores every submitted paper of an exam again (after an answer key was corrected, or on demand), a chunk of
 * papers per transaction, and returns how many papers there were and how many got a new result version. A paper
 * submitted while this runs is scored by its own submit; a grader's change to a paper in a chunk waits for that
 * chunk, then applies on top of it (recompute-results.ts).
 */
export async function regradeExam(options: {
  examId: string;
  actor: ResultActor;
  reason?: string;
  cause?: ResultCause;
}): Promise<{ papers: number; changed: number }> {
  const rows = await queryRows<{ id: string }>(
    sql`SELECT id::text AS id FROM attempts WHERE exam_id = ${options.examId}::uuid AND status = 'submitted' ORDER BY id`,
  );
  let changed = 0;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const attemptIds = rows.slice(start, start + CHUNK).map((row) => row.id);
    changed += await db.$transaction(
      (tx) =>
        recomputeResults(tx, {
          examId: options.examId,
          attemptIds,
          cause: options.cause ?? "regraded",
          actor: options.actor,
          reason: options.reason,
        }),
      { maxWait: 5_000, timeout: 60_000 },
    );
  }
  return { papers: rows.length, changed };
}
