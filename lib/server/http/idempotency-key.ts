import "server-only";

import { AppError } from "@/lib/shared/errors";
import { IdempotencyKeySchema } from "@/lib/shared/schemas/sync";

const MALFORMED = "The Idempotency-Key header must be 1–255 printable ASCII characters.";

/** The `Idempotency-Key` header a submit must carry (1–255 printable ASCII): 400 when absent or malformed. */
export function requiredIdempotencyKey(request: Request): string {
  const key = optionalIdempotencyKey(request);
  if (key === null) throw new AppError("BAD_REQUEST", "The Idempotency-Key header is required.");
  return key;
}

/**
 * An optional `Idempotency-Key` header, validated like submit's (1–255 printable ASCII): null when absent,
 * 400 when malformed.
 */
export function optionalIdempotencyKey(request: Request): string | null {
  const header = request.headers.get("idempotency-key");
  if (header === null) return null;
  const key = IdempotencyKeySchema.safeParse(header);
  if (!key.success) throw new AppError("BAD_REQUEST", MALFORMED);
  return key.data;
}
