import "server-only";

import { randomUUID } from "node:crypto";

import { answersDigest } from "@/lib/shared/digest";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { SubmitResponse } from "@/lib/shared/schemas/sync";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { Prisma } from "../db/client";
import { fileStatement } from "../db/statement-files";
import { SYSTEM_ACTOR } from "../results/recompute-results";
import { enqueueResultJobs } from "../results/result-jobs";
import { enqueueSubmissionCreated } from "../webhooks/enqueue-deliveries";
import { signReceipt } from "./receipt";

type Tx = Prisma.TransactionClient;

export type FreezeOptions = {
  attemptId: string;
  source: SubmitResponse["source"];
  idempotencyKey?: string;
  requestHash?: string;
  clientDigest?: string;
  actor?: { type: "candidate" | "staff"; id: string } | { type: "system" } | { type: "api-token" };
};

/**
 * The answer to a submit, as stored with the submission and replayed byte for byte: the same for every way a
 * submission is made (the locked freeze here, the one-statement submit).
 */
export function submitResponse(options: {
  submissionId: string;
  attemptId: string;
  submittedAt: Date;
  source: SubmitResponse["source"];
  digest: string;
  clientDigest: string | null;
  deadline: Date;
}): SubmitResponse {
  const { submissionId, attemptId, submittedAt, digest, clientDigest } = options;
  return {
    submissionId,
    attemptId,
    submittedAt: submittedAt.toISOString(),
    source: options.source,
    digest,
    clientDigest,
    digestMatches: clientDigest === null ? null : clientDigest === digest,
    receipt: signReceipt({ attemptId, submittedAt, digest }),
    serverTime: submittedAt.toISOString(),
    deadline: options.deadline.toISOString(),
  };
}

/**
 * Freezes an attempt and creates its one current submission. Called only through with-locked-attempt.ts
 * (`LockedAttempt.freeze`, and the auto-submit of an overdue attempt), so the attempt row is always held
 * FOR UPDATE. The conditional transition `in_progress -> submitted` (lib/server/db/statements/
 * freeze-attempt.sql) decides who freezes; the unique
 * constraint on submissions.attempt_id is the backstop. Returns null when the attempt was already frozen
 * (by another device, a proctor, or the deadline).
 *
 * The submission's version is 1, or for a reopened attempt the highest version in submission_history + 1
 * (ADR 017): read by the freeze statement itself, under the row lock, so every source numbers alike.
 */
export async function freezeAttempt(tx: Tx, options: FreezeOptions): Promise<SubmitResponse | null> {
  const freeze = fileStatement("freeze-attempt", { attemptId: options.attemptId });
  const frozen = await tx.$queryRawUnsafe<{ deadline: Date; version: number }[]>(freeze.text, ...freeze.values);
  if (!frozen[0]) return null;
  const { deadline, version } = frozen[0];

  const answers = await tx.answer.findMany({
    where: { attemptId: options.attemptId },
    select: { questionId: true, value: true },
  });
  const digest = await answersDigest(
    answers.map((answer) => ({ questionId: answer.questionId, value: answer.value as AnswerValue })),
  );
  const submissionId = randomUUID();
  const submittedAt = new Date();
  const clientDigest = options.clientDigest ?? null;
  const response = submitResponse({
    submissionId,
    attemptId: options.attemptId,
    submittedAt,
    source: options.source,
    digest,
    clientDigest,
    deadline,
  });

  await tx.submission.create({
    data: {
      id: submissionId,
      attemptId: options.attemptId,
      idempotencyKey: options.idempotencyKey ?? null,
      requestHash: options.requestHash ?? null,
      digest,
      clientDigest,
      receipt: response.receipt,
      source: options.source,
      submittedAt,
      response: JSON.stringify(response),
      version,
    },
  });
  // Scored by the results worker, not here: a submit (and a deadline storm of them) waits for one insert only.
  await enqueueResultJobs(tx, {
    attemptIds: [options.attemptId],
    cause: "submitted",
    actor: SYSTEM_ACTOR,
  });
  // The outbox (ADR 018): one INSERT … SELECT, a row per enabled endpoint that asked for submission.created.
  await enqueueSubmissionCreated(tx, submissionId);
  await recordAuditEvent(
    {
      actor: options.actor ?? { type: "system" },
      action: "attempt.submitted",
      attemptId: options.attemptId,
      data: {
        submissionId,
        version,
        source: options.source,
        answers: answers.length,
        digestMatches: response.digestMatches,
      },
    },
    tx,
  );
  return response;
}
