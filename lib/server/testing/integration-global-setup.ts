// Integration tests run against real PostgreSQL and Redis, never mocks. Each run creates its own
// database, migrates it, and drops it at the end, so runs never share rows.
import { randomBytes } from "node:crypto";

import pg from "pg";
import type { TestProject } from "vitest/node";

import { migrateDeploy } from "./prisma-cli";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

function databaseUrlFor(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const name = `holdfast_it_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}"`));
  const databaseUrl = databaseUrlFor(name);
  migrateDeploy(databaseUrl);
  project.provide("databaseUrl", databaseUrl);

  return async () => {
    await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  };
}
