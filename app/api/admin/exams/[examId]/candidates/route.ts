import { actorOf } from "@/lib/server/auth/actor";
import { enrollCandidates } from "@/lib/server/enrollments/enroll-candidates";
import { json, route } from "@/lib/server/http/route";
import { EnrollCandidatesSchema } from "@/lib/shared/schemas/enrollments";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

export const POST = route(
  { access: "admin", params: ExamParamsSchema, body: EnrollCandidatesSchema },
  async ({ params, body, principal }) => {
    const candidates = await enrollCandidates({ examId: params.examId, input: body, actor: actorOf(principal) });
    return json({ candidates }, { status: 201 });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
