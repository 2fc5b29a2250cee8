// One worker of `npm start` (scripts/start.mjs forks one per core): Next.js as a custom server, except that
// the candidate's frequent requests (fast-routes.mjs: autosave, heartbeat, submit, and the start storm's join,
// start and live channel) are handed straight to their route handlers — the same built modules Next serves
// them from — without Next's routing and request plumbing, which cost more CPU than the handlers themselves
// (ADR 023, docs/benchmarks.md). Everything else, pages and every other API route, goes to Next as before.
// HOLDFAST_FAST_ROUTES=autosave,heartbeat,… takes only those (to measure one against the other).
//
// Arguments are `next start`'s (`start -p 3000 -H 0.0.0.0 --keepAliveTimeout 65000`); with any other option
// the worker runs Next's own CLI instead, as HOLDFAST_FAST_SYNC=0 does.
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzip } from "node:zlib";

import { attachedResponseText, attachRequestBody } from "../../lib/server/http/fast-path-bodies.mjs";
import { HTTPS_ONLY_HEADERS, SECURITY_HEADERS } from "../../lib/server/http/security-headers.mjs";
import {
  addForwardedDefaults,
  chosenFastRoutes,
  configuredHeaders,
  FAST_ROUTES,
  fastRouteFor,
  isGzipWanted,
  LISTEN_BACKLOG,
  parseStartArgs,
  preReadLength,
  readDeclaredBody,
  requestUrl,
} from "./fast-routes.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(import.meta.url);
const NEXT_BIN = join(root, "node_modules", "next", "dist", "bin", "next");
const gzipAsync = promisify(gzip);

/** @param {string} line */
function say(line) {
  console.log(`holdfast: ${line}`);
}

/** @param {string} message @param {unknown} [error] */
function logError(message, error) {
  console.error(
    JSON.stringify({
      time: new Date().toISOString(),
      level: "error",
      message,
      error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : error,
    }),
  );
}

/**
 * Loads each fast route's built handler from `.next/server` (Next's own copy, so both share every module:
 * the database pool, Redis, the session cache, the metrics). A route whose module is missing or not shaped
 * as expected is left to Next, with a line saying so.
 *
 * @param {string} distDir
 * @param {Set<string>} names the routes to take (HOLDFAST_FAST_ROUTES); the others are left to Next
 * @returns {Promise<(((request: Request, context: { params: Promise<unknown> }) => Promise<Response>) | undefined)[]>}
 */
async function loadHandlers(distDir, names) {
  const handlers = [];
  for (const fastRoute of FAST_ROUTES) {
    if (!names.has(fastRoute.name)) {
      handlers.push(undefined);
      continue;
    }
    let handler;
    try {
      const built = require(join(distDir, "server", fastRoute.module));
      const routeModule = built.routeModule;
      await routeModule.ensureUserland?.();
      handler = routeModule.userland?.[fastRoute.method];
    } catch (error) {
      logError(`fast path: could not load the ${fastRoute.name} route; Next.js answers it`, error);
    }
    if (typeof handler !== "function") {
      say(`the ${fastRoute.name} route is not where ADR 023 expects it in this build; Next.js answers it`);
      handlers.push(undefined);
    } else {
      handlers.push(handler);
    }
  }
  return handlers;
}

/**
 * @param {import("node:http").IncomingMessage} req
 * @param {string} url
 * @param {{ hostname: string; port: number }} server
 * @param {AbortSignal | undefined} signal aborted when the client goes away before the answer is written, as
 * Next's (only the live channel, a stream, listens to it)
 * @param {Buffer | undefined} bytes the body, already read (preReadLength), or undefined to stream it
 * @returns {Request}
 */
function toRequest(req, url, server, signal, bytes) {
  const headers = new Headers();
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    headers.append(req.rawHeaders[index] ?? "", req.rawHeaders[index + 1] ?? "");
  }
  addForwardedDefaults(headers, { ...server, remoteAddress: req.socket.remoteAddress });
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  if (bytes !== undefined) {
    // Beside the request, not in it (fast-path-bodies.mjs): readBodyBytes takes the bytes as they are.
    const request = new Request(url, { method: req.method, headers, signal });
    attachRequestBody(request, bytes);
    return request;
  }
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
 * An AbortSignal that aborts when the client goes away before the answer is written (the connection
 * closed), as Next.js gives its route handlers: the live channel ends its subscription on it.
 *
 * @param {import("node:http").ServerResponse} res
 * @returns {AbortSignal}
 */
function signalFromResponse(res) {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Writes a handler's response with the headers next.config.mjs would have added: in one go with its length
 * (the JSON answers are small), or, for a stream (the live channel), each chunk as it comes, waiting while
 * the client is slow so the stream's own queue counts what it has not taken (open-event-stream.ts), and
 * cancelled when the client leaves.
 *
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 * @param {boolean} isStream
 */
async function writeResponse(req, res, response, isStream) {
  if (isStream && response.body) {
    writeHead(req, res, response);
    res.flushHeaders();
    await pipeBody(res, response.body);
    return;
  }
  // A JSON answer's text is attached (fast-path-bodies.mjs); any other body is read from its stream.
  const text = attachedResponseText(response);
  let body = text !== undefined ? Buffer.from(text) : Buffer.from(await response.arrayBuffer());
  writeHead(req, res, response);
  const isGzipped = isGzipWanted({
    acceptEncoding: req.headers["accept-encoding"],
    contentType: response.headers.get("content-type"),
    contentEncoding: response.headers.get("content-encoding"),
    cacheControl: response.headers.get("cache-control"),
    length: body.length,
  });
  if (isGzipped) {
    body = await gzipAsync(body);
    res.setHeader("content-encoding", "gzip");
    res.setHeader(
      "vary",
      response.headers.has("vary") ? `${response.headers.get("vary")}, Accept-Encoding` : "Accept-Encoding",
    );
  }
  res.setHeader("content-length", body.length);
  res.end(body);
}

/**
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 */
function writeHead(req, res, response) {
  res.statusCode = response.status;
  for (const { key, value } of configuredHeaders(
    SECURITY_HEADERS,
    HTTPS_ONLY_HEADERS,
    req.headers["x-forwarded-proto"],
  )) {
    res.setHeader(key, value);
  }
  for (const [key, value] of response.headers) {
    if (key !== "set-cookie") res.setHeader(key, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
}

/**
 * @param {import("node:http").ServerResponse} res
 * @param {ReadableStream<Uint8Array>} body
 */
async function pipeBody(res, body) {
  const reader = body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => undefined);
  };
  res.once("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) {
        await new Promise((drained) => {
          const settle = () => {
            res.off("drain", settle);
            res.off("close", settle);
            drained(undefined);
          };
          res.once("drain", settle);
          res.once("close", settle);
        });
      }
    }
  } finally {
    res.off("close", cancel);
    if (res.destroyed) cancel();
    else res.end();
  }
}

/**
 * The one answer for a request the handler itself could not answer (it catches everything it knows of).
 * @param {import("node:http").ServerResponse} res
 */
function writeInternalError(res) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({
    error: { code: "INTERNAL", message: "Something went wrong on our side. Nothing you sent was lost; retry shortly." },
  });
  res.statusCode = 500;
  for (const { key, value } of SECURITY_HEADERS) res.setHeader(key, value);
  res.setHeader("content-type", "application/json");
  res.setHeader("content-length", Buffer.byteLength(body));
  res.end(body);
}

/** @param {readonly string[]} args */
async function runNextStart(args) {
  process.argv = [process.argv[0] ?? process.execPath, NEXT_BIN, "start", ...args];
  await import(NEXT_BIN);
}

async function main() {
  const given = process.argv.slice(2);
  const args = given[0] === "start" ? given.slice(1) : given;
  const chosen = chosenFastRoutes(process.env.HOLDFAST_FAST_ROUTES);
  if ("error" in chosen) {
    logError(`the worker could not start: ${chosen.error}`);
    process.exit(1);
  }
  const options =
    process.env.HOLDFAST_FAST_SYNC === "0" || chosen.names.size === 0 ? null : parseStartArgs(args, process.env);
  if (!options) {
    await runNextStart(args);
    return;
  }

  const { default: next } = await import("next");
  const dir = resolve(options.dir ?? ".");
  const app = next({ dev: false, dir, hostname: options.hostname, port: options.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const handlers = await loadHandlers(join(dir, ".next"), chosen.names);
  const shownHost = options.hostname ?? "localhost";
  const fallbackHost = `${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${options.port}`;
  const serverAddress = { hostname: shownHost, port: options.port };

  const server = createServer((req, res) => {
    const match = fastRouteFor(req.method, req.url);
    const handler = match ? handlers[match.index] : undefined;
    if (!match || !handler) {
      void handle(req, res);
      return;
    }
    const fastRoute = /** @type {import("./fast-routes.mjs").FastRoute} */ (FAST_ROUTES[match.index]);
    const url = requestUrl(/** @type {string} */ (req.url), req.headers.host, fallbackHost);
    const answer = (/** @type {Buffer | undefined} */ bytes) =>
      handler(toRequest(req, url, serverAddress, fastRoute.isStream ? signalFromResponse(res) : undefined, bytes), {
        params: Promise.resolve(match.params),
      })
        .then((response) => writeResponse(req, res, response, fastRoute.isStream))
        .catch((error) => {
          logError(`fast path: the ${fastRoute.name} route threw`, error);
          writeInternalError(res);
        });
    if (preReadLength(req.method, req.headers) === null) void answer(undefined);
    else
      // Rejects when the client goes away before its body arrived: nobody is left to answer.
      readDeclaredBody(req).then(answer, () => res.destroy());
  });
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;

  let isStopping = false;
  const stop = (/** @type {NodeJS.Signals} */ signal) => {
    if (isStopping) return;
    isStopping = true;
    server.close(() => {
      app
        .close()
        .catch((error) => logError("next.js did not close cleanly", error))
        .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
    });
    server.closeIdleConnections();
  };
  for (const signal of /** @type {const} */ (["SIGTERM", "SIGINT"])) process.on(signal, () => stop(signal));

  await new Promise((listening, failed) => {
    server.once("error", failed);
    // No hostname: every address, as `next start` listens. A long accept queue (LISTEN_BACKLOG): a storm's new
    // connections wait their turn instead of having their SYNs dropped.
    server.listen({ port: options.port, host: options.hostname, backlog: LISTEN_BACKLOG }, () => listening(undefined));
  });
  const served = handlers.filter(Boolean).length;
  say(
    `worker ${process.pid} answers on http://${fallbackHost} (${served} of ${FAST_ROUTES.length} candidate routes before Next.js: ${
      FAST_ROUTES.filter((_, index) => handlers[index])
        .map((route) => route.name)
        .join(", ") || "none"
    })`,
  );
}

main().catch((error) => {
  logError("the worker could not start", error);
  process.exit(1);
});
