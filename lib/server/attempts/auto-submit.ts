import "server-only";

import { db } from "../db/client";
import { publishExamChange } from "../live/exam-bus";
import { log } from "../log";
import { freezeAttempt } from "./freeze-attempt";
import { lockAttemptRow } from "./lock-attempt-row";

// One key for the whole cluster: only one instance sweeps at a time (the others skip, not wait).
const SWEEP_LOCK_KEY = 0x486f6c64; // "Hold"

/**
 * Submits one overdue attempt (past deadline + grace) with what the server holds, source `auto`.
 * Exactly once: the row lock and the conditional status transition make repeats no-ops. Returns the
 * attempt's submission id (new or existing), or null if the attempt is still open.
 */
export async function autoSubmitAttempt(attemptId: string): Promise<string | null> {
  return db.$transaction(async (tx) => {
    const row = await lockAttemptRow(tx, attemptId);
    if (!row) return null;
    if (row.status === "in_progress") {
      if (!row.isOverdue) return null;
      const response = await freezeAttempt(tx, { attemptId, source: "auto" });
      return response?.submissionId ?? null;
    }
    const submission = await tx.submission.findUnique({ where: { attemptId }, select: { id: true } });
    return submission?.id ?? null;
  });
}

/**
 * One sweep: under a cluster-wide advisory lock, freezes up to `limit` overdue attempts in one
 * transaction. Safe to run on every instance and after every restart. Returns how many it froze.
 */
export async function autoSubmitOverdue(options: { limit?: number } = {}): Promise<number> {
  const limit = options.limit ?? 200;
  const frozen = await db.$transaction(
    async (tx) => {
      const [lock] = await tx.$queryRaw<{ acquired: boolean }[]>`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) AS acquired`;
      if (!lock?.acquired) return [];
      const overdue = await tx.$queryRaw<{ id: string; exam_id: string; enrollment_id: string }[]>`
        SELECT a.id::text AS id, a.exam_id::text AS exam_id, a.enrollment_id::text AS enrollment_id
        FROM attempts a JOIN exams e ON e.id = a.exam_id
        WHERE a.status = 'in_progress' AND a.deadline + make_interval(secs => e.grace_seconds) < clock_timestamp()
        ORDER BY a.deadline
        LIMIT ${limit}
        FOR UPDATE OF a SKIP LOCKED`;
      const frozen: { exam_id: string; enrollment_id: string }[] = [];
      for (const attempt of overdue) {
        if (await freezeAttempt(tx, { attemptId: attempt.id, source: "auto" })) frozen.push(attempt);
      }
      return frozen;
    },
    { maxWait: 5_000, timeout: 60_000 },
  );
  // Once committed, so a dashboard that reloads on the message reads the submissions.
  for (const attempt of frozen) publishExamChange(attempt.exam_id, attempt.enrollment_id, "submitted");
  return frozen.length;
}

const globalForSweeper = globalThis as unknown as { holdfastSweeper?: NodeJS.Timeout };

/** Runs a sweep now (catching up after a restart) and then every `intervalMs`. */
export function startAutoSubmitSweeper(intervalMs = 5_000): void {
  if (globalForSweeper.holdfastSweeper) return;
  const sweep = async () => {
    try {
      let frozen: number;
      do {
        frozen = await autoSubmitOverdue();
        if (frozen > 0) log.info("auto-submitted overdue attempts", { count: frozen });
      } while (frozen >= 200);
    } catch (error) {
      log.warn("auto-submit sweep failed; will retry", { error });
    }
  };
  void sweep();
  globalForSweeper.holdfastSweeper = setInterval(() => void sweep(), intervalMs);
  globalForSweeper.holdfastSweeper.unref();
}
