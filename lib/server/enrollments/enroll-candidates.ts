import "server-only";

import { randomUUID } from "node:crypto";

import { AppError } from "@/lib/shared/errors";
import type { EnrollCandidatesInput } from "@/lib/shared/schemas/enrollments";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { lockExamForKeyShare } from "../exams/lock-exam-for-key-share";
import { deriveJoinToken, hashJoinToken, joinUrl } from "./join-token";

export type EnrolledCandidate = {
  id: string;
  name: string;
  email: string;
  externalId: string | null;
  extraSeconds: number;
  joinToken: string;
  joinUrl: string;
};

/**
 * Enrolls candidates in one statement. Enrolling an email that is already enrolled is idempotent: the
 * existing enrollment (and the same join link) is returned, with its name and extra time updated to
 * the new values (and its student number to the new one, when one is given). The response has one entry per input
 * entry, in input order; an email repeated within the request resolves to the same enrollment, and the last entry
 * for it decides name, extra time and student number.
 *
 * A student number (`externalId`) is unique within the exam: one given to two emails of the request is 422, one
 * another candidate already has is 409 EXTERNAL_ID_TAKEN, and nothing is enrolled. Two requests racing for one
 * number: the unique index decides, and the loser is the same 409.
 *
 * Locks in the lock order (docs/sync-protocol.md, "Lock order"): the exam FOR KEY SHARE first, then the
 * enrollment rows in email order. Taking the exam's lock only at the end (the foreign key's check) while
 * holding enrollment rows deadlocked with deleting the exam, and rows in input order with another import.
 */
export async function enrollCandidates(options: {
  examId: string;
  input: EnrollCandidatesInput;
  actor: AuditActor;
}): Promise<EnrolledCandidate[]> {
  const { examId, input, actor } = options;

  const byEmail = new Map<string, { name: string; extraSeconds: number; externalId: string | null }>();
  for (const candidate of input.candidates)
    byEmail.set(candidate.email, {
      name: candidate.name,
      extraSeconds: candidate.extraSeconds,
      externalId: candidate.externalId ?? null,
    });
  const emailOfExternalId = new Map<string, string>();
  const issues: { path: string; message: string }[] = [];
  input.candidates.forEach((candidate, index) => {
    if (candidate.externalId === undefined) return;
    const first = emailOfExternalId.get(candidate.externalId);
    if (first === undefined) emailOfExternalId.set(candidate.externalId, candidate.email);
    else if (first !== candidate.email)
      issues.push({ path: `candidates.${index}.externalId`, message: "is given to another email in this request" });
  });
  if (issues.length > 0)
    throw new AppError(
      "VALIDATION_FAILED",
      `Invalid candidates: ${issues[0]!.path} ${issues[0]!.message}. Nothing was enrolled.`,
      { details: { issues } },
    );

  const ids: string[] = [];
  const emails: string[] = [];
  const names: string[] = [];
  const extras: number[] = [];
  const externalIds: (string | null)[] = [];
  const hashes: string[] = [];
  for (const [email, candidate] of byEmail) {
    const id = randomUUID();
    ids.push(id);
    emails.push(email);
    names.push(candidate.name);
    extras.push(candidate.extraSeconds);
    externalIds.push(candidate.externalId);
    hashes.push(hashJoinToken(deriveJoinToken(id, 1)));
  }

  const given = [...emailOfExternalId.keys()];
  const rows = await db
    .$transaction(async (tx) => {
      await lockExamForKeyShare(tx, examId);
      // Student numbers another candidate (another email) of the exam has: said by name, nothing written.
      if (given.length > 0) {
        const taken = await tx.$queryRaw<{ email: string; external_id: string }[]>`
          SELECT email, external_id FROM enrollments
          WHERE exam_id = ${examId}::uuid AND external_id = ANY(${given}::text[])`;
        const clashes = taken.filter((row) => emailOfExternalId.get(row.external_id) !== row.email);
        if (clashes.length > 0) throw externalIdTaken(clashes.map((row) => row.external_id));
      }
      // One statement for the whole roster; ON CONFLICT keeps the existing id (and so the same join link).
      const result = await tx.$queryRaw<
        {
          id: string;
          email: string;
          name: string;
          external_id: string | null;
          extra_seconds: number;
          token_generation: number;
        }[]
      >`
        INSERT INTO enrollments (id, exam_id, name, email, external_id, join_token_hash, extra_seconds)
        SELECT input.id, ${examId}::uuid, input.name, input.email, input.external_id, input.hash, input.extra
        FROM unnest(${ids}::uuid[], ${names}::text[], ${emails}::text[], ${externalIds}::text[], ${hashes}::text[],
                    ${extras}::int[])
          AS input(id, name, email, external_id, hash, extra)
        ORDER BY input.email COLLATE "C"
        ON CONFLICT (exam_id, email) DO UPDATE SET name = EXCLUDED.name, extra_seconds = EXCLUDED.extra_seconds,
          external_id = coalesce(EXCLUDED.external_id, enrollments.external_id)
        RETURNING id::text AS id, email, name, external_id, extra_seconds, token_generation`;
      await recordAuditEvent({ actor, action: "candidates.enrolled", examId, data: { count: result.length } }, tx);
      return result;
    })
    .catch((error: unknown) => {
      // Another request took one of these numbers between the check and the insert: the unique index decided.
      if (isUniqueViolation(error) && String(error).includes("external_id")) throw externalIdTaken(given);
      throw error;
    });

  const byEmailRow = new Map(rows.map((row) => [row.email, row]));
  return input.candidates.map((candidate) => {
    const row = byEmailRow.get(candidate.email);
    if (!row) throw new Error(`enrollment for ${candidate.email} missing after insert`);
    const token = deriveJoinToken(row.id, row.token_generation);
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      externalId: row.external_id,
      extraSeconds: row.extra_seconds,
      joinToken: token,
      joinUrl: joinUrl(token),
    };
  });
}

function externalIdTaken(externalIds: string[]): AppError {
  return new AppError(
    "EXTERNAL_ID_TAKEN",
    `Another candidate of this exam already has the student number ${externalIds.map((id) => `"${id}"`).join(", ")}. Nothing was enrolled.`,
    { details: { externalIds } },
  );
}
