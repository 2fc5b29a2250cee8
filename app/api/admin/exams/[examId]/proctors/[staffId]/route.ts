import { actorOf } from "@/lib/server/auth/actor";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { assignProctor, unassignProctor } from "@/lib/server/staff/assign-proctor";
import { ExamProctorParamsSchema } from "@/lib/shared/schemas/staff";

/** Assigns the proctor to the exam (idempotent). */
export const PUT = route({ access: "admin", params: ExamProctorParamsSchema }, async ({ params, principal }) => {
  await assignProctor({ examId: params.examId, staffUserId: params.staffId, actor: actorOf(principal) });
  return new Response(null, { status: 204 });
});

/** Ends the assignment (idempotent). */
export const DELETE = route({ access: "admin", params: ExamProctorParamsSchema }, async ({ params, principal }) => {
  await unassignProctor({ examId: params.examId, staffUserId: params.staffId, actor: actorOf(principal) });
  return new Response(null, { status: 204 });
});

export const { GET, POST, PATCH, OPTIONS } = methodsNotAllowed("PUT", "DELETE");
