import "server-only";

import { randomUUID } from "node:crypto";

import { answersDigest } from "@/lib/shared/digest";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { SubmitResponse } from "@/lib/shared/schemas/sync";

import type { AuditActor } from "../auth/actor";
import type { Prisma } from "../db/client";
import { queryRows } from "../db/sql";
import { fileStatement } from "../db/statement-files";
import { uuidv7 } from "../db/uuid7";
import { SYSTEM_ACTOR } from "../results/recompute-results";
import { signReceipt } from "./receipt";

type Tx = Prisma.TransactionClient;

export type FreezeOptions = {
  attemptId: string;
  source: SubmitResponse["source"];
  idempotencyKey?: string;
  requestHash?: string;
  clientDigest?: string;
  actor?: AuditActor;
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
 * Everything a submission writes besides the transition, as the values of lib/server/db/statements/freeze.sql's
 * parameters, with the response they sign: built here for every way an attempt is submitted (the one-statement
 * submit and every freeze under the row lock), so the two statements that include freeze.sql bind it alike.
 */
export function submissionWrites(options: {
  attemptId: string;
  source: SubmitResponse["source"];
  actor: AuditActor;
  /** The frozen paper's digest and its number of answers. */
  digest: string;
  answerCount: number;
  deadline: Date;
  idempotencyKey?: string;
  requestHash?: string;
  clientDigest?: string;
}): { response: SubmitResponse; text: string; values: Record<string, unknown> } {
  const submissionId = randomUUID();
  const submittedAt = new Date();
  const clientDigest = options.clientDigest ?? null;
  const response = submitResponse({
    submissionId,
    attemptId: options.attemptId,
    submittedAt,
    source: options.source,
    digest: options.digest,
    clientDigest,
    deadline: options.deadline,
  });
  // Written once: the submission stores this text, and the submit that made it answers with it.
  const text = JSON.stringify(response);
  return {
    response,
    text,
    values: {
      submissionId,
      idempotencyKey: options.idempotencyKey ?? null,
      requestHash: options.requestHash ?? null,
      digest: options.digest,
      clientDigest,
      receipt: response.receipt,
      source: options.source,
      submittedAt,
      response: text,
      actorLabel: SYSTEM_ACTOR.label,
      auditId: uuidv7(submittedAt.getTime()),
      actorType: options.actor.type,
      actorId: "id" in options.actor ? options.actor.id : null,
      answerCount: options.answerCount,
      digestMatches: response.digestMatches,
    },
  };
}

/**
 * Freezes an attempt and creates its one current submission, with everything a submission writes. Called only
 * through with-locked-attempt.ts (`LockedAttempt.freeze`, and the auto-submit of an overdue attempt), so the
 * attempt row is always held FOR UPDATE. Returns null when the attempt was already frozen (by another device, a
 * proctor, or the deadline).
 *
 * 1. Read the paper and the deadline under the row lock (nothing changes them until commit) and digest it.
 * 2. One statement (lib/server/db/statements/freeze-attempt.sql, around freeze.sql, the freeze every path
 *    shares): the conditional transition `in_progress -> submitted` decides who freezes, and only then are the
 *    submission, its result job, its outbox rows and its audit entry written (ADR 025).
 */
export async function freezeAttempt(tx: Tx, options: FreezeOptions): Promise<SubmitResponse | null> {
  // 1.
  const attempt = await tx.attempt.findUniqueOrThrow({
    where: { id: options.attemptId },
    select: { deadline: true, answers: { select: { questionId: true, value: true } } },
  });
  const digest = await answersDigest(
    attempt.answers.map((answer) => ({ questionId: answer.questionId, value: answer.value as AnswerValue })),
  );
  const writes = submissionWrites({
    attemptId: options.attemptId,
    source: options.source,
    actor: options.actor ?? { type: "system" },
    digest,
    answerCount: attempt.answers.length,
    deadline: attempt.deadline,
    idempotencyKey: options.idempotencyKey,
    requestHash: options.requestHash,
    clientDigest: options.clientDigest,
  });

  // 2.
  const rows = await queryRows<{ created: number }>(
    fileStatement("freeze-attempt", { attemptId: options.attemptId, ...writes.values }),
    tx,
  );
  return rows[0]?.created === 1 ? writes.response : null;
}
