import "server-only";

import { z } from "zod";

import { AppError } from "@/lib/shared/errors";
import { UuidSchema } from "@/lib/shared/schemas/attempts";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { ExamStaffParamsSchema } from "@/lib/shared/schemas/staff";

import { actorOf } from "@/lib/server/auth/actor";
import { json, route } from "@/lib/server/http/route";
import type { RouteDoc } from "@/lib/server/http/route-doc";
import { assignExamStaff, unassignExamStaff, type ExamStaffRole } from "@/lib/server/staff/assign-exam-staff";
import { listExamStaff, type ExamStaffEntry } from "@/lib/server/staff/exam-staff";

const ExamStaffEntrySchema = z.object({ id: UuidSchema, name: z.string(), email: z.string(), disabled: z.boolean() });

/** The lists' 200 bodies, for the routes' documentation. */
export const ExamProctorsSchema = z.object({
  proctors: z.array(ExamStaffEntrySchema),
}) satisfies z.ZodType<{ proctors: ExamStaffEntry[] }>;

export const ExamGradersSchema = z.object({
  graders: z.array(ExamStaffEntrySchema),
}) satisfies z.ZodType<{ graders: ExamStaffEntry[] }>;

/**
 * The route handlers of an exam's staff assignments, one set for each role (`…/proctors`, `…/graders`): the
 * lists answer `{ proctors }` / `{ graders }`; assigning and unassigning are idempotent, 204, audited by the
 * operation. Admins only. Each route file passes its operations' documentation (`doc`, route-doc.ts).
 */
export function examStaffListRoute(role: ExamStaffRole, doc: RouteDoc) {
  return route({ access: "admin", params: ExamParamsSchema, doc }, async ({ params }) => {
    const staff = await listExamStaff({ examId: params.examId, role });
    if (!staff) throw new AppError("NOT_FOUND", "No such exam.");
    return json({ [`${role}s`]: staff });
  });
}

export function examStaffAssignmentRoutes(role: ExamStaffRole, docs: { PUT: RouteDoc; DELETE: RouteDoc }) {
  return {
    /** Assigns the staff member to the exam in this role (idempotent). */
    PUT: route({ access: "admin", params: ExamStaffParamsSchema, doc: docs.PUT }, async ({ params, principal }) => {
      await assignExamStaff({ role, examId: params.examId, staffUserId: params.staffId, actor: actorOf(principal) });
      return new Response(null, { status: 204 });
    }),
    /** Ends the assignment (idempotent). */
    DELETE: route(
      { access: "admin", params: ExamStaffParamsSchema, doc: docs.DELETE },
      async ({ params, principal }) => {
        await unassignExamStaff({
          role,
          examId: params.examId,
          staffUserId: params.staffId,
          actor: actorOf(principal),
        });
        return new Response(null, { status: 204 });
      },
    ),
  };
}
