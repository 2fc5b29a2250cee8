import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { API_ROUTE_MODULES } from "@/app/api/route-modules";

import { apiOperations } from "../openapi/operations";
import { currentRoutesSection, pageRoles, routeRoles, routesSection } from "./route-table";

/**
 * docs/security.md's "Who may call what" is generated from the code (route-table.ts) and must be current: a
 * route or page added, removed or given another access kind fails here until the docs are rewritten with
 * `node scripts/route-table.mjs`.
 */
describe("the route/role table in docs/security.md", () => {
  const docs = readFileSync(join(process.cwd(), "docs", "security.md"), "utf8");
  const operations = apiOperations(API_ROUTE_MODULES);

  it("is the one the code generates", () => {
    const current = currentRoutesSection(docs);
    expect(current, "docs/security.md lacks the <!-- routes:start --> … <!-- routes:end --> markers").toBeDefined();
    expect(current, "stale: run `node scripts/route-table.mjs` and commit docs/security.md").toBe(
      routesSection(operations),
    );
  });

  it("has a row for every operation of the routes", () => {
    const rows = routeRoles(operations).map(({ operation }) => `${operation.method} ${operation.path}`);
    expect(rows.length).toBeGreaterThanOrEqual(80);
    expect(new Set(rows)).toEqual(new Set(operations.map((op) => `${op.method} ${op.path}`)));
    const section = routesSection(operations);
    for (const row of rows) expect(section).toContain(`\`${row.split(" ")[1]}\``);
  });

  it("never lets a caller without a session reach a non-public route", () => {
    for (const { operation, grants } of routeRoles(operations)) {
      if (operation.access === "public" || operation.access === "operator") continue;
      expect(grants.anonymous, `${operation.method} ${operation.path}`).toBe("none");
      expect(grants.metricsToken, `${operation.method} ${operation.path}`).toBe("none");
    }
  });

  it("finds every staff page behind requireStaff and every candidate page behind the candidate's session", () => {
    const pages = pageRoles();
    expect(pages.length).toBeGreaterThanOrEqual(25);
    for (const page of pages) {
      if (/^\/(admin|proctor|grading|account)(\/|$)/.test(page.path)) {
        expect(page.who, `${page.file} opens to anyone`).toMatch(/no session: sign-in$/);
      }
      if (/^\/(attempts|exam)\//.test(page.path)) expect(page.who, page.file).toMatch(/^the candidate/);
    }
  });
});
