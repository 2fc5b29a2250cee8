import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { SubmitResponse } from "@/lib/shared/schemas/sync";

import { db, type Prisma } from "../db/client";
import { isLockTimeout } from "../db/errors";
import { fileStatement } from "../db/statement-files";
import { publishAttemptSubmitted } from "../live/exam-bus";
import { freezeAttempt, type FreezeOptions } from "./freeze-attempt";

type Tx = Prisma.TransactionClient;

/** An attempt whose row the current transaction holds FOR UPDATE. */
export type LockedAttempt = {
  readonly id: string;
  readonly examId: string;
  readonly enrollmentId: string;
  /** As it is under the lock: nothing else can change it until the transaction ends, except `freeze`. */
  readonly status: "in_progress" | "submitted";
  /**
   * True when the attempt was still in progress but past deadline + grace by the database's clock: taking the
   * lock has just submitted it with what the server held (source `auto`), as the sweeper would have.
   */
  readonly isAutoSubmitted: boolean;
  /**
   * Freezes the attempt and creates its one submission (freeze-attempt.ts), in this transaction. Only for an
   * attempt `in_progress`; the exam's bus hears of it once the transaction has committed.
   */
  freeze(options: Omit<FreezeOptions, "attemptId">): Promise<SubmitResponse>;
};

/** What an operation can do inside the one attempt transaction (see withAttemptLocks). */
export type AttemptLocks = {
  readonly tx: Tx;
  /** Locks one attempt's row (an overdue one is auto-submitted first); null when there is no such attempt. */
  lock(attemptId: string): Promise<LockedAttempt | null>;
  /**
   * Locks up to `limit` overdue attempts that no other transaction holds (SKIP LOCKED) and auto-submits each. A
   * paused attempt is never overdue: its clock is stopped (ADR 016).
   */
  lockOverdue(limit: number): Promise<LockedAttempt[]>;
};

/** How long the transaction may wait for a pooled connection, and how long it may run (Prisma's options). */
const MAX_WAIT_MS = 5_000;
const DEFAULT_TIMEOUT_MS = 15_000;

/** The answer when an attempt's row stayed locked past the lock timeout: nothing was changed, retry. */
export function attemptBusy(): AppError {
  return new AppError("REQUEST_IN_PROGRESS", "Another request is working on this attempt. It is safe to retry.", {
    headers: { "Retry-After": "1" },
  });
}

type LockedRow = { id: string; exam_id: string; enrollment_id: string; status: string; overdue: boolean };

/**
 * The one transaction every write that decides an attempt's fate runs in: submit, force-submit, extra time
 * (one and bulk), the emergency import and the deadline sweeper (docs/sync-protocol.md, "Submit").
 *
 * 1. One Prisma interactive transaction (`timeoutMs`, 15 s by default), with `lock_timeout` 3 s: a row held
 *    longer by someone else (a long submit) fails this transaction, which changed nothing, with 409
 *    REQUEST_IN_PROGRESS and `Retry-After: 1`, never an endless wait.
 * 2. `locks.lock(attemptId)` takes the attempt's row FOR UPDATE, the lock every freeze and every autosave
 *    (in its own statement) takes, which is what serialises them. An attempt still in progress but past
 *    deadline + grace is auto-submitted right there (source `auto`), so no operation ever acts on an attempt
 *    that should already be frozen; `isAutoSubmitted` says it happened.
 * 3. After commit, and only then, the exam's bus hears of every attempt this transaction froze, so a
 *    dashboard that reloads on the message reads the submission.
 *
 * Correctness rests on the row lock and the freeze's conditional transition (lib/server/db/statements/freeze.sql,
 * ADR 025), not on anything here being fast: see ADR 005.
 */
export async function withAttemptLocks<T>(
  work: (locks: AttemptLocks) => Promise<T>,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const frozen: { examId: string; enrollmentId: string; attemptId: string }[] = [];
  let result: T;
  try {
    result = await db.$transaction(
      async (tx) => {
        // 1.
        await tx.$executeRaw`SET LOCAL lock_timeout = '3s'`;
        const locks = attemptLocks(tx, (attempt) => frozen.push(attempt));
        return work(locks);
      },
      { maxWait: MAX_WAIT_MS, timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
    );
  } catch (error) {
    if (isLockTimeout(error)) throw attemptBusy();
    throw error;
  }
  // 3.
  for (const attempt of frozen) publishAttemptSubmitted(attempt);
  return result;
}

/**
 * One attempt, locked (withAttemptLocks, step 2): `work` gets the transaction and the attempt as it is under
 * the lock. No such attempt is 404 NOT_FOUND.
 *
 *   const outcome = await withLockedAttempt(attemptId, async (tx, attempt) => {
 *     if (attempt.status === "submitted") return "already";
 *     await attempt.freeze({ source: "proctor", actor });
 *     return "frozen";
 *   });
 */
export async function withLockedAttempt<T>(
  attemptId: string,
  work: (tx: Tx, attempt: LockedAttempt) => Promise<T>,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  return withAttemptLocks(async (locks) => {
    const attempt = await locks.lock(attemptId);
    if (!attempt) throw new AppError("NOT_FOUND", "No such attempt.");
    return work(locks.tx, attempt);
  }, options);
}

function attemptLocks(
  tx: Tx,
  onFrozen: (attempt: { examId: string; enrollmentId: string; attemptId: string }) => void,
): AttemptLocks {
  /** A locked row as an operation sees it, auto-submitting it first when `isOverdue`. */
  async function toLocked(row: LockedRow, isOverdue: boolean): Promise<LockedAttempt> {
    let status: LockedAttempt["status"] = row.status === "submitted" ? "submitted" : "in_progress";
    const freeze = async (options: Omit<FreezeOptions, "attemptId">): Promise<SubmitResponse> => {
      if (status !== "in_progress") throw new Error(`attempt ${row.id} is already submitted`);
      const response = await freezeAttempt(tx, { ...options, attemptId: row.id });
      // The row lock is held and the attempt was in progress: the conditional transition cannot miss.
      if (!response) throw new Error(`attempt ${row.id} frozen while its row was locked`);
      status = "submitted";
      onFrozen({ examId: row.exam_id, enrollmentId: row.enrollment_id, attemptId: row.id });
      return response;
    };
    const isAutoSubmitted = status === "in_progress" && isOverdue;
    if (isAutoSubmitted) await freeze({ source: "auto" });
    return {
      id: row.id,
      examId: row.exam_id,
      enrollmentId: row.enrollment_id,
      get status() {
        return status;
      },
      isAutoSubmitted,
      freeze,
    };
  }

  return {
    tx,
    async lock(attemptId) {
      // 2. lib/server/db/statements/lock-attempt.sql; `overdue` is judged by the database's clock, under the lock.
      const statement = fileStatement("lock-attempt", { attemptId });
      const rows = await tx.$queryRawUnsafe<LockedRow[]>(statement.text, ...statement.values);
      const row = rows[0];
      return row ? toLocked(row, row.overdue) : null;
    },
    async lockOverdue(limit) {
      const rows = await tx.$queryRaw<LockedRow[]>`
        SELECT a.id::text AS id, a.exam_id::text AS exam_id, a.enrollment_id::text AS enrollment_id, a.status::text AS status,
               true AS overdue
        FROM attempts a JOIN exams e ON e.id = a.exam_id
        WHERE a.status = 'in_progress' AND a.paused_at IS NULL
          AND a.deadline + make_interval(secs => e.grace_seconds) < clock_timestamp()
        ORDER BY a.deadline
        LIMIT ${limit}
        FOR UPDATE OF a SKIP LOCKED`;
      const locked: LockedAttempt[] = [];
      for (const row of rows) locked.push(await toLocked(row, true));
      return locked;
    },
  };
}
