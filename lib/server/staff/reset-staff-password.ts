import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { StaffAccount } from "@/lib/shared/schemas/staff";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { hashPassword } from "../auth/password";
import { db } from "../db/client";
import { assertPasswordAllowed } from "./assert-password-allowed";
import { lockStaffAccounts } from "./lock-staff-accounts";
import { STAFF_ACCOUNT_SELECT, toStaffAccount } from "./staff-account";
import { generateTemporaryPassword } from "./temporary-password";

/**
 * Replaces a staff member's password and ends all their sessions.
 *
 * - From the admin page: a temporary password is made, returned once, and must be changed at next sign-in.
 *   `expectedPasswordChangedAt` is the version the admin saw: when two admins reset the same account at
 *   once, the second finds the version moved and gets 409 STAFF_CHANGED, so nobody is shown a password that
 *   no longer works. The check is in the UPDATE's WHERE, under the staff-accounts lock.
 * - From the CLI (`password`): the operator's chosen password, checked against the policy, ready to use.
 */
export async function resetStaffPassword(options: {
  staffUserId: string;
  password?: string;
  expectedPasswordChangedAt?: string;
  actor: AuditActor;
}): Promise<{ account: StaffAccount; temporaryPassword: string | null }> {
  const { staffUserId, actor } = options;
  const target = await db.staffUser.findUnique({ where: { id: staffUserId }, select: { email: true } });
  if (!target) throw new AppError("NOT_FOUND", "No such staff account.");
  if (options.password !== undefined) assertPasswordAllowed(options.password, target.email);
  const temporaryPassword = options.password === undefined ? generateTemporaryPassword() : null;
  const passwordHash = await hashPassword(options.password ?? temporaryPassword ?? "");

  const row = await db.$transaction(async (tx) => {
    await lockStaffAccounts(tx);
    const { count } = await tx.staffUser.updateMany({
      where: {
        id: staffUserId,
        ...(options.expectedPasswordChangedAt
          ? { passwordChangedAt: new Date(options.expectedPasswordChangedAt) }
          : {}),
      },
      data: { passwordHash, mustChangePassword: temporaryPassword !== null, passwordChangedAt: new Date() },
    });
    const current = await tx.staffUser.findUnique({ where: { id: staffUserId }, select: STAFF_ACCOUNT_SELECT });
    if (!current) throw new AppError("NOT_FOUND", "No such staff account.");
    if (count === 0) {
      throw new AppError("STAFF_CHANGED", "Someone changed this account's password since you looked.", {
        details: { account: toStaffAccount(current) },
      });
    }
    const ended = await tx.session.deleteMany({ where: { staffUserId } });
    await recordAuditEvent(
      { actor, action: "staff.password_reset", data: { staffUserId, sessionsEnded: ended.count } },
      tx,
    );
    return current;
  });
  return { account: toStaffAccount(row), temporaryPassword };
}
