import "server-only";

import type { ExportKeyResponse } from "@/lib/shared/emergency-export";
import { AppError } from "@/lib/shared/errors";

import type { CandidatePrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { exportPublicKey } from "./export-key";

/**
 * The attempt's emergency-export public key, for its candidate only: someone else's attempt id is a 404,
 * like a missing one. The key is per attempt (ADR 006), so it is served only to the attempt's owner.
 */
export async function getExportKey(options: {
  attemptId: string;
  candidate: CandidatePrincipal;
}): Promise<ExportKeyResponse> {
  const attempt = await db.attempt.findFirst({
    where: { id: options.attemptId, enrollmentId: options.candidate.enrollmentId },
    select: { id: true },
  });
  if (!attempt) throw new AppError("NOT_FOUND", "No such attempt.");
  return { attemptId: attempt.id, v: 1, publicKey: exportPublicKey(attempt.id) };
}
