import { attachResponseText } from "./fast-path-bodies.mjs";

/**
 * A JSON answer, as `Response.json` makes it (Content-Type application/json unless the headers name another), with
 * its text attached for the fast path to write without reading the body back (fast-path-bodies.mjs).
 */
export function jsonResponse(data: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const text = JSON.stringify(data) as string | undefined;
  if (text === undefined) throw new TypeError("A JSON answer needs a value JSON can hold.");
  return jsonTextResponse(text, init);
}

/** A JSON answer whose text is already written (a submission's stored response): sent as it is, not again. */
export function jsonTextResponse(text: string, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  const response = new Response(text, { status: init.status ?? 200, headers });
  attachResponseText(response, text);
  return response;
}
