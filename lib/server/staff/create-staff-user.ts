import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { CreateStaffInput, StaffAccount } from "@/lib/shared/schemas/staff";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { hashPassword } from "../auth/password";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { assertPasswordAllowed } from "./assert-password-allowed";
import { STAFF_ACCOUNT_SELECT, toStaffAccount } from "./staff-account";
import { generateTemporaryPassword } from "./temporary-password";

/**
 * Creates a staff account. With `password` (the CLI: the operator chose it) the policy is checked and the
 * account is ready; without, a temporary password is made, returned once, and must be changed at first
 * sign-in. The email's uniqueness is the database's to decide (409 STAFF_EMAIL_TAKEN).
 */
export async function createStaffUser(options: {
  input: CreateStaffInput;
  password?: string;
  actor: AuditActor;
}): Promise<{ account: StaffAccount; temporaryPassword: string | null }> {
  const { input } = options;
  if (options.password !== undefined) assertPasswordAllowed(options.password, input.email);
  const temporaryPassword = options.password === undefined ? generateTemporaryPassword() : null;
  const passwordHash = await hashPassword(options.password ?? temporaryPassword ?? "");
  try {
    const row = await db.$transaction(async (tx) => {
      const created = await tx.staffUser.create({
        data: {
          email: input.email,
          name: input.name,
          role: input.role,
          passwordHash,
          mustChangePassword: temporaryPassword !== null,
        },
        select: STAFF_ACCOUNT_SELECT,
      });
      await recordAuditEvent(
        { actor: options.actor, action: "staff.created", data: { staffUserId: created.id, role: input.role } },
        tx,
      );
      return created;
    });
    return { account: toStaffAccount(row), temporaryPassword };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("STAFF_EMAIL_TAKEN", "A staff account with this email already exists.");
    }
    throw error;
  }
}
