// Results in integration tests: a submit queues its scoring (lib/server/results/result-jobs.ts); a test that
// reads a result drains the queue until that paper's job is done, as the app's worker would within a second.
import { db } from "@/lib/server/db/client";
import { drainResultJobs } from "@/lib/server/results/result-jobs";

/** Drains the results queue until these attempts have no job left (other tests' jobs may go along the way). */
export async function scoreNow(...attemptIds: string[]): Promise<void> {
  for (let round = 0; round < 50; round += 1) {
    if ((await db.resultJob.count({ where: { attemptId: { in: attemptIds } } })) === 0) return;
    await drainResultJobs();
  }
  throw new Error(`the results of ${attemptIds.join(", ")} were never computed`);
}
