// `node scripts/prisma.mjs <args>`: the Prisma CLI with the schema engine chosen by prisma-engine.mjs.
// package.json's postinstall, db:generate and db:migrate go through it, so they work on machines that
// cannot download Prisma's engine.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

import { projectRoot, withSchemaEngine } from "./prisma-engine.mjs";

const cli = join(projectRoot, "node_modules", "prisma", "build", "index.js");
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
  cwd: projectRoot,
  stdio: "inherit",
  env: withSchemaEngine(process.env),
});
process.exit(result.status ?? 1);
