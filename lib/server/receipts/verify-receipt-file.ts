import "server-only";

import { answersDigest } from "@/lib/shared/digest";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { ReceiptFile, ReceiptInvalidReason, ReceiptVerdict } from "@/lib/shared/schemas/receipts";

import { verifyReceipt } from "../attempts/receipt";
import { queryRows, sql } from "../db/sql";

type AttemptRow = { exam_id: string; title: string; name: string; email: string };

type SubmissionRow = {
  id: string;
  version: number;
  digest: string;
  superseded_at: Date | null;
  /** The history's snapshot of the frozen paper; null for the current submission (its paper is `answers`). */
  paper: Record<string, AnswerValue> | null;
};

/**
 * Checks a candidate's receipt file for staff (docs/results.md, "Receipt verifier"):
 *
 * 1. The signature over attempt id, submission time and digest (verifyReceipt, the function that signed it): one
 *    changed byte in any of them, or in the signature, makes it invalid.
 * 2. The submission it names: the attempt's current one, or an earlier one moved to submission_history by a
 *    reopening (ADR 017), matched on time and digest.
 * 3. The digest computed again, with the freeze's own function, from the frozen paper (`answers`, which a late
 *    answer never changes) or the history's `paper` snapshot: does the paper on record still match the receipt?
 *
 * Read-only. The claimed exam title, candidate name, submission id and source are echoed, never trusted.
 */
export async function verifyReceiptFile(file: ReceiptFile): Promise<ReceiptVerdict> {
  const isSigned = verifyReceipt({
    attemptId: file.attemptId,
    submittedAt: file.submittedAt,
    digest: file.digest,
    receipt: file.receipt,
  });
  const [attempt] = await queryRows<AttemptRow>(sql`
    SELECT a.exam_id::text AS exam_id, e.title, en.name, en.email
    FROM attempts a JOIN exams e ON e.id = a.exam_id JOIN enrollments en ON en.id = a.enrollment_id
    WHERE a.id = ${file.attemptId}::uuid`);

  const verdict = (reason: ReceiptInvalidReason | null, submission: SubmissionRow | null, matches: boolean | null) => ({
    valid: reason === null,
    reason,
    attemptId: file.attemptId,
    examId: attempt?.exam_id ?? null,
    examTitle: attempt?.title ?? null,
    candidateName: attempt?.name ?? null,
    candidateEmail: attempt?.email ?? null,
    submissionId: submission?.id ?? null,
    submittedAt: file.submittedAt,
    version: submission?.version ?? null,
    current: submission ? submission.superseded_at === null : null,
    supersededAt: submission?.superseded_at?.toISOString() ?? null,
    digestMatchesPaper: matches,
    claimed: {
      examTitle: file.examTitle ?? null,
      candidateName: file.candidateName ?? null,
      submissionId: file.submissionId ?? null,
      source: file.source ?? null,
      digest: file.digest,
    },
  });

  if (!isSigned) return verdict("signature", null, null);
  if (!attempt) return verdict("unknown_attempt", null, null);

  // Signed by this server, so submittedAt is the ISO instant the freeze wrote (millisecond precision, as stored).
  const [submission] = await queryRows<SubmissionRow>(sql`
    SELECT id::text AS id, version, digest, NULL::timestamptz AS superseded_at, NULL::jsonb AS paper
    FROM submissions
    WHERE attempt_id = ${file.attemptId}::uuid AND submitted_at = ${file.submittedAt}::timestamptz
      AND digest = ${file.digest}
    UNION ALL
    SELECT id::text, version, digest, superseded_at, paper
    FROM submission_history
    WHERE attempt_id = ${file.attemptId}::uuid AND submitted_at = ${file.submittedAt}::timestamptz
      AND digest = ${file.digest}
    ORDER BY version DESC
    LIMIT 1`);
  if (!submission) return verdict("unknown_submission", null, null);

  const paper =
    submission.superseded_at === null
      ? await queryRows<{ question_id: string; value: AnswerValue }>(sql`
          SELECT question_id::text AS question_id, value FROM answers WHERE attempt_id = ${file.attemptId}::uuid`)
      : Object.entries(submission.paper ?? {}).map(([question_id, value]) => ({ question_id, value }));
  const digest = await answersDigest(paper.map((row) => ({ questionId: row.question_id, value: row.value })));
  return verdict(null, submission, digest === submission.digest);
}
