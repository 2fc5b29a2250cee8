import "server-only";

import { z } from "zod";

import { AppError, validationError } from "@/lib/shared/errors";
import { publishProblems, transitionRefusal } from "@/lib/shared/exam-lifecycle";
import type { AdminExam, AdminQuestion, PatchExamInput } from "@/lib/shared/schemas/exams";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { actorOf } from "../auth/actor";
import { db, type Prisma } from "../db/client";
import { actorLabel } from "../proctor/find-candidate-for-staff";
import { enqueueResultJobs } from "../results/result-jobs";
import { findAdminExam } from "./find-admin-exam";
import { questionData, type QuestionData } from "./question-data";
import { jsonOrNull, storedQuestion } from "./stored-question";

type Tx = Prisma.TransactionClient;

/** Thrown inside the transaction when the revision moved; the 409 is built after the rollback. */
class RevisionMoved extends Error {}

/** Why a question list cannot be applied once attempts exist (QUESTIONS_LOCKED `details.problems`). */
export type LockedProblem =
  | { code: "QUESTION_ADDED"; position: number }
  | { code: "QUESTION_REMOVED"; questionId: string; position: number }
  | { code: "QUESTIONS_REORDERED" }
  | { code: "TYPE_CHANGED"; questionId: string; position: number }
  | { code: "OPTIONS_CHANGED"; questionId: string; position: number }
  | { code: "SHUFFLE_CHANGED" };

type Planned = { id: string | null; data: QuestionData };

/** One corrected field of one question, as exam_edits stores it. */
type FieldEdit = { questionId: string; field: string; before: unknown; after: unknown };

/** Corrections that change how answers score (the others, prompt, option texts and rubric, do not). */
const SCORING_FIELDS = new Set(["answerKey", "tolerance", "points", "scoring", "exactMatch", "ungraded"]);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The structural changes `next` would make to `current` (which already has attempts): none may happen, since
 * candidates' answers are keyed by question and option ids and their papers were built from this structure.
 */
function lockedProblems(current: AdminQuestion[], next: Planned[]): LockedProblem[] {
  const problems: LockedProblem[] = [];
  const nextIds = new Set(next.map((q) => q.id));
  for (const question of current) {
    if (!nextIds.has(question.id)) {
      problems.push({ code: "QUESTION_REMOVED", questionId: question.id, position: question.position });
    }
  }
  next.forEach((question, index) => {
    if (question.id === null) problems.push({ code: "QUESTION_ADDED", position: index + 1 });
  });
  const kept = next.filter((q) => q.id !== null).map((q) => q.id);
  const keptBefore = current.filter((q) => nextIds.has(q.id)).map((q) => q.id);
  if (!same(kept, keptBefore)) problems.push({ code: "QUESTIONS_REORDERED" });
  for (const question of next) {
    const before = current.find((q) => q.id === question.id);
    if (!before) continue;
    if (before.type !== question.data.type) {
      problems.push({ code: "TYPE_CHANGED", questionId: before.id, position: before.position });
    } else if (
      !same(
        before.options.map((o) => o.id),
        question.data.options.map((o) => o.id),
      )
    ) {
      problems.push({ code: "OPTIONS_CHANGED", questionId: before.id, position: before.position });
    }
  }
  return problems;
}

/** Every corrected field of a question whose structure is unchanged, for exam_edits. */
function fieldEdits(before: AdminQuestion, after: QuestionData): FieldEdit[] {
  const edits: FieldEdit[] = [];
  const push = (field: string, a: unknown, b: unknown) => {
    if (!same(a, b)) edits.push({ questionId: before.id, field, before: a, after: b });
  };
  push("prompt", before.prompt, after.prompt);
  before.options.forEach((option, index) =>
    push(`options.${option.id}.label`, option.label, after.options[index]?.label),
  );
  push("answerKey", before.answerKey, after.answerKey);
  push("tolerance", before.tolerance, after.tolerance);
  push("points", before.points, after.points);
  push("scoring", before.scoring, after.scoring);
  push("exactMatch", before.exactMatch, after.exactMatch);
  push("ungraded", before.ungraded, after.ungraded);
  push("rubric", before.rubric, after.rubric);
  return edits;
}

/** The instant a PATCH field names: undefined keeps the stored one, null clears it. */
function instant(value: string | null | undefined, stored: string | null): Date | null {
  if (value === undefined) return stored === null ? null : new Date(stored);
  return value === null ? null : new Date(value);
}

/**
 * Writes the new question list of an exam without attempts: removed questions go, kept ones are moved out of
 * the way first (positions are unique per exam) and then to their new place, new ones are created.
 */
async function replaceQuestions(tx: Tx, examId: string, planned: Planned[]): Promise<void> {
  const keptIds = planned.flatMap((q) => (q.id === null ? [] : [q.id]));
  await tx.question.deleteMany({ where: { examId, id: { notIn: keptIds } } });
  await tx.$executeRaw`UPDATE questions SET position = position + 1000000 WHERE exam_id = ${examId}::uuid`;
  for (const [index, question] of planned.entries()) {
    const data = { position: index + 1, ...storedQuestion(question.data) };
    if (question.id === null) await tx.question.create({ data: { examId, ...data } });
    else await tx.question.update({ where: { id: question.id }, data });
  }
}

/**
 * `PATCH /api/admin/exams/{examId}`: applies a partial change, settled against concurrent edits by the
 * exam's revision.
 *
 * 1. `UPDATE exams SET revision = revision + 1 WHERE id = $1 AND revision = $based_on`: one statement, so of
 *    two edits based on the same revision exactly one matches; the other waits for the row lock, re-reads the
 *    row, matches nothing and becomes 409 EDIT_CONFLICT with the winner's exam. Nothing else is written.
 * 2. `SELECT … FOR UPDATE` on the exam: a candidate's start takes a key-share lock on the exam row before
 *    it inserts the attempt (start-attempt.ts) and holds it until it commits, so this waits for it and the
 *    attempt count below is exact. The exam is the first lock of the lock order (docs/sync-protocol.md).
 * 3. The merged exam is checked: the window, the question ids, the structure once attempts exist
 *    (QUESTIONS_LOCKED), the status transition (STATUS_TRANSITION_REFUSED) and, when publishing, everything
 *    publishing needs (PUBLISH_CHECK_FAILED). Any refusal rolls back step 1 too.
 * 4. The fields and questions are written; each correction made after attempts existed becomes an exam_edits
 *    row, and the whole change one audit event.
 */
export async function updateExam(options: {
  examId: string;
  input: PatchExamInput;
  caller: StaffPrincipal | ApiTokenPrincipal;
  now?: Date;
}): Promise<AdminExam> {
  const { examId, input, caller } = options;
  const now = options.now ?? new Date();
  try {
    return await db.$transaction(async (tx) => {
      // 1.
      const bumped = await tx.$executeRaw`
        UPDATE exams SET revision = revision + 1, updated_at = now()
        WHERE id = ${examId}::uuid AND revision = ${input.revision}`;
      if (bumped === 0) throw new RevisionMoved();
      // 2.
      await tx.$queryRaw`SELECT id FROM exams WHERE id = ${examId}::uuid FOR UPDATE`;
      const current = await findAdminExam({ examId, client: tx });
      if (!current) throw new RevisionMoved();

      // 3.
      const opensAt = instant(input.opensAt, current.opensAt);
      const closesAt = instant(input.closesAt, current.closesAt);
      if (opensAt && closesAt && opensAt >= closesAt) {
        throw validationError(
          new z.ZodError([{ code: "custom", path: ["closesAt"], message: "must be after opensAt", input: undefined }]),
        );
      }
      const planned: Planned[] | undefined = input.questions?.map((question) => ({
        id: question.id ?? null,
        data: questionData(question),
      }));
      if (planned) {
        const issues: z.core.$ZodIssue[] = [];
        const seen = new Set<string>();
        planned.forEach((question, index) => {
          if (question.id === null) return;
          if (!current.questions.some((q) => q.id === question.id) || seen.has(question.id)) {
            issues.push({
              code: "custom",
              path: ["questions", index, "id"],
              message: "is not a question of this exam",
              input: undefined,
            });
          }
          seen.add(question.id);
        });
        if (issues.length > 0) throw validationError(new z.ZodError(issues));
        if (current.attemptCount > 0) {
          const problems = lockedProblems(current.questions, planned);
          if (problems.length > 0) {
            throw new AppError(
              "QUESTIONS_LOCKED",
              "Candidates have started this exam: its questions can be corrected, not added, removed, reordered or changed in type or options.",
              { details: { problems } },
            );
          }
        }
      }
      const shuffleChanged =
        (input.shuffleQuestions !== undefined && input.shuffleQuestions !== current.shuffleQuestions) ||
        (input.shuffleOptions !== undefined && input.shuffleOptions !== current.shuffleOptions);
      if (shuffleChanged && current.attemptCount > 0) {
        // The papers candidates saw are rebuilt from their seed and these settings: they stay as they were.
        throw new AppError("QUESTIONS_LOCKED", "Candidates have started this exam: its shuffle settings are fixed.", {
          details: { problems: [{ code: "SHUFFLE_CHANGED" }] },
        });
      }
      if (input.secondMarking !== undefined && input.secondMarking !== current.secondMarking) {
        // Marks already given were given (and results decided) under the other rule: turning double marking on
        // would leave decided answers waiting for a second marker, turning it off would drop second marks.
        // Before the first mark it changes nothing that is computed, so no result needs recomputing.
        const [marked] = await tx.$queryRaw<{ count: number }[]>`
          SELECT count(*)::int AS count FROM grades g JOIN attempts a ON a.id = g.attempt_id
          WHERE a.exam_id = ${examId}::uuid`;
        if ((marked?.count ?? 0) > 0) {
          throw new AppError(
            "SECOND_MARKING_LOCKED",
            "Answers of this exam have been marked: double marking can no longer be turned on or off.",
            { details: { secondMarking: current.secondMarking, marks: marked?.count ?? 0 } },
          );
        }
      }
      const status = input.status ?? current.status;
      const refusal = transitionRefusal(current.status, status, current.attemptCount);
      if (refusal) {
        throw new AppError("STATUS_TRANSITION_REFUSED", `An exam cannot go from ${current.status} to ${status}.`, {
          details: { from: current.status, to: status, reason: refusal },
        });
      }
      const durationSeconds = input.durationSeconds ?? current.durationSeconds;
      const questionsAfter = planned?.map((q) => ({ id: q.id, ...q.data })) ?? current.questions;
      if (status === "published" && current.status !== "published") {
        const problems = publishProblems({ durationSeconds, opensAt, closesAt, questions: questionsAfter }, now);
        if (problems.length > 0) {
          throw new AppError("PUBLISH_CHECK_FAILED", "The exam cannot be published as it is.", {
            details: { problems },
          });
        }
      }

      // 4.
      await tx.exam.update({
        where: { id: examId },
        data: {
          title: input.title,
          description: input.description,
          rules: input.rules,
          durationSeconds: input.durationSeconds,
          graceSeconds: input.graceSeconds,
          opensAt: input.opensAt === undefined ? undefined : opensAt,
          closesAt: input.closesAt === undefined ? undefined : closesAt,
          lateAnswers: input.lateAnswers,
          resultsVisibility: input.resultsVisibility,
          resultsDetail: input.resultsDetail,
          secondMarking: input.secondMarking,
          shuffleQuestions: input.shuffleQuestions,
          shuffleOptions: input.shuffleOptions,
          status: input.status,
        },
      });
      let edits: FieldEdit[] = [];
      if (planned && current.attemptCount > 0) {
        edits = planned.flatMap((question) => {
          const before = current.questions.find((q) => q.id === question.id);
          return before ? fieldEdits(before, question.data) : [];
        });
        for (const question of planned) {
          if (question.id === null) continue;
          await tx.question.update({ where: { id: question.id }, data: storedQuestion(question.data) });
        }
        if (edits.length > 0) {
          const label = actorLabel(caller);
          const staffUserId = caller.kind === "staff" ? caller.userId : null;
          await tx.examEdit.createMany({
            data: edits.map((edit) => ({
              examId,
              questionId: edit.questionId,
              staffUserId,
              actorLabel: label,
              field: edit.field,
              before: jsonOrNull(edit.before),
              after: jsonOrNull(edit.after),
              at: now,
            })),
          });
          // A corrected key, tolerance, rule or points changes scores: every submitted paper is scored again, each
          // getting a new result version that names this edit's author (result-jobs.ts).
          const scoring = edits.filter((edit) => SCORING_FIELDS.has(edit.field));
          if (scoring.length > 0) {
            const positions = scoring.map((edit) => {
              const position = current.questions.find((q) => q.id === edit.questionId)?.position;
              return `Q${position ?? "?"} ${edit.field}`;
            });
            await enqueueResultJobs(tx, {
              examId,
              cause: "regraded",
              actor: staffUserId ? { type: "staff", staffUserId, label } : { type: "api-token", label },
              reason: `corrected: ${[...new Set(positions)].join(", ")}`,
            });
          }
        }
      } else if (planned) {
        await replaceQuestions(tx, examId, planned);
      }
      const changed = Object.keys(input).filter((key) => key !== "revision");
      await recordAuditEvent(
        {
          actor: actorOf(caller),
          action: status !== current.status ? "exam.status_changed" : "exam.updated",
          examId,
          data: { fields: changed, from: current.status, to: status, corrections: edits.length },
        },
        tx,
      );
      const updated = await findAdminExam({ examId, client: tx });
      if (!updated) throw new Error("the exam vanished inside its own transaction");
      return updated;
    });
  } catch (error) {
    if (!(error instanceof RevisionMoved)) throw error;
    const latest = await findAdminExam({ examId });
    if (!latest) throw new AppError("NOT_FOUND", "Not found.");
    throw new AppError(
      "EDIT_CONFLICT",
      `This exam changed since revision ${input.revision}; it is at revision ${latest.revision}. Nothing was saved.`,
      { details: { exam: latest } },
    );
  }
}
