import "server-only";

import { randomToken } from "../crypto";
import { redisBreaker } from "./breaker";
import { getRedis } from "./client";
import { withScripts } from "./scripts";

export type LockResult = { status: "acquired"; token: string } | { status: "held" } | { status: "unavailable" };

/**
 * Tries to take a Redis lock with a random token and an expiry. It only keeps concurrent duplicates off
 * Postgres; Postgres decides correctness, so "unavailable" means "go ahead without it".
 */
export async function acquireLock(key: string, ttlMs: number): Promise<LockResult> {
  const client = await getRedis();
  if (!client || client.status !== "ready") return { status: "unavailable" };
  const token = randomToken(16);
  return redisBreaker().run<LockResult>(
    async () =>
      (await client.set(key, token, "PX", ttlMs, "NX")) === "OK" ? { status: "acquired", token } : { status: "held" },
    () => ({ status: "unavailable" }),
  );
}

export async function releaseLock(key: string, token: string): Promise<void> {
  const client = await getRedis();
  if (!client) return;
  await redisBreaker().run(
    // Only if it still holds our token (scripts.ts): a lock that expired and was taken by someone else stays theirs.
    () => withScripts(client).holdfastReleaseLock(key, token),
    () => undefined,
  );
}

/** Waits until the lock is free, Redis is away, or `maxWaitMs` passes. True when it is free (or unknowable). */
export async function waitForLockRelease(key: string, maxWaitMs: number, pollMs = 50): Promise<boolean> {
  const until = Date.now() + maxWaitMs;
  for (;;) {
    const client = await getRedis();
    if (!client || client.status !== "ready") return true;
    // Unknowable (Redis failing or the breaker open) counts as free: Postgres decides.
    const exists = await redisBreaker().run(
      () => client.exists(key),
      () => 0,
    );
    if (exists === 0) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
