import { actorOf } from "@/lib/server/auth/actor";
import { duplicateExam } from "@/lib/server/exams/duplicate-exam";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { DuplicateExamSchema } from "@/lib/shared/schemas/exams";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { AdminExamSchema } from "@/lib/shared/schemas/responses/exams";

export const POST = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    body: DuplicateExamSchema,
    isBodyOptional: true,
    doc: {
      operationId: "duplicateExam",
      area: "admin",
      summary: "Copy an exam as a new draft",
      description: "The questions and settings, no candidates. The body (optional) names the copy's title.",
      responses: { 201: { description: "The copy", schema: AdminExamSchema } },
    },
  },
  async ({ params, body, principal }) => {
    const copy = await duplicateExam({ examId: params.examId, title: body?.title, actor: actorOf(principal) });
    return json(copy, { status: 201 });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
