import "server-only";

import { AppError } from "@/lib/shared/errors";
import { LIMITS } from "@/lib/shared/limits";

function tooLarge(): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${LIMITS.maxBodyBytes} bytes.`);
}

/**
 * Reads a JSON body with a hard size cap. A declared Content-Length over the cap is refused before a
 * byte is read; a body without one (chunked) is counted while streaming and cut off at the cap.
 * Returns `undefined` for an empty body.
 */
export async function readJsonBody(request: Request, maxBytes: number = LIMITS.maxBodyBytes): Promise<unknown> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge();
  if (!request.body) return undefined;

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (total === 0) return undefined;

  const text = Buffer.concat(chunks, total).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid JSON.");
  }
}
