// Integration tests run against real PostgreSQL and Redis, never mocks. Each run creates its own
// database, migrates it, and drops it at the end (a killed run's database is dropped by the next run),
// so runs never share rows.
//
// Test files run side by side, one per worker (vitest.config.ts, `maxWorkers`), and several assert that bad
// input left whole tables unchanged, which another file writing at the same time would falsify. So each worker
// has a database of its own: the migrated one is copied once per worker (CREATE DATABASE … TEMPLATE, a
// moment each), and integration-env.ts picks the copy of the worker it runs in (VITEST_POOL_ID, 1…maxWorkers).
import type { TestProject } from "vitest/node";

import { createDatabase, createScratchDatabase, databaseUrl, dropDatabase } from "../../scripts/scratch-database.mjs";
import { migrateDeploy } from "./prisma-cli";

declare module "vitest" {
  export interface ProvidedContext {
    /** One database per worker: the worker with VITEST_POOL_ID n uses the n-th. */
    databaseUrls: string[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { name, url } = await createScratchDatabase("holdfast_it_");
  const copies: string[] = [];
  try {
    migrateDeploy(url);
    const workers = Math.max(1, Number(project.globalConfig.maxWorkers) || 1);
    for (let worker = 1; worker <= workers; worker += 1) {
      // The owner's pid stays first in the name, so a killed run's copies are dropped like its database.
      const copy = `${name}_w${worker}`;
      await createDatabase(copy, undefined, name);
      copies.push(copy);
    }
  } catch (error) {
    for (const copy of [...copies, name]) await dropDatabase(copy);
    throw error;
  }
  project.provide(
    "databaseUrls",
    copies.map((copy) => databaseUrl(copy)),
  );

  return async () => {
    for (const copy of [...copies, name]) await dropDatabase(copy);
  };
}
