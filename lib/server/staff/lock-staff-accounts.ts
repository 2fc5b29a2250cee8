import "server-only";

import type { Prisma } from "../db/client";

/**
 * Serialises changes to who may sign in (disable, enable, reset) for the rest of the transaction. "Never
 * disable the last active admin" reads other rows than it writes: two admins disabling each other at once
 * would each see the other still active and both succeed, leaving none. One transaction-scoped advisory lock
 * makes those checks run one after another. Such changes are rare, so one lock for all of them costs nothing.
 */
export async function lockStaffAccounts(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('holdfast:staff-accounts'))`;
}
