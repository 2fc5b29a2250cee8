// Runs the Prisma CLI against a database. Used by test setup (Node side only, never by the app).
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

const projectRoot = resolve(import.meta.dirname, "../..");

/** `prisma migrate deploy` through scripts/prisma.mjs, which picks the schema engine (README, "Air-gapped machines"). */
export function migrateDeploy(databaseUrl: string): void {
  execFileSync(process.execPath, [resolve(projectRoot, "scripts/prisma.mjs"), "migrate", "deploy"], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: "pipe",
  });
}
