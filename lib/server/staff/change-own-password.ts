import "server-only";

import { AppError } from "@/lib/shared/errors";

import { recordAuditEvent } from "../audit/record-audit-event";
import { hashPassword, verifyPassword } from "../auth/password";
import type { StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { assertPasswordAllowed } from "./assert-password-allowed";

/**
 * A staff member changes their own password: the current one is checked, the new one against the policy
 * (and it must differ from the current one, so a temporary password is really replaced). Their other
 * sessions end; the one that made the change stays signed in.
 */
export async function changeOwnPassword(options: {
  staff: StaffPrincipal;
  currentPassword: string;
  newPassword: string;
}): Promise<void> {
  const { staff } = options;
  const user = await db.staffUser.findUnique({ where: { id: staff.userId }, select: { passwordHash: true } });
  if (!user || !(await verifyPassword(user.passwordHash, options.currentPassword))) {
    throw new AppError("CURRENT_PASSWORD_INCORRECT", "The current password is not correct.");
  }
  assertPasswordAllowed(options.newPassword, staff.email);
  if (options.newPassword === options.currentPassword) {
    throw new AppError("WEAK_PASSWORD", "Choose a password different from the current one.", {
      details: { reason: "unchanged" },
    });
  }
  const passwordHash = await hashPassword(options.newPassword);
  await db.$transaction(async (tx) => {
    // The hash read above must still be the live one: a reset by an admin in between wins.
    const { count } = await tx.staffUser.updateMany({
      where: { id: staff.userId, passwordHash: user.passwordHash, disabledAt: null },
      data: { passwordHash, mustChangePassword: false, passwordChangedAt: new Date() },
    });
    if (count === 0) throw new AppError("STAFF_CHANGED", "Your account changed meanwhile; sign in again.");
    await tx.session.deleteMany({ where: { staffUserId: staff.userId, id: { not: staff.sessionId } } });
    await recordAuditEvent({ actor: { type: "staff", id: staff.userId }, action: "staff.password_changed" }, tx);
  });
}
