// One worker of `npm start` (scripts/start.mjs forks one per core): Next.js as a custom server, except that
// the candidate's frequent requests (fast-routes.mjs: autosave, heartbeat, submit, and the start storm's join,
// start and live channel) are handed straight to their route handlers — the same built modules Next serves
// them from — without Next's routing and request plumbing, which cost more CPU than the handlers themselves
// (ADR 023, docs/benchmarks/log/2026-12-03-sync-before-next-routing.md). Everything else, pages and every other API route, goes to Next as before.
// HOLDFAST_FAST_ROUTES=autosave,heartbeat,… takes only those (to measure one against the other);
// HOLDFAST_FAST_PATH_STRICT=1 makes a build without one of them a failed start, not a slower server (ADR 026).
//
// Arguments are `next start`'s (`start -p 3000 -H 0.0.0.0 --keepAliveTimeout 65000`); with any other option
// the worker runs Next's own CLI instead, as HOLDFAST_FAST_SYNC=0 does.
import { createServer } from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzip } from "node:zlib";

import { attachedResponseText } from "../../lib/server/http/fast-path-bodies.mjs";
import { headersFor } from "../../lib/server/http/security-headers.mjs";
import {
  chosenFastRoutes,
  FAST_PATH_HEADER,
  FAST_ROUTES,
  fastRouteFor,
  isGzipWanted,
  isStrictFastPath,
  LISTEN_BACKLOG,
  parseStartArgs,
  preReadLength,
  readDeclaredBody,
  toWebRequest,
} from "./fast-routes.mjs";
import { loadBuiltHandler } from "./next-build.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
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
 * Each fast route's built handler (next-build.mjs: Next's own copy, so both paths share every module — the
 * database pool, Redis, the session cache, the metrics), or undefined for a route left to Next: one not chosen
 * (HOLDFAST_FAST_ROUTES), or one the build does not have where ADR 023 expects it, which is said in a line and
 * listed in `missing` (a strict worker stops on it).
 *
 * @param {string} distDir
 * @param {Set<string>} names the routes to take (HOLDFAST_FAST_ROUTES); the others are left to Next
 * @returns {Promise<{ handlers: (import("./next-build.mjs").RouteHandler | undefined)[]; missing: string[] }>}
 */
async function loadHandlers(distDir, names) {
  const handlers = [];
  const missing = [];
  for (const fastRoute of FAST_ROUTES) {
    if (!names.has(fastRoute.name)) {
      handlers.push(undefined);
      continue;
    }
    const loaded = await loadBuiltHandler(distDir, fastRoute.dir, fastRoute.method);
    if ("handler" in loaded) {
      handlers.push(loaded.handler);
      continue;
    }
    if (loaded.error !== undefined) logError(`fast path: ${loaded.problem}`, loaded.error);
    say(
      `the ${fastRoute.name} route is not where ADR 023 expects it in this build (${loaded.problem}); Next.js answers it`,
    );
    handlers.push(undefined);
    missing.push(fastRoute.name);
  }
  return { handlers, missing };
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
 * @param {import("./fast-routes.mjs").FastRoute} fastRoute
 */
async function writeResponse(req, res, response, fastRoute) {
  if (fastRoute.isStream && response.body) {
    writeHead(req, res, response, fastRoute);
    res.flushHeaders();
    await pipeBody(res, response.body);
    return;
  }
  // A JSON answer's text is attached (fast-path-bodies.mjs); any other body is read from its stream.
  const text = attachedResponseText(response);
  let body = text !== undefined ? Buffer.from(text) : Buffer.from(await response.arrayBuffer());
  writeHead(req, res, response, fastRoute);
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
 * The status and headers: next.config.mjs's rules for this request (headersFor, the rules Next applies on its
 * path), the handler's own, and the fast path's diagnostic header (FAST_PATH_HEADER).
 *
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 * @param {import("./fast-routes.mjs").FastRoute} fastRoute
 */
function writeHead(req, res, response, fastRoute) {
  res.statusCode = response.status;
  for (const { key, value } of headersFor((name) => req.headers[name])) res.setHeader(key, value);
  res.setHeader(FAST_PATH_HEADER, fastRoute.name);
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
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {import("./fast-routes.mjs").FastRoute} fastRoute
 */
function writeInternalError(req, res, fastRoute) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({
    error: { code: "INTERNAL", message: "Something went wrong on our side. Nothing you sent was lost; retry shortly." },
  });
  res.statusCode = 500;
  for (const { key, value } of headersFor((name) => req.headers[name])) res.setHeader(key, value);
  res.setHeader(FAST_PATH_HEADER, fastRoute.name);
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
  const strictness = isStrictFastPath(process.env.HOLDFAST_FAST_PATH_STRICT);
  for (const problem of [
    "error" in chosen ? chosen.error : null,
    typeof strictness === "object" ? strictness.error : null,
  ]) {
    if (problem === null) continue;
    logError(`the worker could not start: ${problem}`);
    process.exit(1);
  }
  if ("error" in chosen) return;
  const isStrict = strictness === true;
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
  const { handlers, missing } = await loadHandlers(join(dir, ".next"), chosen.names);
  if (missing.length > 0 && isStrict) {
    // A build where Next moved what next-build.mjs reads: seen where it is tested, not found later in a profile.
    logError(
      `the worker could not start: HOLDFAST_FAST_PATH_STRICT=1 and the ${missing.join(", ")} route(s) would fall back to Next.js (scripts/start/next-build.mjs, ADR 026)`,
    );
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  const shownHost = options.hostname ?? "localhost";
  const fallbackHost = `${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${options.port}`;

  const server = createServer((req, res) => {
    const match = fastRouteFor(req.method, req.url);
    const handler = match ? handlers[match.index] : undefined;
    if (!match || !handler) {
      void handle(req, res);
      return;
    }
    const fastRoute = /** @type {import("./fast-routes.mjs").FastRoute} */ (FAST_ROUTES[match.index]);
    const answer = (/** @type {Buffer | undefined} */ bytes) =>
      handler(
        toWebRequest(req, {
          fallbackHost,
          hostname: shownHost,
          port: options.port,
          signal: fastRoute.isStream ? signalFromResponse(res) : undefined,
          bytes,
        }),
        // A route without dynamic segments gets no params, as under Next (next-build.int.test.ts).
        { params: Promise.resolve(fastRoute.params.length > 0 ? match.params : undefined) },
      )
        .then((response) => writeResponse(req, res, response, fastRoute))
        .catch((error) => {
          logError(`fast path: the ${fastRoute.name} route threw`, error);
          writeInternalError(req, res, fastRoute);
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
