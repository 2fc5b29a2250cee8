// Which requests a worker of `npm start` answers itself, before Next.js's routing (ADR 023), and the small
// decisions around them. Plain Node (no TypeScript, no dependencies), like the rest of scripts/start; the
// worker (worker.mjs) does the I/O, and next-build.mjs alone knows where a build keeps the handlers.
import { Readable } from "node:stream";

import { attachRequestBody } from "../../lib/server/http/fast-path-bodies.mjs";

/**
 * The candidate's requests a worker answers itself (ADR 023): the sync requests, many per candidate per
 * minute, each a small JSON body in and out; and the start storm's three (join with the token, start the
 * attempt, open the live channel), every candidate at once in the exam's first minute. Their route handlers are
 * the very ones Next.js serves (the built module of each route's folder `dir`, loaded by next-build.mjs), called
 * with the same `Request` and params; only Next's routing and request/response plumbing are skipped. `isStream`:
 * the answer is a stream that stays open (the channel), written as it comes and ended when the client leaves.
 * Everything else stays with Next.
 *
 * @typedef {{ name: string; method: string; path: RegExp; params: readonly string[]; dir: string; isStream: boolean }} FastRoute
 * @type {readonly FastRoute[]}
 */
export const FAST_ROUTES = [
  {
    name: "autosave",
    method: "POST",
    path: /^\/api\/attempts\/([^/%]+)\/answers$/,
    params: ["attemptId"],
    dir: "app/api/attempts/[attemptId]/answers",
    isStream: false,
  },
  {
    name: "heartbeat",
    method: "POST",
    path: /^\/api\/attempts\/([^/%]+)\/heartbeat$/,
    params: ["attemptId"],
    dir: "app/api/attempts/[attemptId]/heartbeat",
    isStream: false,
  },
  {
    name: "submit",
    method: "POST",
    path: /^\/api\/attempts\/([^/%]+)\/submit$/,
    params: ["attemptId"],
    dir: "app/api/attempts/[attemptId]/submit",
    isStream: false,
  },
  {
    name: "join",
    method: "POST",
    path: /^\/api\/session$/,
    params: [],
    dir: "app/api/session",
    isStream: false,
  },
  {
    name: "start",
    method: "POST",
    path: /^\/api\/exams\/([^/%]+)\/attempts$/,
    params: ["examId"],
    dir: "app/api/exams/[examId]/attempts",
    isStream: false,
  },
  {
    name: "channel",
    method: "GET",
    path: /^\/api\/attempts\/([^/%]+)\/events$/,
    params: ["attemptId"],
    dir: "app/api/attempts/[attemptId]/events",
    isStream: true,
  },
];

/**
 * The diagnostic header on every answer the worker writes itself, naming the fast route (`autosave`, `submit`,
 * …); an answer from Next.js has none. Not part of the sync protocol (docs/sync-protocol.md, "Diagnostic
 * headers"): the e2e suite reads it to prove the candidate's requests took the fast path, and an operator can
 * see the same with curl.
 */
export const FAST_PATH_HEADER = "X-Holdfast-Fast-Path";

/**
 * Whether a worker must refuse to start when a chosen fast route cannot be taken from the build (next-build.mjs
 * found no handler): `HOLDFAST_FAST_PATH_STRICT=1`. The e2e server and the benchmarks set it, so a Next.js upgrade
 * that moves what the worker reads fails `.ci/run` instead of quietly costing the speed (ADR 026); production
 * leaves it unset and keeps serving through Next.
 *
 * @param {string | undefined} setting
 * @returns {boolean | { error: string }}
 */
export function isStrictFastPath(setting) {
  const value = setting?.trim() ?? "";
  if (value === "" || value === "0") return false;
  if (value === "1") return true;
  return { error: `HOLDFAST_FAST_PATH_STRICT is "${setting}"; it takes 1 (strict) or 0` };
}

/**
 * Which fast routes this worker takes: all of them, or those `HOLDFAST_FAST_ROUTES` names (a comma list of
 * FAST_ROUTES names; "none" for none). An unknown name is an error, said at start, so a typo never silently
 * measures the wrong thing.
 *
 * @param {string | undefined} setting
 * @returns {{ names: Set<string> } | { error: string }}
 */
export function chosenFastRoutes(setting) {
  const all = FAST_ROUTES.map((route) => route.name);
  if (setting === undefined || setting.trim() === "" || setting.trim() === "all") return { names: new Set(all) };
  if (setting.trim() === "none") return { names: new Set() };
  const names = setting.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !all.includes(name));
  if (unknown.length > 0) {
    return { error: `HOLDFAST_FAST_ROUTES names ${unknown.join(", ")}; known: ${all.join(", ")}, all, none` };
  }
  return { names: new Set(names) };
}

/**
 * The fast route for a request, with its params as Next.js would give them, or null (Next answers). A path
 * with a `%` anywhere goes to Next (proxy.ts answers paths whose encoding does not decode); so does a
 * trailing slash (Next redirects it) and every other method (Next answers 405 through the route's own
 * `methodsNotAllowed`, and HEAD as it does).
 *
 * @param {string | undefined} method
 * @param {string | undefined} url the request target, path and query
 * @returns {{ index: number; params: Record<string, string> } | null}
 */
export function fastRouteFor(method, url) {
  if (method === undefined || url === undefined || !url.startsWith("/api/")) return null;
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  for (let index = 0; index < FAST_ROUTES.length; index += 1) {
    const route = /** @type {FastRoute} */ (FAST_ROUTES[index]);
    if (route.method !== method) continue;
    const match = route.path.exec(path);
    if (!match) continue;
    /** @type {Record<string, string>} */
    const params = {};
    for (let group = 0; group < route.params.length; group += 1) {
      const value = match[group + 1];
      if (value === undefined) return null;
      params[/** @type {string} */ (route.params[group])] = value;
    }
    return { index, params };
  }
  return null;
}

/**
 * Bodies up to this size (declared in `Content-Length`) are read by the worker before the handler runs and handed to
 * it as bytes: a Web `Request` over a Node stream (`Readable.toWeb`, `duplex: "half"`) costs more CPU than the small
 * JSON it carries (docs/benchmarks/log/2026-12-03-where-the-time-goes.md). The handler's own size cap is larger
 * (1 MiB, read-json-body.ts) and applies to these bytes as to a stream; a body without a length, or longer than this,
 * is streamed to the handler as before.
 */
export const PRE_READ_MAX_BYTES = 64 * 1024;

/**
 * The length of a body the worker reads before its handler runs, or null to stream it: only a POST (the
 * fast routes' one method with a body) whose `Content-Length` is a plain decimal within PRE_READ_MAX_BYTES,
 * and without `Transfer-Encoding` (Node refuses a request with both; this does not rely on it).
 *
 * @param {string | undefined} method
 * @param {import("node:http").IncomingHttpHeaders} headers
 * @returns {number | null}
 */
export function preReadLength(method, headers) {
  if (method !== "POST" || headers["transfer-encoding"] !== undefined) return null;
  const declared = headers["content-length"];
  if (declared === undefined || !/^\d{1,10}$/.test(declared)) return null;
  const length = Number(declared);
  return length <= PRE_READ_MAX_BYTES ? length : null;
}

/**
 * The body of a request whose length preReadLength accepted, as one Buffer: its chunks gathered as they arrive
 * (usually one). Not node:stream/consumers' `buffer()`, which for the same bytes goes through an async iterator and a
 * `Blob` (made transferable on Node 20) and copies them twice: about 12 µs more CPU per request
 * (docs/benchmarks/log/2026-12-05-intel-box.md). Node's parser ends the stream at `Content-Length`; a client that
 * goes away first rejects it, as it did `buffer()`.
 *
 * @param {import("node:http").IncomingMessage} req
 * @returns {Promise<Buffer>}
 */
export function readDeclaredBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    const onData = (/** @type {Buffer} */ chunk) => chunks.push(chunk);
    const settle = (/** @type {Error | null} */ error) => {
      req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]) : Buffer.concat(chunks));
    };
    const onEnd = () => settle(null);
    const onError = (/** @type {Error} */ error) => settle(error);
    // A request destroyed without an error (its socket closed before the body ended) emits only "close".
    const onClose = () => settle(new Error("the request closed before its body ended"));
    req.on("data", onData).once("end", onEnd).once("error", onError).once("close", onClose);
  });
}

/**
 * The listening socket's accept queue. Node's default (511) overflows when a deadline storm opens a few
 * thousand connections within seconds: the kernel then drops their SYNs, and each client's kernel resends after
 * 1, 3, 7 and 15 s — seconds of waiting that no admission control sees, for a request the instance would have
 * answered (or refused with a Retry-After) in milliseconds. Linux caps it at `net.core.somaxconn` (4096 by
 * default since 5.4).
 */
export const LISTEN_BACKLOG = 4096;

/**
 * `next start`'s own arguments as scripts/start.mjs and the harnesses pass them on (`[directory] -p 3000
 * -H 0.0.0.0 --keepAliveTimeout 65000`; `--port=3000` too). Returns null for anything else (`--inspect`,
 * `--experimental-cpu-prof`, a second directory, a port that is not one): then the worker is Next's own
 * `next start`, which knows them all and says what is wrong.
 *
 * @param {readonly string[]} args without the leading `start`
 * @param {Record<string, string | undefined>} env
 * @returns {{ dir: string | undefined; port: number; hostname: string | undefined; keepAliveTimeout: number | undefined } | null}
 */
export function parseStartArgs(args, env) {
  /** @type {string | undefined} */
  let dir;
  /** @type {string | undefined} */
  let port = env.PORT;
  /** @type {string | undefined} */
  let hostname;
  /** @type {string | undefined} */
  let keepAliveTimeout;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? "";
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = equals === -1 ? arg : arg.slice(0, equals);
    const value = () => (equals === -1 ? args[(index += 1)] : arg.slice(equals + 1));
    if (flag === "-p" || flag === "--port" || flag === "-H" || flag === "--hostname" || flag === "--keepAliveTimeout") {
      const given = value();
      if (given === undefined) return null;
      if (flag === "-p" || flag === "--port") port = given;
      else if (flag === "--keepAliveTimeout") keepAliveTimeout = given;
      else hostname = given;
    } else if (!arg.startsWith("-") && dir === undefined) dir = arg;
    else return null;
  }
  const portNumber = port === undefined || port === "" ? 3000 : wholeNumber(port);
  const keepAlive = keepAliveTimeout === undefined ? undefined : wholeNumber(keepAliveTimeout);
  if (portNumber === null || portNumber > 65_535 || keepAlive === null) return null;
  if (hostname !== undefined && hostname.trim() === "") return null;
  return { dir, port: portNumber, hostname, keepAliveTimeout: keepAlive };
}

/** @param {string | undefined} text @returns {number | null} */
function wholeNumber(text) {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
}

/**
 * The URL a route handler sees: the request target, with the scheme Next.js gives it (`https:` when
 * `X-Forwarded-Proto` contains "https", as Next's `attachRequestMeta` decides; the session cookie's `Secure`
 * reads it), on the `Host` the client used. Next puts its own listening address there instead (a loopback one
 * as `localhost`); no handler reads the URL's host, only its path, query and scheme, which are the same on
 * both paths (next-build.int.test.ts). A `Host` that is not a host falls back to the address the worker
 * listens on.
 *
 * @param {string} target path and query
 * @param {string | undefined} host the `Host` header
 * @param {string} fallbackHost
 * @param {string | string[] | undefined} [forwardedProto] the `X-Forwarded-Proto` header
 * @returns {string}
 */
export function requestUrl(target, host, fallbackHost, forwardedProto) {
  const scheme = typeof forwardedProto === "string" && forwardedProto.includes("https") ? "https" : "http";
  if (host !== undefined && /^[A-Za-z0-9.\-[\]:]+$/.test(host)) {
    try {
      return new URL(target, `${scheme}://${host}`).href;
    } catch {
      // fall through
    }
  }
  return new URL(target, `${scheme}://${fallbackHost}`).href;
}

/**
 * The Web `Request` a fast route's handler gets: the one the worker builds, as Next.js builds it for the same
 * handler on its own path (next-build.int.test.ts compares what a handler sees on both) — the target with
 * Next's scheme on the client's `Host` (requestUrl), every header as sent, the `X-Forwarded-*` defaults (addForwardedDefaults), and
 * the body streamed, or, when the worker read it first (preReadLength), attached beside the request as bytes
 * (fast-path-bodies.mjs).
 *
 * @param {import("node:http").IncomingMessage} req
 * @param {{ fallbackHost: string; hostname: string; port: number; signal?: AbortSignal; bytes?: Buffer }} options
 * `signal` aborts when the client goes away before the answer is written (the live channel listens to it)
 * @returns {Request}
 */
export function toWebRequest(req, options) {
  const url = requestUrl(req.url ?? "/", req.headers.host, options.fallbackHost, req.headers["x-forwarded-proto"]);
  const headers = new Headers();
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    headers.append(req.rawHeaders[index] ?? "", req.rawHeaders[index + 1] ?? "");
  }
  addForwardedDefaults(headers, {
    hostname: options.hostname,
    port: options.port,
    remoteAddress: req.socket.remoteAddress,
  });
  const { signal, bytes } = options;
  if (bytes !== undefined) {
    // Beside the request, not in it (fast-path-bodies.mjs): readBodyBytes takes the bytes as they are.
    const request = new Request(url, { method: req.method, headers, signal });
    attachRequestBody(request, bytes);
    return request;
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  // `duplex: "half"`: a streamed request body (undici requires it; not in TypeScript's RequestInit yet).
  const init = /** @type {RequestInit} */ ({
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: hasBody ? "half" : undefined,
    signal,
  });
  return new Request(url, init);
}

/**
 * The `X-Forwarded-*` headers Next.js gives every request it hands a route when the client sent none
 * (next/dist/server/base-server.js): the handlers read `X-Forwarded-Proto` and `X-Forwarded-For`, and must
 * see what they would see under Next. A header the client or a proxy sent is kept as it is.
 *
 * @param {{ has(name: string): boolean; set(name: string, value: string): void; get(name: string): string | null }} headers
 * @param {{ hostname: string; port: number; remoteAddress: string | undefined }} server
 */
export function addForwardedDefaults(headers, server) {
  if (!headers.has("x-forwarded-host")) headers.set("x-forwarded-host", headers.get("host") ?? server.hostname);
  if (!headers.has("x-forwarded-port")) headers.set("x-forwarded-port", String(server.port));
  if (!headers.has("x-forwarded-proto")) headers.set("x-forwarded-proto", "http");
  if (!headers.has("x-forwarded-for") && server.remoteAddress) headers.set("x-forwarded-for", server.remoteAddress);
}

/**
 * Whether to gzip a handler's answer, as Next.js's compression does for the routes it serves (the `compression`
 * middleware's rules): 1 kB or more, a JSON or text body not already encoded, no `Cache-Control: no-transform`,
 * and a client that accepts gzip (`Accept-Encoding`, a q of 0 refusing it). A start's answer carries the whole
 * paper; on a weak network its size matters.
 *
 * @param {{ acceptEncoding: string | undefined; contentType: string | null; contentEncoding: string | null; cacheControl: string | null; length: number }} answer
 * @returns {boolean}
 */
export function isGzipWanted(answer) {
  if (answer.length < 1024 || answer.contentEncoding) return false;
  if (answer.cacheControl && /(^|,)\s*no-transform\s*(,|$)/i.test(answer.cacheControl)) return false;
  if (!answer.contentType || !/^\s*(application\/json|text\/)/i.test(answer.contentType)) return false;
  let isAccepted = false;
  for (const part of (answer.acceptEncoding ?? "").split(",")) {
    const [coding = "", ...params] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (coding !== "gzip" && coding !== "*") continue;
    const quality = params.find((param) => param.startsWith("q="));
    const isRefused = quality !== undefined && Number(quality.slice(2)) === 0;
    if (coding === "gzip") return !isRefused;
    isAccepted = !isRefused;
  }
  return isAccepted;
}
