import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

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

/**
 * A page's staff check is read in either form, `requireStaff({ path, role, … })` or the exam pages'
 * `requireStaffExam(examId, role)`: each page below is a file of a throwaway app/ tree.
 */
describe("who a staff page is for", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  function whoMayOpen(pages: Record<string, string>): Record<string, string> {
    root = mkdtempSync(join(tmpdir(), "route-table-"));
    for (const [dir, source] of Object.entries(pages)) {
      mkdirSync(join(root, "app", dir), { recursive: true });
      writeFileSync(join(root, "app", dir, "page.tsx"), source);
    }
    return Object.fromEntries(pageRoles(root).map((page) => [page.path, page.who]));
  }

  it("reads requireStaff's role, scoped to one exam when the options name it", () => {
    expect(
      whoMayOpen({
        audit: `const staff = await requireStaff({ path: "/audit", role: "admin" });`,
        "deliveries/[deliveryId]": [
          "const staff = await requireStaff({",
          "  path: `/deliveries/${encodeURIComponent(deliveryId)}`,",
          '  role: "admin",',
          "});",
        ].join("\n"),
        grading: `const staff = await requireStaff({ path: "/grading", role: "grader" });`,
        "queue/[examId]": 'const staff = await requireStaff({ path: `/queue/${examId}`, role: "grader", examId });',
        "proctor/[examId]": 'const staff = await requireStaff({ path: `/proctor/${examId}`, role: "proctor" });',
      }),
    ).toEqual({
      "/audit": "admins; other staff are sent to their own home; no session: sign-in",
      "/deliveries/{deliveryId}": "admins; other staff are sent to their own home; no session: sign-in",
      "/grading": "graders and admins; other staff are sent to their own home; no session: sign-in",
      "/queue/{examId}":
        "admins and the graders assigned to this exam; other staff are sent to their own home; no session: sign-in",
      "/proctor/{examId}":
        "admins and the proctors assigned to this exam (another exam: 404); graders are sent to their own home; no session: sign-in",
    });
  });

  it("reads requireStaffExam's role, a grader's always scoped to the exam it names", () => {
    expect(
      whoMayOpen({
        "exams/[examId]/results": `const { exam } = await requireStaffExam(examId, "admin");`,
        "exams/[examId]/webhooks": `const [{ exam }, t] = await Promise.all([requireStaffExam(examId, "admin"), load()]);`,
        "exams/[examId]/grading": `const { staff, exam } = await requireStaffExam(examId, "grader");`,
      }),
    ).toEqual({
      "/exams/{examId}/results": "admins; other staff are sent to their own home; no session: sign-in",
      "/exams/{examId}/webhooks": "admins; other staff are sent to their own home; no session: sign-in",
      "/exams/{examId}/grading":
        "admins and the graders assigned to this exam; other staff are sent to their own home; no session: sign-in",
    });
  });

  it("refuses a staff check whose role it cannot read rather than calling the page open", () => {
    expect(() => whoMayOpen({ exams: `await requireStaffExam(examId, role);` })).toThrow(/without a literal role/);
    expect(() => whoMayOpen({ audit: `await requireStaff({ path: "/audit" });` })).toThrow(/without a literal role/);
  });
});
