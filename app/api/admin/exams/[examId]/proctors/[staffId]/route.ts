import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { examStaffAssignmentRoutes } from "@/lib/server/staff/exam-staff-routes";

/** Assigning a proctor to the exam, and ending it (both idempotent). */
export const { PUT, DELETE } = examStaffAssignmentRoutes("proctor");

export const { GET, POST, PATCH, OPTIONS } = methodsNotAllowed("PUT", "DELETE");
