// Runs before each integration test file is imported: the env module parses process.env at import.
import { inject } from "vitest";

// The worker's own database and Redis database (integration-global-setup.ts): files in other workers write
// at the same time, and several tests assert that a whole table, or a cluster-wide Redis counter, did not move.
const worker = Number(process.env.VITEST_POOL_ID ?? "1");
const databaseUrls = inject("databaseUrls");
const databaseUrl = databaseUrls[worker - 1];
if (!databaseUrl) throw new Error(`no database for worker ${worker} (${databaseUrls.length} made)`);
process.env.DATABASE_URL = databaseUrl;
if (!process.env.REDIS_URL) {
  // Redis's numbered databases (0–15 by default) keep the workers' keys apart; pub/sub channels are shared by
  // every database, and every channel name carries an exam's id, which is the worker's own.
  const redis = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
  if (redis.pathname === "" || redis.pathname === "/") redis.pathname = `/${worker}`;
  process.env.REDIS_URL = redis.toString();
}
process.env.APP_SECRET ??= "integration-test-secret-integration-test-secret";
process.env.ADMIN_API_TOKEN ??= "integration-test-admin-token-0123456789";
process.env.APP_URL ??= "http://holdfast.test";
process.env.DATABASE_POOL_MAX ??= "20";
// Every in-process sign-in comes from the same (unknown) address; the limit itself is tested with its own.
process.env.SIGN_IN_LIMIT_PER_ADDRESS ??= "100000";
// Tests race endpoints with bursts on purpose, and module loading stalls the event loop: admission control
// is off here; its own tests give route() a controller with bounds (lib/server/limits/admission*.test.ts).
process.env.ADMISSION_MAX_IN_FLIGHT ??= "0";
process.env.ADMISSION_MAX_EVENT_LOOP_DELAY_MS ??= "0";
