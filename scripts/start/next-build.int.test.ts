// The fast path against a real `next build` of the installed Next.js (ADR 026). A small app with one echo
// handler in each fast route's folder (FAST_ROUTES) is built in a scratch folder under .holdfast/; then:
// 1. next-build.mjs finds every handler where the worker looks, and each answers;
// 2. a worker in strict mode serves every fast route itself, and each handler sees the request Next.js would
//    have given it (a worker with HOLDFAST_FAST_SYNC=0 is Next's own `next start` on the same build), and each
//    answer carries the headers Next's answer carries (next.config.mjs's rules, the handler's own);
// 3. a build where a route's module is not where the worker looks stops a strict worker with a line naming the
//    route, and leaves a lenient one serving through Next.
// A Next.js upgrade that moves what the worker reads fails here, and in the e2e suite's strict server.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import { createServer } from "node:net";
import { join, relative, resolve } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FAST_ROUTES, type FastRoute } from "./fast-routes.mjs";
import { loadBuiltHandler } from "./next-build.mjs";

const root = resolve(__dirname, "..", "..");
const NEXT_BIN = join(root, "node_modules", "next", "dist", "bin", "next");
const WORKER = join(root, "scripts", "start", "worker.mjs");
const ATTEMPT = "0b8e5639-5278-4fc8-8be6-44c853991670";
const EXAM = "0c9f1e2a-7b3d-4e5f-8a6b-1c2d3e4f5a6b";

/**
 * An echo of what the handler was given: where the request went, its headers and body (the bytes the worker
 * read go beside the request, fast-path-bodies.mjs, as the app's readBodyBytes takes them), the route's params;
 * answered with headers of its own and two cookies.
 */
function echoRoute(method: string, bodiesModule: string): string {
  return `import { attachedRequestBody } from ${JSON.stringify(bodiesModule)};

export async function ${method}(request, context) {
  const attached = attachedRequestBody(request);
  const body = attached ? new TextDecoder().decode(attached) : request.body ? await request.text() : null;
  const echo = {
    method: request.method,
    url: request.url,
    headers: Object.fromEntries(request.headers),
    body,
    params: await context.params,
  };
  const headers = new Headers({ "x-echo": "yes", "cache-control": "no-store" });
  headers.append("set-cookie", "a=1; Path=/; HttpOnly");
  headers.append("set-cookie", "b=2; Path=/");
  return Response.json(echo, { status: 201, headers });
}
`;
}

let appDir = "";
const children: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

type Worker = { port: number; output: () => string; exited: Promise<number | null> };

/** scripts/start/worker.mjs on the scratch app's build, as `npm start` runs each worker. */
async function startWorker(env: Record<string, string>): Promise<Worker> {
  const port = await freePort();
  const child = spawn(process.execPath, [WORKER, "start", appDir, "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: appDir,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { port, output: () => output, exited };
}

/** Waits until the worker answers on its port; throws with its output if it stopped first. */
async function ready(worker: Worker): Promise<void> {
  let exitCode: number | null | undefined;
  void worker.exited.then((code) => (exitCode = code));
  for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
    if (exitCode !== undefined) throw new Error(`the worker exited (${exitCode}):\n${worker.output()}`);
    try {
      await send(worker.port, "GET", "/nothing-here", {});
      return;
    } catch {
      await new Promise((wait) => setTimeout(wait, 250));
    }
  }
  throw new Error(`the worker did not answer within 3 minutes:\n${worker.output()}`);
}

type Answer = { status: number; headers: IncomingHttpHeaders; text: string };

/** One request through node:http, which sends the Host given (fetch would not). */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolveAnswer, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.once("end", () =>
        resolveAnswer({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          text: Buffer.concat(chunks).toString(),
        }),
      );
      incoming.once("error", reject);
    });
    outgoing.once("error", reject);
    outgoing.end(body);
  });
}

/** A fast route's path with example params: its folder under app/, `[attemptId]` and `[examId]` filled in. */
function pathOf(route: FastRoute): string {
  return route.dir.replace(/^app/, "").replace("[attemptId]", ATTEMPT).replace("[examId]", EXAM);
}

/**
 * What a handler saw, without what differs only by design: the port each server listens on, and the URL's host
 * (Next puts its own listening address there, the fast path the client's Host; no handler reads it).
 */
function seen(answer: Answer, port: number) {
  const echo = JSON.parse(answer.text) as { url: string; headers: Record<string, string> };
  expect(echo.headers["x-forwarded-port"]).toBe(String(port));
  delete echo.headers["x-forwarded-port"];
  const url = new URL(echo.url);
  return { ...echo, url: `${url.protocol} ${url.pathname}${url.search}` };
}

beforeAll(async () => {
  mkdirSync(join(root, ".holdfast"), { recursive: true });
  appDir = mkdtempSync(join(root, ".holdfast", "next-build-test-"));
  writeFileSync(join(appDir, "package.json"), JSON.stringify({ private: true, type: "module" }));
  const rules = relative(appDir, join(root, "lib/server/http/security-headers.mjs"));
  writeFileSync(
    join(appDir, "next.config.mjs"),
    `import { HEADER_RULES } from ${JSON.stringify(rules)};\n` +
      "export default { poweredByHeader: false, headers: async () => [...HEADER_RULES] };\n",
  );
  for (const route of FAST_ROUTES) {
    const folder = join(appDir, route.dir);
    mkdirSync(folder, { recursive: true });
    const bodies = relative(folder, join(root, "lib/server/http/fast-path-bodies.mjs"));
    writeFileSync(join(folder, "route.js"), echoRoute(route.method, bodies));
  }
  writeFileSync(
    join(appDir, "app", "layout.js"),
    "export default function Layout({ children }) { return children; }\n",
  );
  const build = spawn(process.execPath, [NEXT_BIN, "build"], {
    cwd: appDir,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(build);
  let output = "";
  build.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  build.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((done) => build.once("exit", done));
  if (code !== 0) throw new Error(`next build failed (${code}):\n${output}`);
  // About 30 s on a quiet box; many minutes when other builds share its cores.
}, 900_000);

afterAll(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGTERM");
  if (appDir) rmSync(appDir, { recursive: true, force: true });
});

describe("the fast path on a real next build", () => {
  it("finds every fast route's handler where the worker looks, and each answers", async () => {
    for (const route of FAST_ROUTES) {
      const loaded = await loadBuiltHandler(join(appDir, ".next"), route.dir, route.method);
      if (!("handler" in loaded)) throw new Error(`${route.name}: ${loaded.problem}`);
      const response = await loaded.handler(
        new Request(`http://exam.example.org${pathOf(route)}`, { method: route.method }),
        {
          params: Promise.resolve({ attemptId: ATTEMPT }),
        },
      );
      expect(response.status, route.name).toBe(201);
      expect(await response.json(), route.name).toMatchObject({ method: route.method, params: { attemptId: ATTEMPT } });
    }
  });

  it("serves every fast route itself, handing each handler the request Next.js would, with Next's headers on the answer", async () => {
    const fast = await startWorker({ HOLDFAST_FAST_PATH_STRICT: "1" });
    // Next's path in the same worker: a route the worker is not told to take goes to Next's request handler.
    const nextForAllButJoin = await startWorker({ HOLDFAST_FAST_ROUTES: "join" });
    const nextForJoin = await startWorker({ HOLDFAST_FAST_ROUTES: "autosave" });
    await Promise.all([ready(fast), ready(nextForAllButJoin), ready(nextForJoin)]);
    expect(fast.output()).toContain(`${FAST_ROUTES.length} of ${FAST_ROUTES.length} candidate routes before Next.js`);

    const differences: unknown[] = [];
    for (const route of FAST_ROUTES) {
      const next = route.name === "join" ? nextForJoin : nextForAllButJoin;
      for (const proto of [undefined, "https"]) {
        const body = route.method === "POST" ? JSON.stringify({ answer: "ARP", 字: "答" }) : undefined;
        const headers: Record<string, string> = {
          host: "exam.example.org",
          cookie: "hf_candidate=abc",
          "user-agent": "holdfast-test",
          "accept-encoding": "identity",
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }),
          ...(proto === undefined ? {} : { "x-forwarded-proto": proto, "x-forwarded-for": "198.51.100.7" }),
        };
        const what = `${route.name} ${proto ?? "plain"}`;
        const fastAnswer = await send(fast.port, route.method, `${pathOf(route)}?probe=1`, headers, body);
        const nextAnswer = await send(next.port, route.method, `${pathOf(route)}?probe=1`, headers, body);

        expect(fastAnswer.headers["x-holdfast-fast-path"], what).toBe(route.name);
        expect(nextAnswer.headers["x-holdfast-fast-path"], what).toBeUndefined();
        const names = [
          "content-type",
          "cache-control",
          "x-echo",
          "set-cookie",
          "content-security-policy",
          "x-frame-options",
          "referrer-policy",
          "x-content-type-options",
          "permissions-policy",
          "strict-transport-security",
        ];
        const pick = (answer: Answer) => Object.fromEntries(names.map((name) => [name, answer.headers[name]]));
        const fastSide = { status: fastAnswer.status, seen: seen(fastAnswer, fast.port), headers: pick(fastAnswer) };
        const nextSide = { status: nextAnswer.status, seen: seen(nextAnswer, next.port), headers: pick(nextAnswer) };
        try {
          expect(fastSide).toEqual(nextSide);
        } catch {
          differences.push({ what, fast: fastSide, next: nextSide });
        }
        expect(fastAnswer.headers["strict-transport-security"] !== undefined, what).toBe(proto === "https");
      }
    }
    expect(differences).toEqual([]);
  }, 600_000);

  it("stops a strict worker on a build without a fast route's module, naming the route; a lenient one serves on", async () => {
    const heartbeat = FAST_ROUTES.find((route) => route.name === "heartbeat")!;
    const built = join(appDir, ".next", "server", heartbeat.dir, "route.js");
    renameSync(built, `${built}.moved`);
    try {
      const strict = await startWorker({ HOLDFAST_FAST_PATH_STRICT: "1" });
      expect(await strict.exited).toBe(1);
      expect(strict.output()).toMatch(/HOLDFAST_FAST_PATH_STRICT=1 and the heartbeat route\(s\) would fall back/);

      const lenient = await startWorker({});
      await ready(lenient);
      expect(lenient.output()).toContain("the heartbeat route is not where ADR 023 expects it in this build");
      expect(lenient.output()).toContain(`${FAST_ROUTES.length - 1} of ${FAST_ROUTES.length} candidate routes`);
    } finally {
      renameSync(`${built}.moved`, built);
    }
  }, 600_000);
});
