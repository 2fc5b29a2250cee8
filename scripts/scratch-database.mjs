// Scratch databases for test and benchmark runs, on the local Postgres: one per run, named
// `<prefix><pid>_…`, dropped when the run ends — and, because a killed run cannot drop its own, dropped by
// the next run once the pid in the name is gone. Used by the integration tests' global setup, the e2e
// server (scripts/e2e-server.mjs) and the benchmarks (bench/lib/servers/database.ts). Plain ESM with JSDoc, so
// every one of them can import it. Every function works on the local Postgres by default, or on the server
// of another admin URL (a benchmark's private cluster, which it restarts under load).
import { randomBytes } from "node:crypto";

import pg from "pg";

/** The maintenance database scratch databases are created from (TEST_DATABASE_ADMIN_URL). */
export const adminDatabaseUrl = process.env.TEST_DATABASE_ADMIN_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

/** @param {string} name */
function quoteIdentifier(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The admin URL pointed at another database.
 * @param {string} name
 * @param {string} [adminUrl]
 */
export function databaseUrl(name, adminUrl = adminDatabaseUrl) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * @template T
 * @param {(client: pg.Client) => Promise<T>} work
 * @param {string} [adminUrl]
 * @returns {Promise<T>}
 */
export async function withAdminClient(work, adminUrl = adminDatabaseUrl) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * Whether a name made by `scratchName` (or any `<prefix><pid>…` name) belongs to a process that is gone.
 * @param {string} name
 * @param {string} prefix
 */
export function ownerIsGone(name, prefix) {
  const pid = Number(name.slice(prefix.length).split(/[_-]/)[0]);
  return Number.isInteger(pid) && pid > 0 && !isAlive(pid);
}

/**
 * `<prefix><pid>_<label>_<random>` (the label is optional).
 * @param {string} prefix
 * @param {string} [label]
 */
export function scratchName(prefix, label) {
  return `${prefix}${process.pid}_${label ? `${label}_` : ""}${randomBytes(3).toString("hex")}`;
}

/**
 * @param {string} name
 * @param {string} [adminUrl]
 * @param {string} [template] a database to copy (no one may be connected to it): its tables and rows come along,
 *   so a migrated database is copied in a moment instead of migrated again
 * @returns {Promise<void>}
 */
export async function createDatabase(name, adminUrl = adminDatabaseUrl, template) {
  await withAdminClient(async (client) => {
    const from = template ? ` TEMPLATE ${quoteIdentifier(template)}` : "";
    await client.query(`CREATE DATABASE ${quoteIdentifier(name)}${from}`);
  }, adminUrl);
}

/**
 * @param {string} name
 * @param {string} [adminUrl]
 * @returns {Promise<void>}
 */
export async function dropDatabase(name, adminUrl = adminDatabaseUrl) {
  await withAdminClient(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
  }, adminUrl);
}

/**
 * Drops the `<prefix>…` databases whose run was killed; returns their names.
 * @param {string} prefix
 * @param {string} [adminUrl]
 * @returns {Promise<string[]>}
 */
export async function dropAbandonedDatabases(prefix, adminUrl = adminDatabaseUrl) {
  return withAdminClient(async (client) => {
    const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${prefix}%`]);
    /** @type {string[]} */
    const dropped = [];
    for (const { datname } of /** @type {{ datname: string }[]} */ (rows)) {
      if (!ownerIsGone(datname, prefix)) continue;
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(datname)} WITH (FORCE)`);
      dropped.push(datname);
    }
    return dropped;
  }, adminUrl);
}

/**
 * Drops the abandoned databases of `prefix`, then creates a fresh one for this run.
 * @param {string} prefix
 * @param {string} [label]
 * @param {string} [adminUrl]
 * @returns {Promise<{ name: string; url: string; abandoned: string[] }>}
 */
export async function createScratchDatabase(prefix, label, adminUrl = adminDatabaseUrl) {
  const abandoned = await dropAbandonedDatabases(prefix, adminUrl);
  const name = scratchName(prefix, label);
  await createDatabase(name, adminUrl);
  return { name, url: databaseUrl(name, adminUrl), abandoned };
}
