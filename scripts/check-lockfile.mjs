// Supply chain, part 2 (docs/security.md, "Supply chain"): package-lock.json pins every package to the
// bytes that were reviewed.
//
// 1. Every installed package has an `integrity` that is a SHA-512 (npm refuses a tarball that does not match).
// 2. No package comes from anywhere but the registry npm is configured with: a `resolved` that is a git URL,
//    a tarball on another host or a local path fails. npm leaves `resolved` out for the configured registry
//    (omit-lockfile-registry-resolved), so a missing one means "from the registry"; one that is present must
//    be on the configured registry's origin.
// 3. package.json's dependencies and devDependencies are the ones the lockfile's root records, with the same
//    ranges. (`npm ci` also refuses a lockfile out of step with package.json; this says which entry, earlier.)
//
// Plain Node ESM; checkLockfile is exported for scripts/check-lockfile.test.ts.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * @param {any} lock package-lock.json (lockfileVersion 2 or 3)
 * @param {any} pkg package.json
 * @param {{ registry: string }} options the registry URL npm is configured with
 * @returns {string[]} problems, empty when the lockfile is sound
 */
export function checkLockfile(lock, pkg, options) {
  /** @type {string[]} */
  const problems = [];
  if (!lock || typeof lock.packages !== "object")
    return ["package-lock.json has no `packages` (lockfileVersion 2 or 3 needed)"];
  const registryOrigin = new URL(options.registry).origin;

  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === "") continue;
    // A workspace link points into this repository; a bundled package ships inside its parent's tarball.
    if (entry.link || entry.inBundle) continue;
    if (typeof entry.integrity !== "string" || !entry.integrity.startsWith("sha512-")) {
      problems.push(`${path}: integrity is ${entry.integrity ? "not SHA-512" : "missing"}`);
    }
    if (entry.resolved !== undefined) {
      let origin = "";
      try {
        const url = new URL(entry.resolved);
        origin = url.protocol === "https:" ? url.origin : "";
      } catch {
        origin = "";
      }
      if (origin !== registryOrigin) problems.push(`${path}: resolved from ${entry.resolved}, not the registry`);
    }
  }

  const recorded = lock.packages[""] ?? {};
  for (const field of ["dependencies", "devDependencies", "optionalDependencies"]) {
    const declared = pkg[field] ?? {};
    const locked = recorded[field] ?? {};
    for (const name of new Set([...Object.keys(declared), ...Object.keys(locked)])) {
      if (declared[name] !== locked[name]) {
        problems.push(
          `${field}.${name}: package.json has ${declared[name] ?? "nothing"}, the lockfile ${locked[name] ?? "nothing"}`,
        );
      } else if (!lock.packages[`node_modules/${name}`]) {
        problems.push(`${field}.${name}: not installed by the lockfile`);
      }
    }
  }
  return problems;
}

function main() {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const registry = execFileSync("npm", ["config", "get", "registry"], { cwd: root, encoding: "utf8" }).trim();
  const problems = checkLockfile(lock, pkg, { registry });
  for (const problem of problems) console.error(`lockfile: FAIL ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(
    `lockfile: ${Object.keys(lock.packages).length - 1} packages, each with a SHA-512 integrity, none from elsewhere`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
