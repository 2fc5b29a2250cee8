import "server-only";

import type { Prisma } from "../db/client";
import { db, dbPool } from "../db/client";
import { currentLoad } from "../limits/admission";
import { queryRows, sql } from "../db/sql";
import { fileStatement } from "../db/statement-files";
import { log } from "../log";
import { recomputeResults, type ResultActor, type ResultCause } from "./recompute-results";
import { shouldDrainNow, type WorkerLoad } from "./results-worker-pace";

type Tx = Prisma.TransactionClient;

/** Jobs one drain takes per transaction: small enough that one transaction holds its connection briefly. */
const BATCH = 100;

/**
 * Queues papers for scoring, in the caller's transaction (so the job exists exactly when the change that needs it
 * committed): the given attempts, or every submitted attempt of `examId` (a corrected key); only submitted ones. A
 * paper already queued keeps one job, now carrying the newest cause and actor. The upsert is
 * lib/server/db/statements/upsert-result-jobs.sql, which every submission's freeze (freeze.sql) includes too.
 */
export async function enqueueResultJobs(
  tx: Tx,
  options: (
    { examId: string; attemptIds?: readonly string[] } | { examId?: undefined; attemptIds: readonly string[] }
  ) & { cause: ResultCause; actor: ResultActor; reason?: string },
): Promise<number> {
  const rows = await queryRows<{ attempt_id: string }>(
    fileStatement("enqueue-result-jobs", {
      examId: options.examId ?? null,
      attemptIds: options.attemptIds ? [...options.attemptIds] : null,
      cause: options.cause,
      actorType: options.actor.type,
      staffUserId: options.actor.type === "staff" ? options.actor.staffUserId : null,
      actorLabel: options.actor.label,
      reason: options.reason ?? "",
    }),
    tx,
  );
  return rows.length;
}

type JobRow = {
  attempt_id: string;
  exam_id: string;
  cause: ResultCause;
  actor_type: ResultActor["type"];
  staff_user_id: string | null;
  actor_label: string;
  reason: string;
};

/**
 * One transaction: takes up to `limit` queued jobs no other drain holds (FOR UPDATE SKIP LOCKED), deletes them,
 * and computes their results (recompute-results.ts) — so a job disappears exactly when its result is written, and
 * a crash leaves it queued. Returns how many jobs it took (0: the queue is empty or held by others).
 */
export async function drainResultJobs(limit = BATCH): Promise<number> {
  return db.$transaction(
    async (tx) => {
      const jobs = await queryRows<JobRow>(
        sql`DELETE FROM result_jobs WHERE attempt_id IN (
              SELECT attempt_id FROM result_jobs ORDER BY queued_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            RETURNING attempt_id::text AS attempt_id, exam_id::text AS exam_id, cause, actor_type,
                      staff_user_id::text AS staff_user_id, actor_label, reason`,
        tx,
      );
      // One recompute per exam and (cause, actor, reason): each version records who and why.
      const groups = new Map<string, JobRow[]>();
      for (const job of jobs) {
        const key = JSON.stringify([
          job.exam_id,
          job.cause,
          job.actor_type,
          job.staff_user_id,
          job.actor_label,
          job.reason,
        ]);
        const group = groups.get(key);
        if (group) group.push(job);
        else groups.set(key, [job]);
      }
      for (const group of groups.values()) {
        const [first] = group;
        if (!first) continue;
        await recomputeResults(tx, {
          examId: first.exam_id,
          attemptIds: group.map((job) => job.attempt_id),
          cause: first.cause,
          actor: actorOf(first),
          reason: first.reason,
        });
      }
      return jobs.length;
    },
    { maxWait: 5_000, timeout: 60_000 },
  );
}

function actorOf(job: JobRow): ResultActor {
  if (job.actor_type === "staff" && job.staff_user_id)
    return { type: "staff", staffUserId: job.staff_user_id, label: job.actor_label };
  if (job.actor_type === "api-token") return { type: "api-token", label: job.actor_label };
  return { type: "system", label: job.actor_label };
}

const globalForWorker = globalThis as unknown as { holdfastResultsWorker?: NodeJS.Timeout };

/**
 * Drains the queue now (catching up after a restart) and then every `intervalMs`, on every instance, a batch at a
 * time while the instance is quiet (results-worker-pace.ts: a deadline storm's submits come first; scoring waits
 * at most 30 s for them).
 */
export function startResultsWorker(intervalMs = 1_000): void {
  if (globalForWorker.holdfastResultsWorker) return;
  let running = false;
  let deferredSinceMs: number | null = null;
  const load = (): WorkerLoad => {
    const { inFlight, latestEventLoopDelayMs, lastSubmitAtMs } = currentLoad();
    return {
      inFlight,
      eventLoopDelayMs: latestEventLoopDelayMs,
      poolWaiting: dbPool.waitingCount,
      msSinceSubmit: lastSubmitAtMs === 0 ? Infinity : Date.now() - lastSubmitAtMs,
    };
  };
  const drain = async () => {
    if (running) return;
    running = true;
    try {
      for (;;) {
        const now = Date.now();
        if (!shouldDrainNow(load(), deferredSinceMs, now)) {
          deferredSinceMs ??= now;
          return;
        }
        deferredSinceMs = null;
        if ((await drainResultJobs()) < BATCH) return;
      }
    } catch (error) {
      log.warn("results worker: a drain failed; its jobs stay queued", { error });
    } finally {
      running = false;
    }
  };
  void drain();
  globalForWorker.holdfastResultsWorker = setInterval(() => void drain(), intervalMs);
  globalForWorker.holdfastResultsWorker.unref();
}
