import "server-only";

import { AppError } from "@/lib/shared/errors";
import { LIMITS } from "@/lib/shared/limits";
import { QTI_MEDIA_TYPES } from "@/lib/shared/schemas/qti";

import { attachedRequestBody } from "./fast-path-bodies.mjs";

function tooLarge(maxBytes: number): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes.`);
}

/**
 * A refused body is still read, and thrown away, before the 413 goes out: a server that closes a
 * connection with unread bytes in it makes the client's kernel reset it, and the 413 the client had
 * not yet read is lost with it (the "lingering close" of RFC 9112 §9.6) — the client sees EPIPE or
 * ECONNRESET instead of an answer. Bounded in size, in total time and by a pause in the upload, so a
 * client that declares a length it never sends, or sends forever, still gets its 413 soon.
 */
const DISCARD_MAX_BYTES = 16 * LIMITS.maxBodyBytes;
const DISCARD_MAX_MS = 5_000;
const DISCARD_IDLE_MS = 500;

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<void> {
  const deadline = Date.now() + DISCARD_MAX_MS;
  let total = alreadyRead;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    while (total <= DISCARD_MAX_BYTES) {
      const wait = Math.min(DISCARD_IDLE_MS, deadline - Date.now());
      if (wait <= 0) break;
      const paused = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), wait);
      });
      const read = reader.read();
      read.catch(() => undefined); // may be left pending when the upload pauses
      const next = await Promise.race([read, paused]);
      clearTimeout(timer);
      if (next === null || next.done) break;
      total += next.value.byteLength;
    }
  } catch {
    // The client went away: nothing left to protect.
  } finally {
    clearTimeout(timer);
  }
  // Not cancelled: cancelling destroys the request, and with it the socket the 413 is to go out on.
}

/** A Content-Type's media type, lower case, its parameters (`charset=utf-8`) dropped. */
function mediaTypeOf(contentType: string | null): string {
  return contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
}

/** `application/json`, or a `+json` type (`application/merge-patch+json`), parameters aside. */
function isJsonMediaType(contentType: string | null): boolean {
  const type = mediaTypeOf(contentType);
  return type === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

/**
 * Reads a body's bytes with a hard size cap. A declared Content-Length over the cap is refused without a
 * byte kept; a body without one (chunked) is counted while streaming and refused at the cap. Either way
 * the rest of the upload is drained, within bounds, before the refusal (see discardRest). Returns
 * `undefined` for an empty body.
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number = LIMITS.maxBodyBytes,
): Promise<Uint8Array | undefined> {
  // Read already by the fast path (fast-path-bodies.mjs): the request itself carries no body.
  const attached = attachedRequestBody(request);
  if (attached !== undefined) {
    if (attached.byteLength > maxBytes) throw tooLarge(maxBytes);
    return attached.byteLength === 0 ? undefined : attached;
  }
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    if (request.body && Number(declared) <= DISCARD_MAX_BYTES) await discardRest(request.body.getReader(), 0);
    throw tooLarge(maxBytes);
  }
  if (!request.body) return undefined;

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await discardRest(reader, total);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (total === 0) return undefined;
  return Buffer.concat(chunks, total);
}

/** Reads a body as text with readBodyBytes (size cap); a body that is not UTF-8 is 400. */
export async function readBodyText(
  request: Request,
  maxBytes: number = LIMITS.maxBodyBytes,
): Promise<string | undefined> {
  const bytes = await readBodyBytes(request, maxBytes);
  if (bytes === undefined) return undefined;
  try {
    // Fatal: invalid UTF-8 is refused, not silently turned into U+FFFD and stored.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid UTF-8.");
  }
}

/** `application/zip` (or the `x-zip-compressed` some browsers give a .zip file), parameters aside. */
export function isZipMediaType(contentType: string | null): boolean {
  return (QTI_MEDIA_TYPES as readonly string[]).includes(mediaTypeOf(contentType));
}

/** `text/csv`, parameters (`charset=utf-8`, `header=present`) aside. */
export function isCsvMediaType(contentType: string | null): boolean {
  return mediaTypeOf(contentType) === "text/csv";
}

/**
 * Reads a `text/csv` body the way readJsonBody reads JSON (size cap, UTF-8 or 400), without the byte
 * order mark spreadsheets put in front of UTF-8 files. An empty body is the empty string: the operation
 * reports an empty file in its own words.
 */
export async function readCsvBody(request: Request, maxBytes: number = LIMITS.maxBodyBytes): Promise<string> {
  const text = (await readBodyText(request, maxBytes)) ?? "";
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/**
 * Reads a JSON body with readBodyText (size cap, UTF-8). Returns `undefined` for an empty body.
 *
 * A body that is not JSON — not UTF-8 (RFC 8259), or not parseable — is 400 whatever its label. A JSON
 * body must also say so in Content-Type (415 otherwise): a form post or a `text/plain` "simple request"
 * from another site is never taken as an API call.
 */
export async function readJsonBody(request: Request, maxBytes: number = LIMITS.maxBodyBytes): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (text === undefined) return undefined;
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
