import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { LateAnswerDecisionInput, LateAnswerReview } from "@/lib/shared/schemas/results";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { actorLabel } from "../proctor/find-candidate-for-staff";
import { recomputeResults } from "./recompute-results";

type ReviewRow = {
  id: string;
  attempt_id: string;
  name: string;
  email: string;
  question_id: string;
  position: number;
  value: unknown;
  frozen_value: unknown;
  version: number;
  device_id: string;
  via: string;
  received_at: Date;
  client_edited_at: Date | null;
  deadline: Date;
  submitted_at: Date | null;
  decision: "accepted" | "rejected" | null;
  reason: string | null;
  decided_by: string | null;
  decided_at: Date | null;
};

/**
 * Every late answer of an exam as staff review it (docs/results.md, "Late answers"): beside what the frozen paper
 * holds for that question, with the server's times (the deadline, the submission, when it arrived) and the device,
 * oldest first, with any decision taken. Null for an unknown exam.
 */
export async function listLateAnswers(examId: string): Promise<LateAnswerReview[] | null> {
  const [exam] = await queryRows<{ id: string }>(sql`SELECT id::text AS id FROM exams WHERE id = ${examId}::uuid`);
  if (!exam) return null;
  return readLateAnswers(examId, null);
}

/** The exam's late answers as reviewed, or only `lateAnswerId` (the decision's answer reads that one row). */
async function readLateAnswers(examId: string, lateAnswerId: string | null): Promise<LateAnswerReview[]> {
  const rows = await queryRows<ReviewRow>(
    sql`SELECT l.id::text AS id, l.attempt_id::text AS attempt_id, en.name, en.email, l.question_id::text AS question_id,
               q.position, l.value, ans.value AS frozen_value, l.version, l.device_id, l.via, l.received_at,
               l.client_edited_at, a.deadline, s.submitted_at, d.decision, d.reason, d.actor_label AS decided_by,
               d.decided_at
        FROM late_answers l
        JOIN attempts a ON a.id = l.attempt_id
        JOIN enrollments en ON en.id = a.enrollment_id
        JOIN questions q ON q.id = l.question_id
        LEFT JOIN answers ans ON ans.attempt_id = l.attempt_id AND ans.question_id = l.question_id
        LEFT JOIN submissions s ON s.attempt_id = a.id
        LEFT JOIN late_answer_decisions d ON d.late_answer_id = l.id
        WHERE a.exam_id = ${examId}::uuid AND (${lateAnswerId}::uuid IS NULL OR l.id = ${lateAnswerId}::uuid)
        ORDER BY l.received_at, l.id`,
  );
  return rows.map((row) => ({
    id: row.id,
    attemptId: row.attempt_id,
    candidateName: row.name,
    candidateEmail: row.email,
    questionId: row.question_id,
    position: row.position,
    value: row.value,
    frozenValue: row.frozen_value ?? null,
    version: row.version,
    deviceId: row.device_id,
    via: row.via,
    receivedAt: row.received_at.toISOString(),
    clientEditedAt: row.client_edited_at?.toISOString() ?? null,
    deadline: row.deadline.toISOString(),
    submittedAt: row.submitted_at?.toISOString() ?? null,
    decision:
      row.decision === null
        ? null
        : {
            decision: row.decision,
            reason: row.reason ?? "",
            by: row.decided_by ?? "",
            at: row.decided_at!.toISOString(),
          },
  }));
}

/**
 * Accepts a late answer into the result, or rejects it with a reason (docs/results.md, "Late answers"). One
 * decision per late answer: a second one is 409 LATE_ANSWER_DECIDED with the first, and writes nothing. Accepting
 * never touches the frozen paper or its digest: the result is computed again with the late value in place of the
 * frozen one and gets a new version naming the decision; both are audited in the same transaction.
 */
export async function decideLateAnswer(options: {
  examId: string;
  lateAnswerId: string;
  input: LateAnswerDecisionInput;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<LateAnswerReview> {
  const { examId, lateAnswerId, input, caller } = options;
  const label = actorLabel(caller);
  const staffUserId = caller.kind === "staff" ? caller.userId : null;
  await db.$transaction(async (tx) => {
    const [late] = await queryRows<{ attempt_id: string; enrollment_id: string; position: number }>(
      sql`SELECT l.attempt_id::text AS attempt_id, a.enrollment_id::text AS enrollment_id, q.position
          FROM late_answers l JOIN attempts a ON a.id = l.attempt_id JOIN questions q ON q.id = l.question_id
          WHERE l.id = ${lateAnswerId}::uuid AND a.exam_id = ${examId}::uuid`,
      tx,
    );
    if (!late) throw new AppError("NOT_FOUND", "No such late answer in this exam.");
    const inserted = await queryRows<{ late_answer_id: string }>(
      sql`INSERT INTO late_answer_decisions (late_answer_id, attempt_id, decision, reason, staff_user_id, actor_label)
          VALUES (${lateAnswerId}::uuid, ${late.attempt_id}::uuid, ${input.decision}, ${input.reason},
                  ${staffUserId}::uuid, ${label})
          ON CONFLICT (late_answer_id) DO NOTHING
          RETURNING late_answer_id::text AS late_answer_id`,
      tx,
    );
    if (inserted.length === 0) {
      const [current] = await readLateAnswers(examId, lateAnswerId);
      throw new AppError("LATE_ANSWER_DECIDED", "This late answer was already decided; nothing was changed.", {
        details: { decision: current?.decision ?? null },
      });
    }
    await recomputeResults(tx, {
      examId,
      attemptIds: [late.attempt_id],
      cause: input.decision === "accepted" ? "late_answer_accepted" : "late_answer_rejected",
      actor: staffUserId ? { type: "staff", staffUserId, label } : { type: "api-token", label },
      reason: input.reason,
    });
    await recordAuditEvent(
      {
        actor: actorOf(caller),
        action: input.decision === "accepted" ? "late_answer.accepted" : "late_answer.rejected",
        examId,
        enrollmentId: late.enrollment_id,
        attemptId: late.attempt_id,
        data: { lateAnswerId, position: late.position, reason: input.reason },
      },
      tx,
    );
  });
  const [review] = await readLateAnswers(examId, lateAnswerId);
  if (!review) throw new AppError("NOT_FOUND", "No such late answer in this exam.");
  return review;
}
