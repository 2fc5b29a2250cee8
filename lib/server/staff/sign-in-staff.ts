import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { StaffSignInInput } from "@/lib/shared/schemas/auth";

import { recordAuditEvent } from "../audit/record-audit-event";
import { burnPasswordCheck, verifyPassword } from "../auth/password";
import { createSession, deleteSessionByToken } from "../auth/sessions";
import { db } from "../db/client";

/**
 * Signs a staff member in. The session is rotated: whatever session the browser presented is deleted
 * and a new token is issued, so a token planted before login is worthless after it.
 */
export async function signInStaff(options: {
  input: StaffSignInInput;
  previousToken?: string;
  userAgent: string | null;
}): Promise<{ token: string; expiresAt: Date; role: "admin" | "proctor" }> {
  const user = await db.staffUser.findUnique({
    where: { email: options.input.email },
    select: { id: true, role: true, passwordHash: true },
  });
  const isValid = user
    ? await verifyPassword(user.passwordHash, options.input.password)
    : (await burnPasswordCheck(options.input.password), false);
  if (!user || !isValid) throw new AppError("UNAUTHENTICATED", "Email or password is incorrect.");

  if (options.previousToken) await deleteSessionByToken(options.previousToken);
  const session = await createSession({ kind: "staff", staffUserId: user.id, userAgent: options.userAgent });
  await recordAuditEvent({
    actor: { type: "staff", id: user.id },
    action: "staff.signed_in",
    data: { sessionId: session.sessionId },
  });
  return { token: session.token, expiresAt: session.expiresAt, role: user.role };
}
