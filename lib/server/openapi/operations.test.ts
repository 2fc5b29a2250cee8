import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

import { describe, expect, it } from "vitest";
import { z } from "zod";

import { API_ROUTE_MODULES } from "@/app/api/route-modules";

import { route, routeConfigOf } from "../http/route";
import { buildOpenApiDocument } from "./build-document";
import { API_METHODS, apiOperations, type ApiMethod } from "./operations";

/**
 * The document cannot miss a route: app/api/route-modules.ts (written by `node scripts/api-index.mjs`) lists
 * every route file found on disk, each handler a route file exports is made by `route()` with a `doc` (or is a
 * methodsNotAllowed stub), and the operations read from the configs are exactly those handlers. A new route
 * file that is not in the index, or a route without its documentation, fails here.
 */

const API_ROOT = join(process.cwd(), "app", "api");
/** The catch-all answers every unknown /api path with 404: not an operation. */
const NOT_OPERATIONS = new Set(["app/api/[...path]/route.ts"]);

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(path);
    return entry.name === "route.ts" ? [path] : [];
  });
}

/** app/api/admin/exams/[examId]/route.ts → /api/admin/exams/{examId} */
function openApiPath(file: string): string {
  const segments = relative(join(process.cwd(), "app"), file).split(sep).slice(0, -1);
  return `/${segments.map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}")).join("/")}`;
}

/** The methods a file hands to methodsNotAllowed(...): `export const { GET, PUT } = methodsNotAllowed("POST")`. */
function stubbedMethods(source: string): Set<string> {
  const match = source.match(/export const \{([^}]*)\}\s*=\s*methodsNotAllowed\(/);
  return new Set(match?.[1]?.split(",").map((name) => name.trim()) ?? []);
}

type RouteFile = { file: string; path: string; module: Record<string, unknown>; stubs: Set<string> };

async function routeFilesOnDisk(): Promise<RouteFile[]> {
  const files: RouteFile[] = [];
  for (const file of routeFiles(API_ROOT)) {
    const name = relative(process.cwd(), file).split(sep).join("/");
    if (NOT_OPERATIONS.has(name)) continue;
    const routeModule = (await import(file)) as Record<string, unknown>;
    files.push({
      file: name,
      path: openApiPath(file),
      module: routeModule,
      stubs: stubbedMethods(readFileSync(file, "utf8")),
    });
  }
  return files;
}

// Importing every route module takes seconds on a loaded machine.
describe("the API's operations, read from the routes", { timeout: 60_000 }, () => {
  it("app/api/route-modules.ts lists every route file, each under its path (node scripts/api-index.mjs)", async () => {
    const onDisk = await routeFilesOnDisk();
    expect(onDisk.length).toBeGreaterThan(60);
    const listed = API_ROUTE_MODULES.map((entry) => entry.path).sort();
    expect(listed, "stale index: run `node scripts/api-index.mjs` and commit app/api/route-modules.ts").toEqual(
      onDisk.map((route) => route.path).sort(),
    );
    for (const route of onDisk) {
      const entry = API_ROUTE_MODULES.find((candidate) => candidate.path === route.path);
      expect(entry?.module, `${route.file} is listed under another path`).toBe(route.module);
    }
  });

  it("finds every exported handler: made by route() with its doc, or a methodsNotAllowed stub", async () => {
    const handlers: string[] = [];
    for (const { file, path, module, stubs } of await routeFilesOnDisk()) {
      for (const method of API_METHODS) {
        if (module[method] === undefined || stubs.has(method)) continue;
        const config = routeConfigOf(module[method]);
        const where = `${method} ${path} (${file})`;
        expect(config, `${where} is not made with route()`).toBeDefined();
        expect(config?.doc, `${where}: its route() config has no doc`).toBeDefined();
        handlers.push(`${method} ${path}`);
      }
    }
    const operations = apiOperations(API_ROUTE_MODULES).map((op) => `${op.method} ${op.path}`);
    expect(handlers.length).toBeGreaterThan(80);
    expect(operations.sort()).toEqual(handlers.sort());
  });

  it("documents a body's other forms only where the route takes them", () => {
    for (const { path, module } of API_ROUTE_MODULES) {
      for (const method of API_METHODS) {
        const config = routeConfigOf((module as Record<ApiMethod, unknown>)[method]);
        if (!config?.doc) continue;
        const where = `${method} ${path}`;
        expect(Boolean(config.csv), `${where}: a text/csv body (csv ⇔ doc.csvBody)`).toBe(Boolean(config.doc.csvBody));
        expect(Boolean(config.zip), `${where}: an application/zip body (zip ⇔ doc.zipBody)`).toBe(
          Boolean(config.doc.zipBody),
        );
        const takesAnything = config.body instanceof z.ZodUnknown;
        expect(takesAnything, `${where}: doc.checkedBody is for a route that takes z.unknown()`).toBe(
          config.doc.checkedBody !== undefined,
        );
      }
    }
  });

  it("writes every operation into the document under its path and method, with a unique operationId", () => {
    const operations = apiOperations(API_ROUTE_MODULES);
    const written = Object.entries(buildOpenApiDocument(operations).paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(written).toEqual(operations.map((op) => `${op.method} ${op.path}`).sort());
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size, "operationIds are unique").toBe(ids.length);
  });

  it("refuses a route() handler without documentation rather than leave it out", () => {
    const documented = route(
      { access: "public", doc: { operationId: "probe", area: "operations", summary: "A probe", responses: {} } },
      async () => new Response(null, { status: 204 }),
    );
    const undocumented = route({ access: "public" }, async () => new Response(null, { status: 204 }));
    expect(apiOperations([{ path: "/api/probe", module: { GET: documented } }]).map((op) => op.operationId)).toEqual([
      "probe",
    ]);
    expect(() => apiOperations([{ path: "/api/probe", module: { GET: documented, POST: undocumented } }])).toThrow(
      "POST /api/probe: its route() config has no `doc`",
    );
  });
});
