import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

const shared = {
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${root}/` },
      // `server-only` throws outside React Server Components; tests import server code directly.
      { find: /^server-only$/, replacement: `${root}/test-support/server/server-only-stub.ts` },
    ],
  },
};

export default defineConfig({
  test: {
    // One worker per core (Vitest's default leaves one core free, which on a two-core CI box is one worker for
    // everything). The integration tests' global setup makes one database per worker from this number.
    maxWorkers: Math.max(1, availableParallelism()),
    projects: [
      {
        ...shared,
        test: {
          name: "unit",
          environment: "node",
          include: [
            "lib/**/*.test.ts",
            "app/**/*.test.ts",
            "components/**/*.test.ts",
            "bench/**/*.test.ts",
            "messages/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "node_modules/**", "lib/client/**"],
          setupFiles: ["test-support/server/unit-env.ts"],
        },
      },
      {
        ...shared,
        test: {
          name: "client",
          environment: "node",
          include: ["lib/client/**/*.test.ts"],
          setupFiles: ["test-support/client/setup.ts"],
        },
      },
      {
        ...shared,
        test: {
          name: "integration",
          environment: "node",
          include: ["lib/**/*.int.test.ts", "app/**/*.int.test.ts", "scripts/**/*.int.test.ts"],
          globalSetup: ["test-support/server/integration-global-setup.ts"],
          setupFiles: ["test-support/server/integration-env.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Files run side by side like the others', each worker on a database and a Redis database of its own
          // (integration-global-setup.ts): several assert that bad input left whole tables unchanged, which
          // another file writing in the same database would falsify. Races are raced inside a test.
        },
      },
    ],
  },
});
