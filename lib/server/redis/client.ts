import "server-only";

import { Redis } from "ioredis";

import { env } from "../env.mjs";
import { log } from "../log";
import { redisBreaker, setRedisBreaker } from "./breaker";
import { sendLaterCommandsAlone, withScripts } from "./scripts";

const LOCAL_REDIS_URL = "redis://127.0.0.1:6379";

export type RedisMode = { kind: "redis"; url: string; detected: boolean } | { kind: "single-instance"; reason: string };

type RedisState = { mode: RedisMode; client: Redis | null };

const globalForRedis = globalThis as unknown as { holdfastRedis?: Promise<RedisState> };

function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, "//***@");
}

function createClient(url: string): Redis {
  const client = new Redis(url, {
    // Fail fast while Redis is away: callers fall back to Postgres instead of queueing behind it.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
    lazyConnect: true,
    // Keep reconnecting for ever, at most every 2 s.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    // Commands sent in one turn of the event loop go out in one write (ioredis batches them until setImmediate):
    // under load, many requests' limit checks, locks and publishes share a syscall each way.
    enableAutoPipelining: true,
  });
  // Before its first command (scripts.ts says why); a library's commands defined later go unpipelined.
  withScripts(client);
  sendLaterCommandsAlone(client);
  let isDown = false;
  client.on("error", (error: Error) => {
    if (isDown) return;
    isDown = true;
    log.warn("redis unavailable; continuing on Postgres alone until it is back", {
      url: redactUrl(url),
      error: error.message,
    });
  });
  client.on("ready", () => {
    if (isDown) log.info("redis is back", { url: redactUrl(url) });
    isDown = false;
  });
  return client;
}

async function probe(url: string): Promise<boolean> {
  const probeClient = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  probeClient.on("error", () => undefined);
  try {
    await probeClient.connect();
    await probeClient.ping();
    return true;
  } catch {
    return false;
  } finally {
    probeClient.disconnect();
  }
}

async function initialise(): Promise<RedisState> {
  // A new client starts with a closed breaker (tests make one per private redis-server).
  setRedisBreaker(null);
  if (env.REDIS_URL) {
    const client = createClient(env.REDIS_URL);
    client.connect().catch(() => undefined);
    return { mode: { kind: "redis", url: redactUrl(env.REDIS_URL), detected: false }, client };
  }
  if (await probe(LOCAL_REDIS_URL)) {
    const client = createClient(LOCAL_REDIS_URL);
    client.connect().catch(() => undefined);
    return { mode: { kind: "redis", url: LOCAL_REDIS_URL, detected: true }, client };
  }
  return {
    mode: { kind: "single-instance", reason: `REDIS_URL is unset and nothing answers at ${LOCAL_REDIS_URL}` },
    client: null,
  };
}

/** The Redis state of this process, decided once: a configured or detected client, or single-instance mode. */
export function redisState(): Promise<RedisState> {
  return (globalForRedis.holdfastRedis ??= initialise());
}

/** The one Redis client of this process, or null in single-instance mode. */
export async function getRedis(): Promise<Redis | null> {
  return (await redisState()).client;
}

/**
 * Runs `operation` against Redis when it is configured and answering; otherwise (not configured, not connected,
 * failing, slower than REDIS_COMMAND_TIMEOUT_MS, or the breaker open) returns `fallback`.
 * Redis only makes Holdfast fast: nothing that must be right depends on this succeeding.
 */
export async function withRedis<T>(operation: (client: Redis) => Promise<T>, fallback: T): Promise<T> {
  const client = await getRedis();
  if (!client || client.status !== "ready") return fallback;
  // Through the breaker (breaker.ts): a hung Redis costs a few requests one timeout each, then nothing.
  return redisBreaker().run(
    () => operation(client),
    () => fallback,
  );
}

/** Logs the mode once at start; refuses to start several instances without Redis. */
export async function announceRedisMode(): Promise<void> {
  const { mode } = await redisState();
  if (mode.kind === "redis") {
    log.info(`redis: using ${mode.url}${mode.detected ? " (found on localhost; set REDIS_URL to choose)" : ""}`);
    return;
  }
  if (env.HOLDFAST_INSTANCES > 1) {
    throw new Error(
      `Holdfast is configured for ${env.HOLDFAST_INSTANCES} instances (HOLDFAST_INSTANCES) but has no Redis: ${mode.reason}. ` +
        "Several instances require Redis for locks, rate limits and live updates; set REDIS_URL.",
    );
  }
  log.info(
    `Holdfast runs in single-instance mode without Redis (${mode.reason}). Postgres keeps every guarantee; ` +
      "to run several instances, set REDIS_URL.",
  );
}
