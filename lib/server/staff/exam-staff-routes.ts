import "server-only";

import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { ExamStaffParamsSchema } from "@/lib/shared/schemas/staff";

import { actorOf } from "../auth/actor";
import { json, route } from "../http/route";
import { assignExamStaff, unassignExamStaff, type ExamStaffRole } from "./assign-exam-staff";
import { listExamStaff } from "./exam-staff";

/**
 * The route handlers of an exam's staff assignments, one set for each role (`…/proctors`, `…/graders`): the
 * lists answer `{ proctors }` / `{ graders }`; assigning and unassigning are idempotent, 204, audited by the
 * operation. Admins only.
 */
export function examStaffListRoute(role: ExamStaffRole) {
  return route({ access: "admin", params: ExamParamsSchema }, async ({ params }) => {
    const staff = await listExamStaff({ examId: params.examId, role });
    if (!staff) throw new AppError("NOT_FOUND", "No such exam.");
    return json({ [`${role}s`]: staff });
  });
}

export function examStaffAssignmentRoutes(role: ExamStaffRole) {
  return {
    /** Assigns the staff member to the exam in this role (idempotent). */
    PUT: route({ access: "admin", params: ExamStaffParamsSchema }, async ({ params, principal }) => {
      await assignExamStaff({ role, examId: params.examId, staffUserId: params.staffId, actor: actorOf(principal) });
      return new Response(null, { status: 204 });
    }),
    /** Ends the assignment (idempotent). */
    DELETE: route({ access: "admin", params: ExamStaffParamsSchema }, async ({ params, principal }) => {
      await unassignExamStaff({ role, examId: params.examId, staffUserId: params.staffId, actor: actorOf(principal) });
      return new Response(null, { status: 204 });
    }),
  };
}
