// What the population scenarios (autosave, deadline-storm, chaos, delta-vs-full, baseline) set up
// before any load: a private migrated database, the app's environment, a build, and the exam; and what
// they do after: read every attempt back through the API and the database for the checker.
import { randomBytes } from "node:crypto";
import type { Agent } from "node:http";

import type { AttemptView } from "../../../lib/shared/schemas/attempts";
import { ensureBuild, type BuildMode } from "../servers/app-server";
import { checkLedgers, readDatabaseFacts, type CheckResult, type ServerAttempt } from "../checking/checker";
import { createAgent, send } from "../load/http-client";
import type { CandidateLedger } from "../candidates/ledger";
import { say } from "./log";
import { mapLimit } from "../load/map-limit";
import { Api, createExam } from "../candidates/seed";

export type AppEnvironment = NodeJS.ProcessEnv & { ADMIN_API_TOKEN: string };

/**
 * The app's environment for a run: production, its own secrets, the given database and Redis (null:
 * none, single-instance mode), and whatever `extra` adds or overrides (e.g. METRICS_TOKEN).
 */
export function appEnvironment(options: {
  databaseUrl: string;
  redisUrl: string | null;
  poolMax?: number;
  instances?: number;
  extra?: Record<string, string>;
}): AppEnvironment {
  const env: AppEnvironment = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: options.databaseUrl,
    APP_SECRET: randomBytes(32).toString("base64url"),
    ADMIN_API_TOKEN: randomBytes(32).toString("base64url"),
    NEXT_TELEMETRY_DISABLED: "1",
    HOLDFAST_INSTANCES: String(options.instances ?? 1),
  };
  if (options.poolMax !== undefined) env.DATABASE_POOL_MAX = String(options.poolMax);
  if (options.redisUrl) env.REDIS_URL = options.redisUrl;
  else delete env.REDIS_URL;
  return { ...env, ...options.extra } as AppEnvironment;
}

export async function buildApp(options: {
  mode: BuildMode;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}): Promise<string> {
  const build = await ensureBuild(options);
  return build.buildId;
}

/** The admin side of the API on one port, and a new exam on it. */
export async function createBenchExam(options: {
  port: number;
  adminToken: string;
  signal: AbortSignal;
  concurrency?: number;
}): Promise<{
  api: Api;
  agent: Agent;
  examId: string;
  questions: Awaited<ReturnType<typeof createExam>>["questions"];
}> {
  const agent = createAgent(options.concurrency ?? 32);
  const api = new Api({ port: options.port, agent, adminToken: options.adminToken, signal: options.signal });
  const exam = await createExam(api, `Benchmark ${new Date().toISOString()}`);
  return { api, agent, ...exam };
}

/**
 * Every attempt read back as its candidate (GET /api/attempts/{id} with that candidate's cookie), straight
 * to an app instance (no faults), `concurrency` at a time, retrying what does not answer.
 */
export async function readApiViews(options: {
  port: number;
  candidates: readonly { attemptId: string | null; cookie: string | null }[];
  signal: AbortSignal;
  concurrency?: number;
}): Promise<Map<string, ServerAttempt>> {
  const agent = createAgent(options.concurrency ?? 16);
  const views = new Map<string, ServerAttempt>();
  try {
    await mapLimit(options.candidates, options.concurrency ?? 16, options.signal, async ({ attemptId, cookie }) => {
      if (!attemptId || !cookie) return;
      for (let tries = 0; tries < 8; tries += 1) {
        const result = await send({
          agent,
          port: options.port,
          method: "GET",
          path: `/api/attempts/${attemptId}`,
          headers: { cookie },
          timeoutMs: 30_000,
        });
        if (result.status === 200) {
          const view = JSON.parse(result.body) as AttemptView;
          views.set(attemptId, { status: view.status, answers: view.answers, submission: view.submission });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 250 * (tries + 1)));
      }
    });
  } finally {
    agent.destroy();
  }
  return views;
}

/** Reads the final state through the API and the database and runs the checker. */
export async function checkRun(options: {
  port: number;
  databaseUrl: string;
  ledgers: readonly CandidateLedger[];
  cookies: readonly (string | null)[];
  isSubmitExpected: boolean;
  signal: AbortSignal;
}): Promise<CheckResult> {
  const attemptIds = options.ledgers.map((ledger) => ledger.attemptId).filter((id): id is string => id !== null);
  say(`checker: reading ${attemptIds.length} attempts through the API and the database`);
  const apiViews = await readApiViews({
    port: options.port,
    candidates: options.ledgers.map((ledger, index) => ({
      attemptId: ledger.attemptId,
      cookie: options.cookies[index] ?? null,
    })),
    signal: options.signal,
  });
  const database = await readDatabaseFacts(options.databaseUrl, attemptIds);
  return checkLedgers({ ledgers: options.ledgers, database, apiViews, isSubmitExpected: options.isSubmitExpected });
}
