import "server-only";

import { getRedis } from "../redis/client";
import { createSyncLimiters, type SyncLimiters } from "./create-sync-limiters";

const globalForLimits = globalThis as unknown as { holdfastSyncLimiters?: Promise<SyncLimiters> };

/** This process's limiters, with DEFAULT_SYNC_LIMITS on the one Redis client (or memory without it). */
export function getSyncLimiters(): Promise<SyncLimiters> {
  return (globalForLimits.holdfastSyncLimiters ??= getRedis().then(
    (redis) => createSyncLimiters({ redis }),
    () => createSyncLimiters({ redis: null }),
  ));
}

/**
 * Replaces this process's limiters, e.g. with tiny limits from `createSyncLimiters` in a test, or with
 * generous ones in a test that races an endpoint on purpose. `null` goes back to the defaults.
 */
export function setSyncLimiters(limiters: SyncLimiters | null): void {
  globalForLimits.holdfastSyncLimiters = limiters ? Promise.resolve(limiters) : undefined;
}
