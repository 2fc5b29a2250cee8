import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { examStaffListRoute } from "@/lib/server/staff/exam-staff-routes";

/** The proctors assigned to this exam. */
export const GET = examStaffListRoute("proctor");

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
