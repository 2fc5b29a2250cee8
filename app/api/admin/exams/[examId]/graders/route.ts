import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { examStaffListRoute } from "@/lib/server/staff/exam-staff-routes";

/** The graders assigned to this exam. */
export const GET = examStaffListRoute("grader");

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
