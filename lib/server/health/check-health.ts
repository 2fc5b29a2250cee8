import "server-only";

import { db } from "../db/client";
import { redisBreaker, type BreakerState } from "../redis/breaker";
import { redisKeys } from "../redis/keys";
import { redisState, withRedis } from "../redis/client";

export type Health = {
  status: "ok" | "degraded" | "down";
  postgres: "up" | "down";
  redis: "up" | "down" | "not-configured";
  mode: "redis" | "single-instance";
  /**
   * The Redis breaker (lib/server/redis/breaker.ts): `open` while Redis is skipped after failing (Redis is then
   * "down" and the status "degraded"), `half-open` while one probe tries it again.
   */
  redisBreaker: BreakerState;
  serverTime: string;
};

/** Postgres decides whether Holdfast is up; Redis only whether it is at full speed. */
export async function checkHealth(): Promise<Health> {
  const [postgres, state] = await Promise.all([
    db.$queryRaw`SELECT 1`.then(
      () => "up" as const,
      () => "down" as const,
    ),
    redisState(),
  ]);
  const redis =
    state.mode.kind === "single-instance"
      ? ("not-configured" as const)
      : await withRedis(
          async (client) =>
            (await client.set(redisKeys.healthProbe(), Date.now().toString(), "EX", 60)) === "OK"
              ? ("up" as const)
              : ("down" as const),
          "down" as const,
        );
  const status = postgres === "down" ? "down" : redis === "down" ? "degraded" : "ok";
  return {
    status,
    postgres,
    redis,
    mode: state.mode.kind,
    redisBreaker: redisBreaker().state(),
    serverTime: new Date().toISOString(),
  };
}
