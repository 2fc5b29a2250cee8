import "server-only";

import { AppError } from "@/lib/shared/errors";
import { IdempotencyKeySchema } from "@/lib/shared/schemas/sync";

/**
 * An optional `Idempotency-Key` header, validated like submit's (1–255 printable ASCII): null when absent,
 * 400 when malformed.
 */
export function optionalIdempotencyKey(request: Request): string | null {
  const header = request.headers.get("idempotency-key");
  if (header === null) return null;
  const key = IdempotencyKeySchema.safeParse(header);
  if (!key.success) throw new AppError("BAD_REQUEST", "The Idempotency-Key header must be 1–255 printable ASCII characters.");
  return key.data;
}
