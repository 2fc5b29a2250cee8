import "server-only";

import { log } from "../log";
import { withAttemptLocks } from "./with-locked-attempt";

// One key for the whole cluster: only one instance sweeps at a time (the others skip, not wait).
const SWEEP_LOCK_KEY = 0x486f6c64; // "Hold"

/**
 * Submits one overdue attempt (past deadline + grace) with what the server holds, source `auto`: taking
 * its lock does it (with-locked-attempt.ts). Exactly once: the row lock and the conditional status
 * transition make repeats no-ops. Returns the attempt's submission (new or existing: after an admin's
 * reopening it may be the candidate's or a proctor's, ADR 017), or null if the attempt is still open (or
 * does not exist).
 */
export async function autoSubmitAttempt(
  attemptId: string,
): Promise<{ id: string; source: "candidate" | "proctor" | "auto" } | null> {
  return withAttemptLocks(async ({ tx, lock }) => {
    const attempt = await lock(attemptId);
    if (!attempt || attempt.status === "in_progress") return null;
    return tx.submission.findUnique({ where: { attemptId }, select: { id: true, source: true } });
  });
}

/**
 * One sweep: under a cluster-wide advisory lock, locks up to `limit` overdue attempts that no other
 * transaction holds (SKIP LOCKED) and auto-submits them, in one locked-attempt transaction; the exam's
 * bus hears of each after commit. Safe to run on every instance and after every restart. Returns how
 * many it froze.
 */
export async function autoSubmitOverdue(options: { limit?: number } = {}): Promise<number> {
  const limit = options.limit ?? 200;
  return withAttemptLocks(
    async ({ tx, lockOverdue }) => {
      const [sweep] = await tx.$queryRaw<
        { acquired: boolean }[]
      >`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) AS acquired`;
      if (!sweep?.acquired) return 0;
      return (await lockOverdue(limit)).length;
    },
    { timeoutMs: 60_000 },
  );
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
