// An autosave takes both its limits (its attempt's and the cluster's, each a steady and a burst window) in
// one Lua call: one EVALSHA (or EVAL) per request, counted in INFO commandstats of a Redis of this file's own.
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { commandCalls, freePort, startRedisServer, waitUntil } from "@/test-support/server/private-redis";

const port = await freePort();
process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;
delete (globalThis as { holdfastSyncLimiters?: unknown }).holdfastSyncLimiters;

const { getRedis } = await import("../redis/client");
const { createSyncLimiters } = await import("./create-sync-limiters");
const { setSyncLimiters } = await import("./sync-limiters");
const { autosave, startedAttempt } = await import("@/test-support/server/attempts");

let redis: ChildProcess;

beforeAll(async () => {
  redis = startRedisServer(port);
  const client = await getRedis();
  await waitUntil(() => client?.status === "ready");
  setSyncLimiters(createSyncLimiters({ redis: client, namespace: `test-${randomUUID()}` }));
}, 30_000);

afterAll(() => {
  setSyncLimiters(null);
  redis.kill("SIGKILL");
});

describe("autosave limits in one round trip", () => {
  it("one script call per autosave takes the attempt's and the cluster's limits", async () => {
    const attempt = await startedAttempt().catch(() => startedAttempt());
    const question = attempt.questions[2]!.id;
    const save = (version: number) =>
      autosave(attempt, { deviceId: "laptop", answers: [{ questionId: question, value: `v${version}`, version }] });
    expect((await save(1)).status).toBe(200); // loads the script

    const client = (await getRedis())!;
    const scriptCalls = async () => {
      const calls = commandCalls(await client.info("commandstats"));
      return (calls.evalsha ?? 0) + (calls.eval ?? 0);
    };
    const before = await scriptCalls();
    for (let version = 2; version <= 11; version += 1) expect((await save(version)).status).toBe(200);
    expect((await scriptCalls()) - before).toBe(10);
  }, 60_000);
});
