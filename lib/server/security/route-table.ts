import "server-only";

import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

import type { Access } from "../http/route";
import type { ApiOperation } from "../openapi/operations";

/**
 * Who may call what, derived from the code: each API operation's access kind (the `access` its route passes
 * to `route()`, read by ../openapi/operations.ts from app/api/route-modules.ts) and its path, and each page's `requireStaff`
 * (or `requireStaffExam`) or candidate-session check. docs/security.md, "Who may call what", holds this table between markers;
 * route-table.test.ts fails when the two differ, and lib/server/security/route-roles.int.test.ts calls
 * every route as every caller and checks the answer against it. Rewrite the docs with
 * `node scripts/route-table.mjs`.
 */

export const CALLERS = ["anonymous", "candidate", "proctor", "grader", "admin", "apiToken", "metricsToken"] as const;
export type Caller = (typeof CALLERS)[number];

/**
 * - `any`: whatever ids the path names (an id that does not exist is 404);
 * - `scoped`: only ids of the caller's own attempt, or of the exams they are assigned to; another exam's or
 *   another candidate's ids answer as if they did not exist (404; a grader's another exam, 403 — below);
 * - `none`: refused before any lookup (401 without a session of the kind the route takes, 403 for the
 *   wrong staff role);
 * - `unlessMetricsToken`: open while METRICS_TOKEN is unset, `none` once it is set.
 */
export type Grant = "any" | "scoped" | "none" | "unlessMetricsToken";

export type RouteRoles = { operation: ApiOperation; grants: Record<Caller, Grant> };

const NONE: Record<Caller, Grant> = {
  anonymous: "none",
  candidate: "none",
  proctor: "none",
  grader: "none",
  admin: "none",
  apiToken: "none",
  metricsToken: "none",
};

/** What route() lets through for each access kind (lib/server/http/route.ts, resolvePrincipal). */
const GRANTS: Record<Access, Record<Caller, Grant>> = {
  public: {
    anonymous: "any",
    candidate: "any",
    proctor: "any",
    grader: "any",
    admin: "any",
    apiToken: "any",
    metricsToken: "any",
  },
  candidate: { ...NONE, candidate: "scoped" },
  // A staff session's own account; a bearer token is not a staff member.
  staff: { ...NONE, proctor: "scoped", grader: "scoped", admin: "scoped" },
  admin: { ...NONE, admin: "any", apiToken: "any" },
  proctor: { ...NONE, proctor: "scoped", admin: "any", apiToken: "any" },
  grader: { ...NONE, grader: "scoped", admin: "any", apiToken: "any" },
  operator: {
    anonymous: "unlessMetricsToken",
    candidate: "unlessMetricsToken",
    proctor: "unlessMetricsToken",
    grader: "unlessMetricsToken",
    admin: "any",
    apiToken: "any",
    metricsToken: "any",
  },
};

export function routeRoles(operations: readonly ApiOperation[]): RouteRoles[] {
  return [...operations]
    .sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method))
    .map((operation) => ({ operation, grants: GRANTS[operation.access] }));
}

const METHOD_ORDER = ["GET", "POST", "PUT", "PATCH", "DELETE"];

const CALLER_HEADINGS: Record<Caller, string> = {
  anonymous: "anonymous",
  candidate: "candidate",
  proctor: "proctor",
  grader: "grader",
  admin: "admin",
  apiToken: "API token",
  metricsToken: "metrics token",
};

/** The words a `scoped` cell says, by access kind. */
function scopeLabel(operation: ApiOperation): string {
  switch (operation.access) {
    case "candidate":
      return operation.path.includes("{attemptId}") ? "own attempt" : "own exam";
    case "staff":
      return "own account";
    case "proctor":
      return operation.path.includes("{") ? "assigned exams" : "assigned exams' files";
    case "grader":
      return "assigned exams";
    default:
      return "yes";
  }
}

function cell(grant: Grant, operation: ApiOperation): string {
  switch (grant) {
    case "any":
      return "yes";
    case "scoped":
      return scopeLabel(operation);
    case "unlessMetricsToken":
      return "until METRICS_TOKEN is set";
    case "none":
      return "—";
  }
}

function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((text, column) => text.padEnd(widths[column]!)).join(" | ")} |`;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

/** The API table: one row per operation, one column per caller. */
export function routeTableMarkdown(operations: readonly ApiOperation[]): string {
  const rows = routeRoles(operations).map(({ operation, grants }) => [
    operation.method,
    `\`${operation.path}\``,
    operation.access,
    ...CALLERS.map((caller) => cell(grants[caller], operation)),
  ]);
  return markdownTable(["method", "path", "access", ...CALLERS.map((caller) => CALLER_HEADINGS[caller])], rows);
}

export type PageRole = { path: string; file: string; who: string };

function pageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "api" && dir.endsWith(`${sep}app`) ? [] : pageFiles(path);
      return entry.name === "page.tsx" || entry.name === "route.ts" ? [path] : [];
    })
    .sort();
}

const STAFF_PAGE_ROLES: Record<string, string> = {
  admin: "admins; other staff are sent to their own home",
  proctor: "proctors and admins; graders are sent to their own home",
  proctorExam: "admins and the proctors assigned to this exam (another exam: 404); graders are sent to their own home",
  grader: "graders and admins; other staff are sent to their own home",
  gradingExam: "admins and the graders assigned to this exam; other staff are sent to their own home",
  any: "every staff member",
};

/**
 * A page's staff check with the role it asks for, in either form: `requireStaff({ path, role: "grader", … })`, or
 * the exam pages' `requireStaffExam(examId, "grader")` (app/admin/exams/[examId]/staff-exam.ts), which asks its
 * layout's check and whose first argument names the exam. The match runs on to the statement's end, so the options
 * that follow the role (`examId`) are in it.
 */
const STAFF_CHECK = /\brequireStaff(?<examForm>Exam)?\((?:\s*\w+,\s*|\{[^;]*?\brole: )"(?<role>\w+)"[^;]*/;

/**
 * Who a page (or the join link's route) is for, read from its source: its staff check (`requireStaff` or
 * `requireStaffExam`), or the candidate's session.
 */
function pageRole(source: string, path: string): string {
  const check = STAFF_CHECK.exec(source);
  if (check) {
    const { examForm, role: named = "" } = check.groups!;
    // A grader's check is for one exam when the call names it: the exam form always, requireStaff with its
    // `examId` option (a path naming the exam does not count).
    const isForOneExam = examForm !== undefined || /\bexamId\b/.test(check[0].replace(/path: `[^`]*`/, ""));
    const role =
      named === "grader" && isForOneExam
        ? "gradingExam"
        : named === "proctor" && path.includes("{examId}")
          ? "proctorExam"
          : named;
    const who = STAFF_PAGE_ROLES[role];
    if (!who) throw new Error(`staff check role "${role}" has no description`);
    return `${who}; no session: sign-in`;
  }
  // A check this pattern cannot read (no role, or a role that is not a literal) must not pass for an open page.
  if (/\brequireStaff(?:Exam)?\(/.test(source)) throw new Error(`a staff check without a literal role in ${path}`);
  if (/currentCandidate\(\)/.test(source)) {
    return "the candidate whose session (join link) names it; anyone else, another candidate included: 404";
  }
  if (/redeemJoinToken|joinToken/.test(source)) return "anyone holding a valid join link";
  return "anyone";
}

/** The pages (and the join link's route) under app/, each with who may open it. */
export function pageRoles(root = process.cwd()): PageRole[] {
  const appDir = join(root, "app");
  return pageFiles(appDir).map((file) => {
    const relativeFile = relative(root, file).split(sep).join("/");
    const path =
      "/" +
      relative(appDir, file)
        .split(sep)
        .slice(0, -1)
        .map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}"))
        .join("/");
    return { path, file: relativeFile, who: pageRole(readFileSync(file, "utf8"), path) };
  });
}

export function pageTableMarkdown(root = process.cwd()): string {
  return markdownTable(
    ["page", "who may open it"],
    pageRoles(root).map((page) => [`\`${page.path}\``, page.who]),
  );
}

export const ROUTES_START = "<!-- routes:start -->";
export const ROUTES_END = "<!-- routes:end -->";

/** What goes between the markers in docs/security.md. */
export function routesSection(operations: readonly ApiOperation[], root = process.cwd()): string {
  return [
    ROUTES_START,
    "<!-- Generated by `node scripts/route-table.mjs` from the routes' configs and the pages; do not edit by hand. -->",
    "",
    routeTableMarkdown(operations),
    "",
    pageTableMarkdown(root),
    "",
    ROUTES_END,
  ].join("\n");
}

/** The text of the docs' section between (and including) the markers, or undefined when they are missing. */
export function currentRoutesSection(markdown: string): string | undefined {
  const start = markdown.indexOf(ROUTES_START);
  const end = markdown.indexOf(ROUTES_END);
  if (start === -1 || end === -1 || end < start) return undefined;
  return markdown.slice(start, end + ROUTES_END.length);
}

export function withRoutesSection(markdown: string, operations: readonly ApiOperation[], root = process.cwd()): string {
  const current = currentRoutesSection(markdown);
  if (current === undefined) throw new Error(`docs/security.md has no ${ROUTES_START} … ${ROUTES_END} markers`);
  return markdown.replace(current, () => routesSection(operations, root));
}
