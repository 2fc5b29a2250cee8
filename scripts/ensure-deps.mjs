// Makes `npm test` and `npm run demo` work on a fresh clone: installs dependencies when node_modules is
// missing or older than package-lock.json, and generates the Prisma client when it is missing.
// Uses only Node's standard library, because it runs before anything is installed.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { withSchemaEngine } from "./prisma-engine.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const marker = join(root, "node_modules", ".package-lock.json");
const lock = join(root, "package-lock.json");

/**
 * @param {string} command
 * @param {string[]} args
 */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: withSchemaEngine(process.env) });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const isStale = !existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs;
if (isStale) {
  console.log("holdfast: installing dependencies (npm ci)…");
  run("npm", ["ci", "--no-audit", "--no-fund"]);
}
if (!existsSync(join(root, "lib", "server", "db", "generated", "client.ts"))) {
  run(process.execPath, [join(root, "scripts", "prisma.mjs"), "generate"]);
}
