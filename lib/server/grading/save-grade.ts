import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { GradeView, SaveGradeInput } from "@/lib/shared/schemas/grading";
import { pointsToUnits, unitsToPoints } from "@/lib/shared/scoring/score-units";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { lockExamForKeyShare } from "../exams/lock-exam-for-key-share";
import { actorLabel } from "../proctor/find-candidate-for-staff";
import { recomputeResults, type ResultActor } from "../results/recompute-results";

type GradeRow = { units: string; comment: string; actor_label: string; revision: number; updated_at: Date };

function view(row: GradeRow): GradeView {
  return {
    points: unitsToPoints(Number(row.units)),
    comment: row.comment,
    by: row.actor_label,
    revision: row.revision,
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * `PUT /api/admin/exams/{examId}/grading/{questionId}/{attemptId}`: a person's mark on one answer, and the
 * result's new version, in one transaction (docs/results.md, "Grading").
 *
 * 1. The paper must be a submitted attempt of this exam and the question one of its questions (else 404); the
 *    points at most the question's (422).
 * 2. Revision check, in the statement that writes: `revision: 0` inserts (ON CONFLICT DO NOTHING), `revision: n`
 *    updates WHERE revision = n. Of two graders saving on the same revision exactly one writes; the other gets
 *    409 GRADE_CONFLICT with the mark that is there now, and nothing of theirs was written.
 * 3. The result is computed again (recompute-results.ts, cause "graded", or "settled" for an admin's final mark)
 *    and the change audited, in the same transaction.
 */
export async function saveGrade(options: {
  examId: string;
  questionId: string;
  attemptId: string;
  input: SaveGradeInput;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<{ grade: GradeView; marker: SaveGradeInput["marker"] }> {
  const { examId, questionId, attemptId, input, caller } = options;
  const label = actorLabel(caller);
  const staffUserId = caller.kind === "staff" ? caller.userId : null;
  const resultActor: ResultActor = staffUserId ? { type: "staff", staffUserId, label } : { type: "api-token", label };

  return db.$transaction(async (tx) => {
    // The exam first (the lock order): an edit turning double marking on or off (update-exam.ts, FOR UPDATE)
    // then either sees this mark or runs before it, so the result below is computed under the rule that stands.
    await lockExamForKeyShare(tx, examId);
    // 1.
    const [target] = await queryRows<{ points: number; position: number; enrollment_id: string }>(
      sql`SELECT q.points, q.position, a.enrollment_id::text AS enrollment_id
          FROM attempts a JOIN questions q ON q.exam_id = a.exam_id
          WHERE a.id = ${attemptId}::uuid AND a.exam_id = ${examId}::uuid AND a.status = 'submitted'
            AND q.id = ${questionId}::uuid`,
      tx,
    );
    if (!target) throw new AppError("NOT_FOUND", "No such submitted paper or question in this exam.");
    // Settling is an admin's (the issue: "an admin settles them"), and double marking means two people: one
    // staff member cannot give both the first and the second mark of an answer. The API token (an integration)
    // is not a person and is exempt.
    if (input.marker === "final" && caller.kind === "staff" && caller.role !== "admin") {
      throw new AppError("FORBIDDEN", "Only an admin settles a disagreement between markers.");
    }
    if (input.marker !== "final" && staffUserId) {
      // Saves of one answer's marks run one after the other from here: the same person saving the first and the
      // second mark at once would otherwise both pass the check below (neither sees the other's row).
      await queryRows(
        sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`holdfast:grade:${attemptId}:${questionId}`}, 0))`,
        tx,
      );
      const other = input.marker === "first" ? "second" : "first";
      const [own] = await queryRows<{ one: number }>(
        sql`SELECT 1 AS one FROM grades WHERE attempt_id = ${attemptId}::uuid AND question_id = ${questionId}::uuid
              AND marker = ${other} AND staff_user_id = ${staffUserId}::uuid`,
        tx,
      );
      if (own) {
        throw new AppError(
          "SAME_MARKER",
          `You gave this answer's ${other} mark: the ${input.marker} mark must come from someone else.`,
        );
      }
    }
    const units = pointsToUnits(input.points);
    if (units > pointsToUnits(target.points)) {
      throw new AppError("VALIDATION_FAILED", `At most ${target.points} points can be given for this question.`, {
        details: { issues: [{ path: "points", message: `must be at most ${target.points}` }], max: target.points },
      });
    }

    // 2.
    const written =
      input.revision === 0
        ? await queryRows<GradeRow>(
            sql`INSERT INTO grades (id, attempt_id, question_id, marker, units, comment, staff_user_id, actor_label)
                VALUES (gen_random_uuid(), ${attemptId}::uuid, ${questionId}::uuid, ${input.marker}, ${String(units)}::bigint,
                        ${input.comment}, ${staffUserId}::uuid, ${label})
                ON CONFLICT (attempt_id, question_id, marker) DO NOTHING
                RETURNING units::text AS units, comment, actor_label, revision, updated_at`,
            tx,
          )
        : await queryRows<GradeRow>(
            sql`UPDATE grades SET units = ${String(units)}::bigint, comment = ${input.comment},
                       staff_user_id = ${staffUserId}::uuid, actor_label = ${label}, revision = revision + 1,
                       updated_at = clock_timestamp()
                WHERE attempt_id = ${attemptId}::uuid AND question_id = ${questionId}::uuid
                  AND marker = ${input.marker} AND revision = ${input.revision}
                RETURNING units::text AS units, comment, actor_label, revision, updated_at`,
            tx,
          );
    const grade = written[0];
    if (!grade) {
      const [current] = await queryRows<GradeRow>(
        sql`SELECT units::text AS units, comment, actor_label, revision, updated_at FROM grades
            WHERE attempt_id = ${attemptId}::uuid AND question_id = ${questionId}::uuid AND marker = ${input.marker}`,
        tx,
      );
      throw new AppError(
        "GRADE_CONFLICT",
        "Someone else marked this answer while you were marking it. Nothing of yours was saved.",
        { details: { current: current ? view(current) : null } },
      );
    }

    // 3.
    await recomputeResults(tx, {
      examId,
      attemptIds: [attemptId],
      cause: input.marker === "final" ? "settled" : "graded",
      actor: resultActor,
    });
    await recordAuditEvent(
      {
        actor: actorOf(caller),
        action: "grade.saved",
        examId,
        enrollmentId: target.enrollment_id,
        attemptId,
        data: { questionId, position: target.position, marker: input.marker, points: input.points },
      },
      tx,
    );
    return { grade: view(grade), marker: input.marker };
  });
}
