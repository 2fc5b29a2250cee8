import { actorOf } from "@/lib/server/auth/actor";
import { deleteExam } from "@/lib/server/exams/delete-exam";
import { findAdminExam } from "@/lib/server/exams/find-admin-exam";
import { updateExam } from "@/lib/server/exams/update-exam";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError } from "@/lib/shared/errors";
import { PatchExamSchema } from "@/lib/shared/schemas/exams";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) => {
  const exam = await findAdminExam({ examId: params.examId });
  if (!exam) throw new AppError("NOT_FOUND", "Not found.");
  return json(exam);
});

export const PATCH = route(
  { access: "admin", params: ExamParamsSchema, body: PatchExamSchema },
  async ({ params, body, principal }) =>
    json(await updateExam({ examId: params.examId, input: body, caller: principal })),
);

export const DELETE = route({ access: "admin", params: ExamParamsSchema }, async ({ params, principal }) => {
  await deleteExam({ examId: params.examId, actor: actorOf(principal) });
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = methodsNotAllowed("GET", "PATCH", "DELETE");
