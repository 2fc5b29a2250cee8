import { findAdminExam } from "@/lib/server/exams/find-admin-exam";
import { listExamEdits } from "@/lib/server/exams/list-exam-edits";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { ExamEditsSchema } from "@/lib/shared/schemas/responses/exams";

/** The corrections made to the exam's questions after attempts existed (exam_edits), newest first. */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "listExamEdits",
      area: "admin",
      summary: "Corrections made after candidates started",
      description: "One entry per changed field of a question, newest first (at most 500).",
      responses: { 200: { description: "The corrections", schema: ExamEditsSchema } },
    },
  },
  async ({ params }) => {
    if (!(await findAdminExam({ examId: params.examId }))) throw new AppError("NOT_FOUND", "Not found.");
    return json({ edits: await listExamEdits({ examId: params.examId }) });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
