// Bodies handed over beside the web Request and Response of the fast path (scripts/start/worker.mjs, ADR 023) instead
// of read through them. undici wraps every body in a byte ReadableStream, and reading one back takes a reader, a pull
// and a chain of promises: for the few hundred bytes of an autosave, a heartbeat or a submit, that was a tenth of the
// request's CPU in the deadline storm's profile (docs/benchmarks/log/2026-12-05-epyc-box.md). The fast path has read
// the request's bytes already and writes the answer's bytes itself, so it passes them on the side:
//
// - a request body: the worker makes the Request without one and attaches the bytes it read; readBodyBytes
//   (read-json-body.ts) takes them from here first. A Request not made by the fast path has none here and is
//   read as before.
// - a JSON answer: `json()` (route.ts) and the error answer (errors.ts) attach the text they serialised, and the
//   worker writes it without reading the Response's stream. The Response still has its body, so Next.js, which
//   serves the same handlers for every other path, reads it as always.
//
// Plain JavaScript shared through the global symbol registry: the worker imports this file as it is, while the
// route handlers' copy is bundled into Next's server chunks — two module instances, one pair of maps.

const holder = /** @type {Record<symbol, WeakMap<object, unknown> | undefined>} */ (
  /** @type {unknown} */ (globalThis)
);
const requestBodies = /** @type {WeakMap<Request, Uint8Array>} */ (
  holder[Symbol.for("holdfast.fastPath.requestBodies")] ??= new WeakMap()
);
const responseTexts = /** @type {WeakMap<Response, string>} */ (
  holder[Symbol.for("holdfast.fastPath.responseTexts")] ??= new WeakMap()
);

/**
 * The fast path read this request's body already: `bytes` is all of it (empty for an empty body).
 * @param {Request} request
 * @param {Uint8Array} bytes
 */
export function attachRequestBody(request, bytes) {
  requestBodies.set(request, bytes);
}

/**
 * The body the fast path read for this request, or undefined when it is to be read from the request itself.
 * @param {Request} request
 * @returns {Uint8Array | undefined}
 */
export function attachedRequestBody(request) {
  return requestBodies.get(request);
}

/**
 * `text` is this response's whole body, as its stream would give it (UTF-8).
 * @param {Response} response
 * @param {string} text
 */
export function attachResponseText(response, text) {
  responseTexts.set(response, text);
}

/**
 * The body attached to this response, or undefined when it is to be read from its stream.
 * @param {Response} response
 * @returns {string | undefined}
 */
export function attachedResponseText(response) {
  return responseTexts.get(response);
}
