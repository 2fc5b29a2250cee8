import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

import { describe, expect, it } from "vitest";
import { z } from "zod";

import { routeConfigOf } from "../http/route";
import { buildOpenApiDocument } from "./build-document";
import { API_OPERATIONS, type ApiMethod } from "./registry";

/**
 * The document cannot drift from the routes: every handler exported by an app/api route file has exactly
 * one registry entry, every entry has its handler, and the entry names the route's own access, params and
 * body (the same schema constants, compared by identity). A new route without an entry fails here.
 */

const API_ROOT = join(process.cwd(), "app", "api");
const METHODS: ApiMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
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

type Handler = { file: string; path: string; method: ApiMethod; handler: unknown };

async function exportedHandlers(): Promise<Handler[]> {
  const handlers: Handler[] = [];
  for (const file of routeFiles(API_ROOT)) {
    const name = relative(process.cwd(), file).split(sep).join("/");
    if (NOT_OPERATIONS.has(name)) continue;
    const stubs = stubbedMethods(readFileSync(file, "utf8"));
    const routeModule = (await import(file)) as Record<string, unknown>;
    for (const method of METHODS) {
      if (routeModule[method] === undefined || stubs.has(method)) continue;
      handlers.push({ file: name, path: openApiPath(file), method, handler: routeModule[method] });
    }
  }
  return handlers;
}

// Importing every route module takes seconds on a loaded machine.
describe("the API registry", { timeout: 60_000 }, () => {
  it("has one entry for every route handler, and a handler for every entry", async () => {
    const handlers = await exportedHandlers();
    const routes = handlers.map((h) => `${h.method} ${h.path}`).sort();
    const registered = API_OPERATIONS.map((op) => `${op.method} ${op.path}`).sort();

    expect(routes.length).toBeGreaterThan(20);
    expect(new Set(registered).size, "an operation is registered twice").toBe(registered.length);
    expect(registered, "registry (right) vs route files (left): register or remove the difference").toEqual(routes);
  });

  it("names the route's own access, params and body schema", async () => {
    for (const { file, path, method, handler } of await exportedHandlers()) {
      const operation = API_OPERATIONS.find((op) => op.method === method && op.path === path);
      const config = routeConfigOf(handler);
      const where = `${method} ${path} (${file})`;
      expect(config, `${where} is not made with route()`).toBeDefined();
      if (!operation || !config) continue;

      expect(config.access, where).toBe(operation.access);
      expect(config.params, `${where}: params`).toBe(operation.params);
      expect(Boolean(config.isBodyOptional), `${where}: isBodyOptional`).toBe(Boolean(operation.isBodyOptional));
      expect(Boolean(config.limit), `${where}: rate limit`).toBe(Boolean(operation.isRateLimited));
      expect(Boolean(config.csv), `${where}: a text/csv body (csvBody)`).toBe(Boolean(operation.csvBody));
      expect(Boolean(config.zip), `${where}: an application/zip body (zipBody)`).toBe(Boolean(operation.zipBody));
      expect(Boolean(config.allowsPendingPasswordChange), `${where}: allowsPendingPasswordChange`).toBe(
        Boolean(operation.allowsPendingPasswordChange),
      );
      if (operation.bodyCheckedBy === "operation") {
        expect(config.body, `${where}: the operation checks the body, so the route takes z.unknown()`).toBeInstanceOf(
          z.ZodUnknown,
        );
        expect(operation.body, `${where}: name the schema the operation checks`).toBeDefined();
      } else {
        expect(config.body, `${where}: body`).toBe(operation.body);
      }
    }
  });

  it("writes every operation into the document under its path and method", () => {
    const document = buildOpenApiDocument();
    const written = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(written).toEqual(API_OPERATIONS.map((op) => `${op.method} ${op.path}`).sort());
    const ids = API_OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size, "operationIds are unique").toBe(ids.length);
  });
});
