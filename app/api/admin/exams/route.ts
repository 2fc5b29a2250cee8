import { actorOf } from "@/lib/server/auth/actor";
import { createExam } from "@/lib/server/exams/create-exam";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { CreateExamSchema } from "@/lib/shared/schemas/exams";
import { AdminExamSchema } from "@/lib/shared/schemas/responses/exams";

export const POST = route(
  {
    access: "admin",
    body: CreateExamSchema,
    doc: {
      operationId: "createExam",
      area: "admin",
      summary: "Create an exam with its questions",
      description:
        "Creates the exam and all its questions in one transaction; question positions follow the input order. " +
        "`status` defaults to `draft`, and only a `published` exam can be started; a draft may start without " +
        "questions, any other status needs one. Without `opensAt`/`closesAt` the exam is always open.",
      responses: {
        201: {
          description: "The exam as its editor reads it (revision 1), questions in order",
          schema: AdminExamSchema,
        },
      },
    },
  },
  async ({ body, principal }) => {
    const exam = await createExam({ input: body, actor: actorOf(principal) });
    return json(exam, { status: 201 });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
