// Supply chain, part 1 (docs/security.md, "Supply chain"): fails on a known high or critical advisory in a
// runtime dependency, unless a reviewed, unexpired exception in security/audit-exceptions.json names it.
//
// 1. Runs `npm audit --omit=dev --audit-level=high --json` (dev dependencies never reach a server).
// 2. Every advisory of severity high or critical must be named by an exception (its `source` id or its URL,
//    and the vulnerable package). Unlisted: fail. Listed: pass, and printed, so it stays visible.
// 3. Every exception must be well formed and unexpired: an expired one fails even if nothing matches it any
//    more, so the list is reviewed rather than left to rot.
// 4. The registry's audit endpoint may be out of reach (offline CI, a mirror without it). That is said in
//    one clear line and passes, unless AUDIT_REQUIRED=1, when it fails: a release build sets it.
//
// Plain Node ESM; the functions are exported for scripts/audit.test.ts (fixture audit reports).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BLOCKING = new Set(["high", "critical"]);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * @typedef {{ advisory: string | number; package: string; reason: string; reviewedBy: string; reviewedOn: string; expires: string }} AuditException
 * @typedef {{ id: string; url: string; package: string; severity: string; title: string }} Advisory
 */

/**
 * The problems of an exceptions file's entries (malformed, or expired on `today`, a YYYY-MM-DD string).
 * @param {unknown} file
 * @param {string} today
 * @returns {{ exceptions: AuditException[]; problems: string[] }}
 */
export function readExceptions(file, today) {
  /** @type {string[]} */
  const problems = [];
  const list = /** @type {{ exceptions?: unknown }} */ (file ?? {}).exceptions;
  if (!Array.isArray(list)) return { exceptions: [], problems: ["audit-exceptions.json: `exceptions` must be a list"] };
  /** @type {AuditException[]} */
  const exceptions = [];
  list.forEach((raw, index) => {
    const entry = /** @type {Record<string, unknown>} */ (raw ?? {});
    const name = `exception ${index + 1} (${String(entry.advisory ?? "?")}, ${String(entry.package ?? "?")})`;
    const missing = ["advisory", "package", "reason", "reviewedBy", "reviewedOn", "expires"].filter(
      (key) => entry[key] === undefined || entry[key] === "",
    );
    if (missing.length > 0) return problems.push(`${name}: missing ${missing.join(", ")}`);
    if (!DATE.test(String(entry.reviewedOn)) || !DATE.test(String(entry.expires))) {
      return problems.push(`${name}: reviewedOn and expires must be YYYY-MM-DD`);
    }
    if (String(entry.expires) < today) {
      return problems.push(`${name}: expired on ${String(entry.expires)}; review it again (new expiry) or remove it`);
    }
    exceptions.push(/** @type {AuditException} */ (/** @type {unknown} */ (entry)));
  });
  return { exceptions, problems };
}

/**
 * The high and critical advisories of an `npm audit --json` report (auditReportVersion 2), one per
 * advisory and vulnerable package.
 * @param {unknown} report
 * @returns {Advisory[]}
 */
export function blockingAdvisories(report) {
  const vulnerabilities = /** @type {{ vulnerabilities?: Record<string, { via?: unknown[] }> }} */ (report ?? {})
    .vulnerabilities;
  /** @type {Map<string, Advisory>} */
  const found = new Map();
  for (const vulnerability of Object.values(vulnerabilities ?? {})) {
    for (const via of vulnerability.via ?? []) {
      // A string names another vulnerable package whose own entry lists the advisory.
      if (typeof via !== "object" || via === null) continue;
      const advisory =
        /** @type {{ source?: unknown; url?: unknown; name?: unknown; severity?: unknown; title?: unknown }} */ (via);
      const severity = String(advisory.severity ?? "");
      if (!BLOCKING.has(severity)) continue;
      const item = {
        id: String(advisory.source ?? ""),
        url: String(advisory.url ?? ""),
        package: String(advisory.name ?? ""),
        severity,
        title: String(advisory.title ?? ""),
      };
      found.set(`${item.id}|${item.url}|${item.package}`, item);
    }
  }
  return [...found.values()];
}

/**
 * Whether the report is an answer about vulnerabilities at all (and not the error npm prints when the
 * registry's audit endpoint cannot be reached).
 * @param {unknown} report
 */
export function isAuditAnswer(report) {
  return typeof report === "object" && report !== null && "vulnerabilities" in report;
}

/**
 * @param {unknown} report
 * @param {unknown} exceptionsFile
 * @param {string} today YYYY-MM-DD
 * @returns {{ failures: string[]; accepted: string[] }}
 */
export function evaluateAudit(report, exceptionsFile, today) {
  const { exceptions, problems } = readExceptions(exceptionsFile, today);
  const failures = [...problems];
  /** @type {string[]} */
  const accepted = [];
  for (const advisory of blockingAdvisories(report)) {
    const label = `${advisory.severity} ${advisory.package}: ${advisory.title} (${advisory.url || advisory.id})`;
    const exception = exceptions.find(
      (entry) =>
        entry.package === advisory.package &&
        (String(entry.advisory) === advisory.id || (advisory.url !== "" && entry.advisory === advisory.url)),
    );
    if (exception) accepted.push(`${label}: accepted until ${exception.expires} (${exception.reason})`);
    else failures.push(`${label}: not in security/audit-exceptions.json`);
  }
  return { failures, accepted };
}

function main() {
  const required = process.env.AUDIT_REQUIRED === "1";
  const today = new Date().toISOString().slice(0, 10);
  const exceptionsFile = JSON.parse(readFileSync(join(root, "security", "audit-exceptions.json"), "utf8"));
  const run = spawnSync("npm", ["audit", "--omit=dev", "--audit-level=high", "--json"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  /** @type {unknown} */
  let report = null;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = null;
  }
  if (!isAuditAnswer(report)) {
    // The exceptions are still checked: an expired one fails whether or not the endpoint answers.
    const { problems } = readExceptions(exceptionsFile, today);
    const why = (run.stderr || run.stdout || String(run.error ?? "")).split("\n").find((line) => line.trim()) ?? "";
    console.error(
      `audit: the registry's audit endpoint could not be reached, so no advisory was checked (${why.trim()}).`,
    );
    for (const problem of problems) console.error(`audit: FAIL ${problem}`);
    if (required) console.error("audit: AUDIT_REQUIRED=1, so this fails.");
    else console.error("audit: passing without it; set AUDIT_REQUIRED=1 to fail instead.");
    process.exit(required || problems.length > 0 ? 1 : 0);
  }
  const { failures, accepted } = evaluateAudit(report, exceptionsFile, today);
  for (const line of accepted) console.log(`audit: ${line}`);
  for (const line of failures) console.error(`audit: FAIL ${line}`);
  if (failures.length > 0) process.exit(1);
  console.log("audit: no unaccepted high or critical advisory in runtime dependencies");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
