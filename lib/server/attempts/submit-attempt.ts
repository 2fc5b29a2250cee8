import "server-only";

import { requestHash } from "@/lib/shared/digest";
import { AppError } from "@/lib/shared/errors";
import type { z } from "zod";
import type { SubmitSchema } from "@/lib/shared/schemas/sync";

import { applyAnswerDelta } from "../answers/apply-answer-delta";
import { storeLateAnswers } from "../answers/store-late-answers";
import { validateDelta, type ValidatedAnswer } from "../answers/validate-delta";
import type { CandidatePrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { getResilienceMetrics } from "../metrics/resilience-metrics";
import { redisKeys } from "../redis/keys";
import { acquireLock, releaseLock, waitForLockRelease } from "../redis/lock";
import { timeDetails } from "./load-attempt-for-write";
import { readPaperForSubmit, trySubmitInOneStatement } from "./submit-in-one-statement";
import { attemptBusy, withLockedAttempt } from "./with-locked-attempt";

/** The submit's answer: its JSON text as the submission stores it (written once, sent as it is), and whether it is a replay. */
export type SubmitResult = { text: string; isReplay: boolean };

const LOCK_TTL_MS = 15_000;
/** How long a duplicate waits for an in-flight submit of the same attempt before answering 409. */
const DUPLICATE_WAIT_MS = 2_000;

/**
 * Idempotent submit (docs/sync-protocol.md, "Submit"). The steps:
 *
 * 1. Validate the final delta against the attempt's questions (422 before anything else happens).
 * 2. Already submitted? Answer from the stored submission: replay, key reused, or ALREADY_SUBMITTED.
 * 3. The common case, a first submit of an attempt in progress, in ONE statement without an interactive
 *    transaction and without a Redis call (submit-in-one-statement.ts, lib/server/db/statements/submit-attempt.sql):
 *    the frozen paper is the paper read in step 1 plus the delta, and the statement writes only if the attempt row
 *    is still as it was read (its xmin) and nobody holds its row lock at this moment (NOWAIT). The database decides
 *    this case alone, so a lock in front of it would only cost two round trips (issue 38). Otherwise it writes
 *    nothing, and:
 * 4. Take the Redis lock for the attempt: a duplicate of a submit still running (another tab, a retry through a
 *    dropped response) or a change racing this one. If another request holds it, wait briefly for it, then go on
 *    (or 409 REQUEST_IN_PROGRESS if it is still running); if it finished with a submission, answer from that. If
 *    Redis is away, go on without it.
 * 5. The locked-attempt transaction decides (with-locked-attempt.ts: row lock, lock_timeout 3 s, else 409
 *    REQUEST_IN_PROGRESS): a key that made a submission an admin has since reopened gets that submission's
 *    response again (replayStaleKey), never a freeze of the reopened paper. Otherwise apply the delta with the
 *    autosave rule, freeze the attempt and create the submission. Past deadline + grace the lock has auto-submitted
 *    it with what the server held, and the delta is kept as late answers. The exam's bus hears of the submission
 *    after commit.
 * 6. Release the lock only if it is still ours.
 *
 * Correctness never depends on the Redis lock: the row lock, the conditional status transition and the unique
 * submission per attempt make a second submission impossible even if the lock expired mid-way or was never taken.
 */
export async function submitAttempt(options: {
  attemptId: string;
  candidate: CandidatePrincipal;
  idempotencyKey: string;
  body: z.output<typeof SubmitSchema>;
  lockTtlMs?: number;
}): Promise<SubmitResult> {
  const { attemptId, candidate, idempotencyKey, body } = options;
  const phase = phaseTimer();

  // 1.
  const attempt = await readPaperForSubmit({ attemptId, candidate, idempotencyKey });
  phase("read");
  const answers = validateDelta(body.answers, attempt.questions);
  // Hashed only once validated: canonical JSON refuses what no valid answer holds (Infinity, from 1e309 in
  // the JSON text; values nested too deeply to walk), and that must be a 422, not a 500.
  const hash = await requestHash(body);

  // 2.
  if (attempt.status === "submitted")
    return resolveExisting({ attemptId, idempotencyKey, hash, deviceId: body.deviceId, answers });

  // 3.
  const written = await trySubmitInOneStatement({
    attempt,
    deviceId: body.deviceId,
    answers,
    idempotencyKey,
    requestHash: hash,
    clientDigest: body.digest,
  });
  phase("write");
  if (written) return { text: written.text, isReplay: false };

  // 4.
  const lockKey = redisKeys.submitLock(attemptId);
  let lock = await acquireLock(lockKey, options.lockTtlMs ?? LOCK_TTL_MS);
  if (lock.status === "held") {
    if (!(await waitForLockRelease(lockKey, DUPLICATE_WAIT_MS))) throw attemptBusy();
    // The request we waited for has most likely finished: answer from its submission without a transaction.
    const current = await db.attempt.findUniqueOrThrow({ where: { id: attemptId }, select: { status: true } });
    if (current.status === "submitted")
      return resolveExisting({ attemptId, idempotencyKey, hash, deviceId: body.deviceId, answers });
    lock = await acquireLock(lockKey, options.lockTtlMs ?? LOCK_TTL_MS);
  }
  phase("lock");

  try {
    // 5.
    const outcome = await withLockedAttempt(attemptId, async (tx, locked) => {
      if (locked.isAutoSubmitted) {
        await storeLateAnswers({ attemptId, deviceId: body.deviceId, answers, via: "submit" }, tx);
        return { kind: "late" as const };
      }
      if (locked.status === "submitted") return { kind: "existing" as const };
      const stale = await replayStaleKey({ attemptId, idempotencyKey, hash }, tx);
      if (stale) return { kind: "stale" as const, result: stale };
      const applied = await applyAnswerDelta(tx, { attemptId, deviceId: body.deviceId, answers });
      if (!applied.isOpen) throw new Error(`attempt ${attemptId} closed while its row was locked`);
      const response = await locked.freeze({
        source: "candidate",
        idempotencyKey,
        requestHash: hash,
        clientDigest: body.digest,
        actor: { type: "candidate", id: candidate.enrollmentId },
      });
      return { kind: "created" as const, response };
    });

    phase("locked");
    if (outcome.kind === "created") return { text: JSON.stringify(outcome.response), isReplay: false };
    if (outcome.kind === "stale") return outcome.result;
    if (outcome.kind === "late") {
      const submission = await db.submission.findUniqueOrThrow({ where: { attemptId }, select: { id: true } });
      throw new AppError(
        "ALREADY_SUBMITTED",
        "The time for this exam was up; the server submitted what it held at the deadline. Your last changes were kept as late answers.",
        {
          details: { submissionId: submission.id, ...timeDetails(attempt) },
        },
      );
    }
    return await resolveExisting({ attemptId, idempotencyKey, hash, deviceId: body.deviceId, answers });
  } finally {
    // 6.
    if (lock.status === "acquired") {
      await releaseLock(lockKey, lock.token);
      phase("unlock");
    }
  }
}

/**
 * Times a submit's phases into holdfast_submit_phase_seconds: each call records the time since the previous one
 * (or the start) under its name, so the phases add up to the submit's time in its turn.
 */
function phaseTimer(): (name: "read" | "write" | "lock" | "locked" | "unlock") => void {
  const histogram = getResilienceMetrics().submitPhase;
  let last = performance.now();
  return (name) => {
    const now = performance.now();
    histogram.observe({ phase: name }, (now - last) / 1000);
    last = now;
  };
}

/** Step 2: the attempt already has its submission. */
async function resolveExisting(options: {
  attemptId: string;
  idempotencyKey: string;
  hash: string;
  deviceId: string;
  answers: readonly ValidatedAnswer[];
}): Promise<SubmitResult> {
  const submission = await db.submission.findUnique({
    where: { attemptId: options.attemptId },
    select: {
      id: true,
      idempotencyKey: true,
      requestHash: true,
      response: true,
      attempt: { select: { deadline: true } },
    },
  });
  if (!submission) {
    // Reopened since we read it as submitted (reopen-attempt.ts): a retry of the superseded submit gets its
    // response again; anything else is answered once the attempt is read anew.
    const stale = await replayStaleKey(options);
    if (stale) return stale;
    throw attemptBusy();
  }
  if (submission.idempotencyKey === options.idempotencyKey) {
    if (submission.requestHash === options.hash && submission.response) {
      return { text: submission.response, isReplay: true };
    }
    throw new AppError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used with a different request body.",
    );
  }
  // Another device, a proctor or the deadline submitted first. Whatever this request carried that the
  // frozen paper does not hold is kept as late answers, never dropped.
  const frozen = await db.answer.findMany({
    where: { attemptId: options.attemptId },
    select: { questionId: true, version: true, deviceId: true },
  });
  const held = new Set(frozen.map((answer) => `${answer.questionId}:${answer.version}:${answer.deviceId}`));
  const unheld = options.answers.filter(
    (answer) => !held.has(`${answer.questionId}:${answer.version}:${options.deviceId}`),
  );
  await storeLateAnswers({ attemptId: options.attemptId, deviceId: options.deviceId, answers: unheld, via: "submit" });
  throw new AppError("ALREADY_SUBMITTED", "This attempt has already been submitted.", {
    details: { submissionId: submission.id, ...timeDetails(submission.attempt) },
  });
}

/**
 * A retry of a submit whose submission an admin has since reopened (ADR 017): same key, same body → that
 * submission's stored response, replayed (the page then learns from its attempt view or the "reopened" event
 * that the attempt is in progress again, and submits anew with a new key); same key, another body → 422.
 * Null when the key made no superseded submission of this attempt.
 */
async function replayStaleKey(
  options: { attemptId: string; idempotencyKey: string; hash: string },
  client: Pick<typeof db, "submissionHistory"> = db,
): Promise<SubmitResult | null> {
  const superseded = await client.submissionHistory.findFirst({
    where: { attemptId: options.attemptId, idempotencyKey: options.idempotencyKey },
    select: { requestHash: true, response: true },
  });
  if (!superseded) return null;
  if (superseded.requestHash === options.hash && superseded.response)
    return { text: superseded.response, isReplay: true };
  throw new AppError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was already used with a different request body.");
}
