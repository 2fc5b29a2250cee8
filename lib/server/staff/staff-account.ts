import "server-only";

import type { StaffAccount } from "@/lib/shared/schemas/staff";

import type { Prisma } from "../db/client";

/** What every staff operation selects, so every answer has the one shape. */
export const STAFF_ACCOUNT_SELECT = {
  id: true,
  email: true,
  name: true,
  role: true,
  disabledAt: true,
  mustChangePassword: true,
  passwordChangedAt: true,
  createdAt: true,
  proctorAssignments: { select: { exam: { select: { id: true, title: true } } }, orderBy: { examId: "asc" } },
  graderAssignments: { select: { exam: { select: { id: true, title: true } } }, orderBy: { examId: "asc" } },
} satisfies Prisma.StaffUserSelect;

type Row = Prisma.StaffUserGetPayload<{ select: typeof STAFF_ACCOUNT_SELECT }>;

export function toStaffAccount(row: Row): StaffAccount {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    mustChangePassword: row.mustChangePassword,
    passwordChangedAt: row.passwordChangedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    // A proctor's exams to watch, a grader's to mark (a role has only its own kind of assignment).
    exams: (row.role === "grader" ? row.graderAssignments : row.proctorAssignments).map(({ exam }) => exam),
  };
}
