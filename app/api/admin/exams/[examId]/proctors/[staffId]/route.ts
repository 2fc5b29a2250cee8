import { actorOf } from "@/lib/server/auth/actor";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { assignExamStaff, unassignExamStaff } from "@/lib/server/staff/assign-exam-staff";
import { ExamStaffParamsSchema } from "@/lib/shared/schemas/staff";

/** Assigns the proctor to the exam (idempotent). */
export const PUT = route({ access: "admin", params: ExamStaffParamsSchema }, async ({ params, principal }) => {
  await assignExamStaff({
    role: "proctor",
    examId: params.examId,
    staffUserId: params.staffId,
    actor: actorOf(principal),
  });
  return new Response(null, { status: 204 });
});

/** Ends the assignment (idempotent). */
export const DELETE = route({ access: "admin", params: ExamStaffParamsSchema }, async ({ params, principal }) => {
  await unassignExamStaff({
    role: "proctor",
    examId: params.examId,
    staffUserId: params.staffId,
    actor: actorOf(principal),
  });
  return new Response(null, { status: 204 });
});

export const { GET, POST, PATCH, OPTIONS } = methodsNotAllowed("PUT", "DELETE");
