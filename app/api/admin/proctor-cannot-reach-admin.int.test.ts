/**
 * A proctor can never reach an admin action, route by route.
 *
 * Every route file under app/api/admin is found on disk, so a route added later is walked too. Each of its
 * methods is called with a signed-in proctor's cookie, made-up ids for its path segments, and an empty JSON
 * body: a method the route has answers 403 FORBIDDEN (the role check comes before the body's fields and
 * before any lookup); a method it lacks answers 405. Every route must have at least one method that
 * answered 403, so the walk cannot pass by finding nothing. The one deliberate exception is listed below with
 * its reason; its operation scopes what a proctor may do.
 */
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

import { beforeAll, describe, expect, it } from "vitest";

import { createStaff, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

const adminDir = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("../../..", import.meta.url));
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Admin-path methods a proctor may call on purpose, and why. */
const OPEN_TO_PROCTORS: Record<string, { method: string; why: string }> = {
  "app/api/admin/emergency-exports/route.ts": {
    method: "POST",
    why: "proctors in the exam hall upload a candidate's emergency file; only files of their own exams apply",
  },
};

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(path);
    return entry.name === "route.ts" ? [path] : [];
  });
}

const routes = routeFiles(adminDir).map((file) => relative(root, file).split(sep).join("/"));

describe("a proctor session on every admin route", () => {
  let cookie = "";
  beforeAll(async () => {
    const proctor = await createStaff("proctor");
    cookie = await signIn(proctor.email, proctor.password);
  });

  it("finds the admin routes", () => {
    expect(routes.length).toBeGreaterThanOrEqual(6);
    expect(routes).toContain("app/api/admin/staff/route.ts");
    expect(routes).toContain("app/api/admin/attempts/[attemptId]/reopen/route.ts");
  });

  it.each(routes)("%s", async (file) => {
    const routeModule = (await import(/* @vite-ignore */ join(root, file))) as Record<string, unknown>;
    const segments = file
      .replace(/^app/, "")
      .replace(/\/route\.ts$/, "")
      .split("/");
    const params: Record<string, string> = {};
    const path = segments
      .map((segment) => {
        const name = segment.match(/^\[(\w+)\]$/)?.[1];
        if (!name) return segment;
        // A well-formed id of its kind, so the route gets as far as the role check (a delivery's id is its
        // webhook-id, `msg_` + 32 hex digits; every other id is a UUID).
        params[name] = name === "deliveryId" ? `msg_${randomUUID().replaceAll("-", "")}` : randomUUID();
        return params[name];
      })
      .join("/");
    let refused = 0;
    for (const method of METHODS) {
      const handler = routeModule[method];
      if (typeof handler !== "function") continue;
      const response = await call(handler as Parameters<typeof call>[0], {
        method,
        path,
        params,
        cookie,
        ...(method === "GET" || method === "DELETE" ? {} : { json: {} }),
      });
      if (response.status === 405) continue;
      if (OPEN_TO_PROCTORS[file]?.method === method) {
        expect(response.body?.error?.code, "an open route must not answer FORBIDDEN").not.toBe("FORBIDDEN");
        refused += 1;
        continue;
      }
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(403);
      expect(response.body.error.code).toBe("FORBIDDEN");
      refused += 1;
    }
    expect(refused, `${file} has no method that answered`).toBeGreaterThan(0);
  });
});
