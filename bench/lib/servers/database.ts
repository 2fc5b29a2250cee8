// A private database per run, on the local Postgres (or on a run's private cluster, given its admin URL):
// created, migrated with the committed migrations, and dropped at the end. Databases left behind by a run that was killed (its pid is gone) are dropped
// at the start of the next one, as scripts/e2e-server.mjs does for the Playwright suite.
import { join, resolve } from "node:path";

import { withSchemaEngine } from "../../../scripts/prisma-engine.mjs";
import { createScratchDatabase, dropDatabase, withAdminClient } from "../../../scripts/scratch-database.mjs";
import { onCleanup } from "../run/cleanup";
import { say } from "../run/log";
import { runToCompletion } from "./processes";

export const PROJECT_ROOT = resolve(import.meta.dirname, "../../..");
const DATABASE_PREFIX = "holdfast_bench_";

/** Runs CHECKPOINT, so a measurement does not start with a backlog of dirty pages from the previous one. */
export async function checkpoint(options: { adminUrl?: string } = {}): Promise<void> {
  await withAdminClient(async (client) => {
    await client.query("CHECKPOINT");
  }, options.adminUrl);
}

/**
 * Creates `holdfast_bench_<pid>_<label>_<random>` on the local Postgres, or on the server of `adminUrl`
 * (e.g. a private cluster's), registers its drop, and applies the migrations.
 */
export async function createMigratedDatabase(
  label: string,
  options: { adminUrl?: string } = {},
): Promise<{ name: string; url: string }> {
  const { name, url, abandoned } = await createScratchDatabase(DATABASE_PREFIX, label, options.adminUrl);
  for (const datname of abandoned) say(`dropped ${datname}, left behind by a run that was killed`);
  onCleanup(`drop database ${name}`, async () => {
    await dropDatabase(name, options.adminUrl);
    say(`dropped database ${name}`);
  });
  say(`created database ${name}; applying migrations (prisma migrate deploy)`);
  await runToCompletion({
    name: "prisma migrate deploy",
    command: process.execPath,
    args: [join(PROJECT_ROOT, "node_modules", "prisma", "build", "index.js"), "migrate", "deploy"],
    // The schema engine is chosen where every script chooses it (an offline stand-in where Prisma cannot download one).
    env: withSchemaEngine({ ...process.env, DATABASE_URL: url }),
    cwd: PROJECT_ROOT,
  });
  return { name, url };
}
