// The app keeps working when Redis stops or hangs: Postgres is the source of truth (ADR 003).
// This file runs its own redis-server on a free port, so it can kill and freeze it without touching
// the machine's Redis.
import type { ChildProcess } from "node:child_process";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freePort, startRedisServer, waitUntil } from "@/test-support/server/private-redis";

const port = await freePort();
let redis: ChildProcess;
process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
// A previous test file in this worker may have memoised a client for another Redis.
delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;

const { GET: healthRoute } = await import("./route");
const { POST: startAttemptRoute } = await import("@/app/api/exams/[examId]/attempts/route");
const { createExam, enroll, join } = await import("@/test-support/server/fixtures");
const { call } = await import("@/test-support/server/http");
const { getRedis } = await import("@/lib/server/redis/client");

function startRedis(): ChildProcess {
  return startRedisServer(port);
}

async function candidateFlow(): Promise<number> {
  const exam = await createExam();
  const [candidate] = await enroll(exam.id);
  const cookie = await join(candidate!.joinToken);
  const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
  return started.status;
}

beforeAll(async () => {
  redis = startRedis();
  const client = await getRedis();
  await waitUntil(async () => client?.status === "ready");
});

afterAll(() => {
  redis.kill("SIGKILL");
});

describe("GET /api/health and the app without Redis", () => {
  it("reports ok with Postgres and Redis up", async () => {
    const response = await call(healthRoute);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "ok", postgres: "up", redis: "up", mode: "redis" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("keeps serving when Redis hangs (SIGSTOP): health says degraded within the command timeout", async () => {
    redis.kill("SIGSTOP");
    try {
      const started = Date.now();
      const response = await call(healthRoute);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: "degraded", postgres: "up", redis: "down" });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await candidateFlow()).toBe(201);
    } finally {
      redis.kill("SIGCONT");
    }
  });

  it("keeps serving when Redis is killed, and notices when it is back", async () => {
    redis.kill("SIGKILL");
    await new Promise((resolve) => redis.once("exit", resolve));

    const response = await call(healthRoute);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "degraded", postgres: "up", redis: "down" });
    // Joining, staff-free enrollment and starting an attempt all work on Postgres alone.
    expect(await candidateFlow()).toBe(201);

    redis = startRedis();
    const client = await getRedis();
    await waitUntil(async () => client?.status === "ready");
    const healed = await call(healthRoute);
    expect(healed.body).toMatchObject({ status: "ok", redis: "up" });
  });
});
