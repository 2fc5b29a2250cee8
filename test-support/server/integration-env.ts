// Runs before each integration test file is imported: the env module parses process.env at import.
import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.APP_SECRET ??= "integration-test-secret-integration-test-secret";
process.env.ADMIN_API_TOKEN ??= "integration-test-admin-token-0123456789";
process.env.APP_URL ??= "http://holdfast.test";
process.env.REDIS_URL ??= process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
process.env.DATABASE_POOL_MAX ??= "20";
// Every in-process sign-in comes from the same (unknown) address; the limit itself is tested with its own.
process.env.SIGN_IN_LIMIT_PER_ADDRESS ??= "100000";
// Tests race endpoints with bursts on purpose, and module loading stalls the event loop: admission control
// is off here; its own tests give route() a controller with bounds (lib/server/limits/admission*.test.ts).
process.env.ADMISSION_MAX_IN_FLIGHT ??= "0";
process.env.ADMISSION_MAX_EVENT_LOOP_DELAY_MS ??= "0";
