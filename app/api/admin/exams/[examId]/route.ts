import { z } from "zod";

import { actorOf } from "@/lib/server/auth/actor";
import { deleteExam } from "@/lib/server/exams/delete-exam";
import { findAdminExam } from "@/lib/server/exams/find-admin-exam";
import { updateExam } from "@/lib/server/exams/update-exam";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError } from "@/lib/shared/errors";
import { PatchExamSchema } from "@/lib/shared/schemas/exams";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { AdminExamSchema } from "@/lib/shared/schemas/responses/exams";

export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "getAdminExam",
      area: "admin",
      summary: "An exam as its editor reads it",
      description: "Every field, answer keys included, and the `revision` the next PATCH must send.",
      responses: { 200: { description: "The exam", schema: AdminExamSchema } },
    },
  },
  async ({ params }) => {
    const exam = await findAdminExam({ examId: params.examId });
    if (!exam) throw new AppError("NOT_FOUND", "Not found.");
    return json(exam);
  },
);

export const PATCH = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    body: PatchExamSchema,
    doc: {
      operationId: "updateExam",
      area: "admin",
      summary: "Edit an exam",
      description:
        "Any subset of the fields, with the `revision` the edit is based on; an older revision is 409 " +
        "EDIT_CONFLICT with the current exam in `details.exam`, and nothing is written. `questions` is the whole " +
        "new list in order: a question keeping its `id` is updated, one without is added, one left out is " +
        "removed. Once candidates have started, only corrections (prompts, labels, keys, points) are allowed " +
        "(QUESTIONS_LOCKED); a rubric change is recorded in the exam's edits but re-scores nothing. `secondMarking` " +
        "cannot change once any answer of the exam is marked (SECOND_MARKING_LOCKED). `status` moves the exam " +
        "along its lifecycle.",
      responses: { 200: { description: "The exam after the edit, with its new revision", schema: AdminExamSchema } },
      errors: [
        "EDIT_CONFLICT",
        "QUESTIONS_LOCKED",
        "SECOND_MARKING_LOCKED",
        "STATUS_TRANSITION_REFUSED",
        "PUBLISH_CHECK_FAILED",
      ],
      errorDetails: { EDIT_CONFLICT: z.object({ exam: AdminExamSchema }) },
    },
  },
  async ({ params, body, principal }) =>
    json(await updateExam({ examId: params.examId, input: body, caller: principal })),
);

export const DELETE = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "deleteExam",
      area: "admin",
      summary: "Delete an exam nobody has started",
      description: "Once a candidate has started it the exam is evidence: 409 EXAM_HAS_ATTEMPTS; close or archive it.",
      responses: { 204: { description: "Deleted, with its questions and enrollments" } },
      errors: ["EXAM_HAS_ATTEMPTS"],
    },
  },
  async ({ params, principal }) => {
    await deleteExam({ examId: params.examId, actor: actorOf(principal) });
    return new Response(null, { status: 204 });
  },
);

export const { POST, PUT, OPTIONS } = methodsNotAllowed("GET", "PATCH", "DELETE");
