import "server-only";

// Every Redis key Holdfast uses comes from here: one prefix, one version segment, typed parts.
// TTLs are chosen where a key is written, not here.
const PREFIX = "holdfast:v1";

export const redisKeys = {
  /** Liveness probe written by the health check. */
  healthProbe: () => `${PREFIX}:health:probe`,
  /** Serialises concurrent starts of one enrollment's attempt (Postgres still decides). */
  startAttemptLock: (enrollmentId: string) => `${PREFIX}:lock:start:${enrollmentId}`,
} as const;

export type RedisKey = ReturnType<(typeof redisKeys)[keyof typeof redisKeys]>;
