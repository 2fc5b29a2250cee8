// Integration tests run against real PostgreSQL and Redis, never mocks. Each run creates its own
// database, migrates it, and drops it at the end (a killed run's database is dropped by the next run),
// so runs never share rows.
import type { TestProject } from "vitest/node";

import { createScratchDatabase, dropDatabase } from "../../scripts/scratch-database.mjs";
import { migrateDeploy } from "./prisma-cli";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { name, url } = await createScratchDatabase("holdfast_it_");
  migrateDeploy(url);
  project.provide("databaseUrl", url);

  return async () => {
    await dropDatabase(name);
  };
}
