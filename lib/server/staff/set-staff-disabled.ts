import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { StaffAccount } from "@/lib/shared/schemas/staff";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { db } from "../db/client";
import { lockStaffAccounts } from "./lock-staff-accounts";
import { STAFF_ACCOUNT_SELECT, toStaffAccount } from "./staff-account";

/**
 * Disables or enables a staff account. Disabling deletes every session of the account in the same
 * transaction, so its next request is refused (findStaffSession also refuses a disabled account's sessions,
 * which covers a sign-in racing this). Guards: nobody disables themselves, and the last active admin stays.
 * Asking for the state the account is already in changes nothing and answers with it.
 */
export async function setStaffDisabled(options: {
  staffUserId: string;
  disabled: boolean;
  actor: AuditActor;
}): Promise<StaffAccount> {
  const { staffUserId, disabled, actor } = options;
  if (disabled && actor.type === "staff" && actor.id === staffUserId) {
    throw new AppError("CANNOT_DISABLE_SELF", "You cannot disable your own account.");
  }
  const row = await db.$transaction(async (tx) => {
    await lockStaffAccounts(tx);
    const current = await tx.staffUser.findUnique({
      where: { id: staffUserId },
      select: { role: true, disabledAt: true },
    });
    if (!current) throw new AppError("NOT_FOUND", "No such staff account.");
    if ((current.disabledAt !== null) === disabled) {
      return tx.staffUser.findUniqueOrThrow({ where: { id: staffUserId }, select: STAFF_ACCOUNT_SELECT });
    }
    if (disabled && current.role === "admin") {
      const otherAdmins = await tx.staffUser.count({
        where: { role: "admin", disabledAt: null, id: { not: staffUserId } },
      });
      if (otherAdmins === 0) throw new AppError("LAST_ADMIN", "This is the last active admin.");
    }
    const updated = await tx.staffUser.update({
      where: { id: staffUserId },
      data: { disabledAt: disabled ? new Date() : null },
      select: STAFF_ACCOUNT_SELECT,
    });
    const ended = disabled ? (await tx.session.deleteMany({ where: { staffUserId } })).count : 0;
    await recordAuditEvent(
      {
        actor,
        action: disabled ? "staff.disabled" : "staff.enabled",
        data: { staffUserId, sessionsEnded: ended },
      },
      tx,
    );
    return updated;
  });
  return toStaffAccount(row);
}
