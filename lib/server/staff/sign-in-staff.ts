import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { StaffSignInInput } from "@/lib/shared/schemas/auth";

import { recordAuditEvent } from "../audit/record-audit-event";
import { burnPasswordCheck, verifyPassword } from "../auth/password";
import { createSession, deleteSessionByToken, type StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { consumeSignInAttempt, forgetSignInFailures } from "../limits/sign-in-limiters";

/**
 * Signs a staff member in. Every try takes its points from the (email, address) pair's, the email's and the
 * address's budgets (lib/server/limits/sign-in-limiters.ts) before the password is checked; a right password
 * gives them back, so only failures count. The session is rotated:
 * whatever session the browser presented is deleted and a new token is issued, so a token planted before
 * login is worthless after it. A disabled account is told so only once its password was right.
 */
export async function signInStaff(options: {
  input: StaffSignInInput;
  address: string;
  previousToken?: string;
  userAgent: string | null;
}): Promise<{ token: string; expiresAt: Date; role: StaffPrincipal["role"]; mustChangePassword: boolean }> {
  await consumeSignInAttempt(options.input.email, options.address);
  const user = await db.staffUser.findUnique({
    where: { email: options.input.email },
    select: { id: true, role: true, passwordHash: true, disabledAt: true, mustChangePassword: true },
  });
  const isValid = user
    ? await verifyPassword(user.passwordHash, options.input.password)
    : (await burnPasswordCheck(options.input.password), false);
  if (!user || !isValid) throw new AppError("UNAUTHENTICATED", "Email or password is incorrect.");
  if (user.disabledAt) throw new AppError("ACCOUNT_DISABLED", "This account is disabled.");
  await forgetSignInFailures(options.input.email, options.address);

  if (options.previousToken) await deleteSessionByToken(options.previousToken);
  const session = await createSession({ kind: "staff", staffUserId: user.id, userAgent: options.userAgent });
  await recordAuditEvent({
    actor: { type: "staff", id: user.id },
    action: "staff.signed_in",
    data: { sessionId: session.sessionId },
  });
  return {
    token: session.token,
    expiresAt: session.expiresAt,
    role: user.role,
    mustChangePassword: user.mustChangePassword,
  };
}
