import "server-only";

import { AppError, validationError } from "@/lib/shared/errors";
import { BulkExtendSchema } from "@/lib/shared/schemas/proctor";
import type { BulkExtendResult } from "@/lib/shared/schemas/proctor-actions";

import { db } from "../db/client";
import { findWatchedExam } from "../proctor/find-watched-exam";
import type { StaffCaller } from "../proctor/find-candidate-for-staff";
import { extendCandidate, type CandidateExtension } from "./extend-candidate";

/** Candidates extended at once: each in its own short transaction, a few side by side. */
const CONCURRENCY = 4;

/**
 * The same extra time for a selection of one exam's candidates, by enrollment id (so a candidate who has not
 * started can get time too). The exam must be visible to the caller (else 404, whatever the body); then the
 * body (`BulkExtendSchema`, else 422); ids that are not candidates
 * of this exam are reported as `not_found` and never touched. Each candidate is its own transaction
 * (extendCandidate): one busy attempt does not hold up or roll back the others.
 *
 * With an Idempotency-Key, the key is checked against every candidate it already extended before anything
 * is written: the same key with another body is a 422 for the whole request, with nothing changed.
 */
export async function extendCandidates(options: {
  examId: string;
  caller: StaffCaller;
  /** The request's JSON body. */
  body: unknown;
  requestKey: string | null;
}): Promise<{ results: BulkExtendResult[]; isReplay: boolean }> {
  const { examId, caller, requestKey } = options;
  if (!(await findWatchedExam({ examId, principal: caller }))) throw new AppError("NOT_FOUND", "No such exam.");
  const parsed = BulkExtendSchema.safeParse(options.body);
  if (!parsed.success) throw validationError(parsed.error);
  const { seconds, reason } = parsed.data;

  const ids = [...new Set(parsed.data.enrollmentIds.map((id) => id.toLowerCase()))];
  const found = await db.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM enrollments WHERE exam_id = ${examId}::uuid AND id = ANY(${ids}::uuid[])`;
  const inExam = new Set(found.map((row) => row.id));

  if (requestKey !== null && inExam.size > 0) {
    const reused = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM time_extensions
      WHERE request_key = ${requestKey} AND enrollment_id = ANY(${[...inExam]}::uuid[])
        AND (seconds <> ${seconds}::int OR reason <> ${reason})`;
    if ((reused[0]?.n ?? 0) > 0) {
      throw new AppError(
        "IDEMPOTENCY_KEY_REUSED",
        "This Idempotency-Key was already used with a different request body.",
      );
    }
  }

  const results = new Map<string, BulkExtendResult>();
  const queue = ids.filter((id) => inExam.has(id));
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const result = await withRetryWhileBusy(() =>
        extendCandidate({ target: { enrollmentId: id, examId, attemptId: null }, caller, seconds, reason, requestKey }),
      );
      if (result.outcome === "already_submitted") {
        results.set(id, { enrollmentId: id, outcome: "already_submitted", submissionId: result.submissionId });
      } else {
        results.set(id, {
          enrollmentId: id,
          outcome: result.outcome,
          extensionId: result.extensionId,
          ...(result.deadline ? { deadline: result.deadline.toISOString() } : {}),
          ...(result.isReplay ? { replayed: true } : {}),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));

  const ordered = ids.map((id) => results.get(id) ?? { enrollmentId: id, outcome: "not_found" as const });
  const touched = ordered.filter((result) => result.outcome === "extended" || result.outcome === "pending_start");
  return { results: ordered, isReplay: touched.length > 0 && touched.every((result) => result.replayed === true) };
}

/**
 * One candidate's attempt row held for more than the 3 s lock timeout (a long submit) fails only that
 * candidate's transaction, which changed nothing: try it again a couple of times before the whole request
 * gives up with 409 REQUEST_IN_PROGRESS (safe to retry with the same Idempotency-Key).
 */
async function withRetryWhileBusy(run: () => Promise<CandidateExtension>): Promise<CandidateExtension> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof AppError && error.code === "REQUEST_IN_PROGRESS") || tries >= 3) throw error;
    }
  }
}
