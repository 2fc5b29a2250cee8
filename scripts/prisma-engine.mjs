// Where the Prisma CLI finds its schema engine. The CLI downloads a native one from Prisma's own host,
// which machines that reach only the npm registry cannot reach; this workspace ships a stand-in beside
// the project (../shared/tools/prisma-engine, see README "Air-gapped machines"). One place decides,
// for every script that runs the CLI: an engine the user chose wins, then the stand-in, then Prisma's
// own download.
import { existsSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** @returns {string | undefined} the engine to use, or undefined to let Prisma download its own */
export function schemaEngine() {
  if (process.env.PRISMA_SCHEMA_ENGINE_BINARY) return process.env.PRISMA_SCHEMA_ENGINE_BINARY;
  const offline = resolve(projectRoot, "..", "shared", "tools", "prisma-engine", "schema-engine.mjs");
  return existsSync(offline) ? realpathSync(offline) : undefined;
}

/**
 * `env` plus PRISMA_SCHEMA_ENGINE_BINARY when there is an engine to point at.
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv}
 */
export function withSchemaEngine(env) {
  const engine = schemaEngine();
  return engine ? { ...env, PRISMA_SCHEMA_ENGINE_BINARY: engine } : { ...env };
}
