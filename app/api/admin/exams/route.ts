import { actorOf } from "@/lib/server/auth/actor";
import { createExam } from "@/lib/server/exams/create-exam";
import { json, route } from "@/lib/server/http/route";
import { CreateExamSchema } from "@/lib/shared/schemas/exams";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

export const POST = route({ access: "admin", body: CreateExamSchema }, async ({ body, principal }) => {
  const exam = await createExam({ input: body, actor: actorOf(principal) });
  return json(exam, { status: 201 });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
