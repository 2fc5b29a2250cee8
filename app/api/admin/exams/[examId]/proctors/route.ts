import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { listExamStaff } from "@/lib/server/staff/exam-staff";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

/** The proctors assigned to this exam. */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) => {
  const proctors = await listExamStaff({ examId: params.examId, role: "proctor" });
  if (!proctors) throw new AppError("NOT_FOUND", "No such exam.");
  return json({ proctors });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
