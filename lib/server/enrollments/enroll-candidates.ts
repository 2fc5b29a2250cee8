import "server-only";

import { randomUUID } from "node:crypto";

import type { EnrollCandidatesInput } from "@/lib/shared/schemas/enrollments";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { db } from "../db/client";
import { lockExamForKeyShare } from "../exams/lock-exam-for-key-share";
import { deriveJoinToken, hashJoinToken, joinUrl } from "./join-token";

export type EnrolledCandidate = {
  id: string;
  name: string;
  email: string;
  extraSeconds: number;
  joinToken: string;
  joinUrl: string;
};

/**
 * Enrolls candidates in one statement. Enrolling an email that is already enrolled is idempotent: the
 * existing enrollment (and the same join link) is returned, with its name and extra time updated to
 * the new values. The response has one entry per input entry, in input order; an email repeated within
 * the request resolves to the same enrollment, and the last entry for it decides name and extra time.
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

  const byEmail = new Map<string, { name: string; extraSeconds: number }>();
  for (const candidate of input.candidates)
    byEmail.set(candidate.email, { name: candidate.name, extraSeconds: candidate.extraSeconds });

  const ids: string[] = [];
  const emails: string[] = [];
  const names: string[] = [];
  const extras: number[] = [];
  const hashes: string[] = [];
  for (const [email, candidate] of byEmail) {
    const id = randomUUID();
    ids.push(id);
    emails.push(email);
    names.push(candidate.name);
    extras.push(candidate.extraSeconds);
    hashes.push(hashJoinToken(deriveJoinToken(id, 1)));
  }

  const rows = await db.$transaction(async (tx) => {
    await lockExamForKeyShare(tx, examId);
    // One statement for the whole roster; ON CONFLICT keeps the existing id (and so the same join link).
    const result = await tx.$queryRaw<
      { id: string; email: string; name: string; extra_seconds: number; token_generation: number }[]
    >`
      INSERT INTO enrollments (id, exam_id, name, email, join_token_hash, extra_seconds)
      SELECT input.id, ${examId}::uuid, input.name, input.email, input.hash, input.extra
      FROM unnest(${ids}::uuid[], ${names}::text[], ${emails}::text[], ${hashes}::text[], ${extras}::int[])
        AS input(id, name, email, hash, extra)
      ORDER BY input.email COLLATE "C"
      ON CONFLICT (exam_id, email) DO UPDATE SET name = EXCLUDED.name, extra_seconds = EXCLUDED.extra_seconds
      RETURNING id::text AS id, email, name, extra_seconds, token_generation`;
    await recordAuditEvent({ actor, action: "candidates.enrolled", examId, data: { count: result.length } }, tx);
    return result;
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
      extraSeconds: row.extra_seconds,
      joinToken: token,
      joinUrl: joinUrl(token),
    };
  });
}
