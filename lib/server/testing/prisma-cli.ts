// Runs the Prisma CLI against a database. Used by test setup (Node side only, never by the app).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

const projectRoot = resolve(import.meta.dirname, "../../..");

/** The offline schema engine for machines that cannot download Prisma's (see README, "Air-gapped"). */
export function schemaEngineEnv(): Record<string, string> {
  if (process.env.PRISMA_SCHEMA_ENGINE_BINARY) return {};
  const sibling = resolve(projectRoot, "../shared/tools/prisma-engine/schema-engine.mjs");
  return existsSync(sibling) ? { PRISMA_SCHEMA_ENGINE_BINARY: sibling } : {};
}

export function migrateDeploy(databaseUrl: string): void {
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    cwd: projectRoot,
    env: { ...process.env, ...schemaEngineEnv(), DATABASE_URL: databaseUrl },
    stdio: "pipe",
  });
}
