// The one place that reads process.env. Imported by next.config.mjs, so a bad environment stops
// `next build` / `next start` with a list of what is wrong, before any request is served.
//
// This file is plain ESM (not TypeScript, no `import "server-only"`) because next.config.mjs and the
// scripts load it under plain Node. It still belongs to the server room: never import it from client code.
import { z } from "zod";

const DEV_SECRET = "holdfast-development-secret-do-not-use-in-production";

const booleanString = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/**
 * A whole number between `min` and `max`; unset or empty (`NAME=` as `.env.example` ships it) means `fallback`.
 * @param {number} min
 * @param {number} max
 * @param {number} fallback
 */
const wholeNumber = (min, max, fallback) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(min).max(max).default(fallback));

/** Every variable Holdfast reads. `.env.example` documents each of them. */
const EnvSchema = z
  .object({
    /** development | test | production. Next.js sets it; production makes APP_SECRET mandatory. */
    NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
    /** PostgreSQL connection string. The source of truth for every guarantee. */
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL"),
    /** Connections in this instance's pool. */
    DATABASE_POOL_MAX: wholeNumber(1, 200, 10),
    /** Redis for locks, rate limits and live fan-out. Unset: try redis://127.0.0.1:6379, else single-instance mode. */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /** How many app instances share this database. More than 1 requires Redis. */
    HOLDFAST_INSTANCES: wholeNumber(1, 1000, 1),
    /**
     * The Redis breaker (lib/server/redis/breaker.ts): a Redis command the request path makes gives up after
     * REDIS_COMMAND_TIMEOUT_MS; after REDIS_BREAKER_FAILURES failures or timeouts in a row every Redis call is
     * skipped (Postgres decides alone) until a probe after REDIS_BREAKER_HALF_OPEN_MS succeeds.
     * REDIS_BREAKER_DISABLED=1 keeps only the per-command timeout (benchmarks' "before").
     */
    REDIS_COMMAND_TIMEOUT_MS: wholeNumber(10, 10_000, 250),
    REDIS_BREAKER_FAILURES: wholeNumber(1, 1_000, 5),
    REDIS_BREAKER_HALF_OPEN_MS: wholeNumber(100, 600_000, 5_000),
    REDIS_BREAKER_DISABLED: booleanString,
    /**
     * Admission control (lib/server/limits/admission.ts): past ADMISSION_MAX_IN_FLIGHT requests in progress in
     * this process, or an event-loop delay (p99 over each of the last two ~0.5 s windows) past ADMISSION_MAX_EVENT_LOOP_DELAY_MS
     * with at least 4 requests in flight (MIN_IN_FLIGHT_FOR_DELAY), new requests are refused with 503 OVERLOADED and Retry-After before their body is read. Heartbeats are
     * shed first; submits are never refused here (the submit queue below decides). 0 turns a bound off; `next dev`
     * ignores the delay.
     */
    ADMISSION_MAX_IN_FLIGHT: wholeNumber(0, 100_000, 256),
    ADMISSION_MAX_EVENT_LOOP_DELAY_MS: wholeNumber(0, 60_000, 500),
    /**
     * The submit queue (lib/server/limits/submit-queue.ts): submits and force-submits are not refused for load; they
     * take their turn, first come first served, SUBMIT_QUEUE_PLACES at a time (0: no bound; see
     * submitQueueBounds in admission.ts for why that is the default for now), and are refused only when their turn
     * would come after the attempt's deadline + grace, or when SUBMIT_QUEUE_MAX_WAITING already wait.
     */
    SUBMIT_QUEUE_PLACES: wholeNumber(0, 200, 0),
    SUBMIT_QUEUE_MAX_WAITING: wholeNumber(1, 1_000_000, 20_000),
    /** Public base URL, used to build join links. */
    APP_URL: z.url().default("http://localhost:3000"),
    /** Secret for join-token derivation and submission receipts (HMAC). At least 32 characters. */
    APP_SECRET: z
      .string()
      .min(32, "must be at least 32 characters")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /** Bearer token for admin and proctor API calls from scripts and load tests. Unset disables it. */
    ADMIN_API_TOKEN: z
      .string()
      .min(24, "must be at least 24 characters")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /**
     * Bearer token a Prometheus scrape must send to read GET /api/metrics (the admin token and admins'
     * sessions work too). Unset: metrics are open, like /api/health; no candidate, device or answer in
     * them, but the per-exam gauges name active exams by id.
     */
    METRICS_TOKEN: z
      .string()
      .min(24, "must be at least 24 characters")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /** Hours a staff or candidate session lives. */
    SESSION_TTL_HOURS: wholeNumber(1, 24 * 14, 12),
    /**
     * Staff sign-in (lib/server/limits/sign-in-limiters.ts; only failed tries count, a success gives them back).
     * Failed tries of one email from one address before each further try must wait; the waits double.
     */
    SIGN_IN_LIMIT_FREE_FAILURES: wholeNumber(1, 1000, 5),
    /** The longest wait, in seconds, between two tries of one email from one address. */
    SIGN_IN_LIMIT_MAX_WAIT_SECONDS: wholeNumber(1, 24 * 3600, 15 * 60),
    /**
     * Failed tries of one email from all addresses together in 15 minutes; past it the email is refused for
     * SIGN_IN_LIMIT_EMAIL_BLOCK_SECONDS (short, so a guesser spread over many addresses cannot lock the owner out).
     */
    SIGN_IN_LIMIT_PER_EMAIL: wholeNumber(1, 1_000_000, 100),
    /** Seconds an email whose SIGN_IN_LIMIT_PER_EMAIL budget is spent is refused, from every address. */
    SIGN_IN_LIMIT_EMAIL_BLOCK_SECONDS: wholeNumber(1, 3600, 60),
    /**
     * Failed staff sign-ins allowed per client address, for any emails, in 15 minutes. Exam halls share one
     * address behind NAT; test servers, whose every sign-in comes from 127.0.0.1, raise it.
     */
    SIGN_IN_LIMIT_PER_ADDRESS: wholeNumber(1, 1_000_000, 100),
    /**
     * Results delivery (issue 16): seconds before each retry of a webhook delivery, comma-separated; its length is
     * the number of retries, its last entry caps every delay (each is drawn with full jitter below its entry).
     */
    WEBHOOK_RETRY_SCHEDULE: z.preprocess(
      (v) => (v === "" || v === undefined ? "5,60,300,1800,7200,21600,43200" : v),
      z
        .string()
        .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, "must be seconds, comma-separated (e.g. 5,60,300)")
        .transform((v) => v.split(",").map((part) => Number(part.trim())))
        .refine((list) => list.length >= 1 && list.length <= 50, "must have between 1 and 50 entries")
        .refine((list) => list.every((seconds) => seconds <= 7 * 24 * 3600), "each entry must be at most a week"),
    ),
    /** Milliseconds a webhook receiver has to answer before the try counts as a timeout. */
    WEBHOOK_TIMEOUT_MS: wholeNumber(10, 120_000, 15_000),
    /** Send cookies with the Secure flag. Defaults to true when APP_URL is https. */
    COOKIE_SECURE: booleanString,
    /** Skip validation (only for building a container image without a database). */
    SKIP_ENV_VALIDATION: booleanString,
  })
  .superRefine((value, ctx) => {
    if (value.NODE_ENV === "production" && !value.APP_SECRET) {
      ctx.addIssue({ code: "custom", path: ["APP_SECRET"], message: "is required in production" });
    }
  })
  .transform((value) => ({
    ...value,
    APP_SECRET: value.APP_SECRET ?? DEV_SECRET,
    COOKIE_SECURE: value.COOKIE_SECURE || value.APP_URL.startsWith("https://"),
  }));

/** @typedef {z.infer<typeof EnvSchema>} Env */

/**
 * @param {Record<string, string | undefined>} source
 * @returns {Env}
 */
export function parseEnv(source) {
  const result = EnvSchema.safeParse(source);
  if (result.success) return result.data;
  if (source.SKIP_ENV_VALIDATION === "1" || source.SKIP_ENV_VALIDATION === "true") {
    return EnvSchema.parse({
      ...source,
      DATABASE_URL: source.DATABASE_URL || "postgresql://unset@127.0.0.1:5432/unset",
      APP_SECRET: source.APP_SECRET || DEV_SECRET,
    });
  }
  const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".") || "(env)"}: ${issue.message}`);
  throw new Error(`Holdfast cannot start: invalid environment.\n${lines.join("\n")}\nSee .env.example.`);
}

export const env = parseEnv(process.env);
