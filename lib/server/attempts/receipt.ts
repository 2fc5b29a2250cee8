import "server-only";

import { hmacBase64url, safeEqual } from "../crypto";
import { env } from "../env.mjs";

type ReceiptFields = { attemptId: string; submittedAt: Date | string; digest: string };

function parts(fields: ReceiptFields): string[] {
  const submittedAt = typeof fields.submittedAt === "string" ? fields.submittedAt : fields.submittedAt.toISOString();
  return ["holdfast-receipt-v1", fields.attemptId, submittedAt, fields.digest];
}

/** The candidate's proof of submission: HMAC-SHA256 over attempt id, submission time and digest. */
export function signReceipt(fields: ReceiptFields): string {
  return hmacBase64url(env.APP_SECRET, parts(fields));
}

export function verifyReceipt(fields: ReceiptFields & { receipt: string }): boolean {
  return safeEqual(signReceipt(fields), fields.receipt);
}
