import "server-only";

import { AppError } from "@/lib/shared/errors";
import { LIMITS } from "@/lib/shared/limits";

function tooLarge(): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${LIMITS.maxBodyBytes} bytes.`);
}

/** `application/json`, or a `+json` type (`application/merge-patch+json`), parameters aside. */
function isJsonMediaType(contentType: string | null): boolean {
  const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

/**
 * Reads a JSON body with a hard size cap. A declared Content-Length over the cap is refused before a
 * byte is read; a body without one (chunked) is counted while streaming and cut off at the cap.
 * Returns `undefined` for an empty body.
 *
 * A body that is not JSON — not UTF-8 (RFC 8259), or not parseable — is 400 whatever its label. A JSON
 * body must also say so in Content-Type (415 otherwise): a form post or a `text/plain` "simple request"
 * from another site is never taken as an API call.
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

  let text: string;
  try {
    // Fatal: invalid UTF-8 is refused, not silently turned into U+FFFD and stored.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Buffer.concat(chunks, total));
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid UTF-8.");
  }
  if (text.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid JSON.");
  }
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON, with Content-Type: application/json.");
  }
  return parsed;
}
