// A private database per run, on the local Postgres: created, migrated with the committed migrations,
// and dropped at the end. Databases left behind by a run that was killed (its pid is gone) are dropped
// at the start of the next one, as scripts/e2e-server.mjs does for the Playwright suite.
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";

import pg from "pg";

import { withSchemaEngine } from "../../scripts/prisma-engine.mjs";
import { onCleanup } from "./cleanup";
import { say } from "./log";
import { runToCompletion } from "./processes";

export const PROJECT_ROOT = resolve(import.meta.dirname, "../..");
const DATABASE_PREFIX = "holdfast_bench_";
export const ADMIN_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function dropAbandonedDatabases(): Promise<void> {
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${DATABASE_PREFIX}%`]);
    for (const { datname } of rows) {
      const pid = Number(/^holdfast_bench_(\d+)_/.exec(datname)?.[1]);
      if (!Number.isInteger(pid) || isAlive(pid)) continue;
      say(`dropping ${datname}, left behind by a run that was killed`);
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(datname)} WITH (FORCE)`);
    }
  });
}

/** Runs CHECKPOINT, so a measurement does not start with a backlog of dirty pages from the previous one. */
export async function checkpoint(): Promise<void> {
  await withAdminClient(async (client) => {
    await client.query("CHECKPOINT");
  });
}

/** Creates `holdfast_bench_<pid>_<random>`, registers its drop, and applies the migrations. */
export async function createMigratedDatabase(label: string): Promise<{ name: string; url: string }> {
  await dropAbandonedDatabases();
  const name = `${DATABASE_PREFIX}${process.pid}_${label}_${randomBytes(3).toString("hex")}`;
  await withAdminClient(async (client) => {
    await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
  });
  onCleanup(`drop database ${name}`, async () => {
    await withAdminClient(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
    });
    say(`dropped database ${name}`);
  });
  say(`created database ${name}; applying migrations (prisma migrate deploy)`);
  const url = withDatabase(ADMIN_DATABASE_URL, name);
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
