// The same population schedule against the baseline server (bare node:http + pg, the app's upsert
// SQL): the physical limit every population scenario divides by, measured in the same run. The
// baseline has no sessions, so its candidates are joined and started through the app beforehand
// (`seedCandidates`, papers left empty) and send no heartbeats.
import type { BaselineServer } from "../servers/baseline";
import type { BenchQuestion } from "../candidates/exam";
import { createAgent } from "./http-client";
import { say } from "../run/log";
import { RunStats } from "./op-stats";
import { httpTransport, type Schedule } from "./population";
import { measurePopulation, type PopulationMeasurement } from "./population-run";
import { Api, seedCandidates } from "../candidates/seed";
import { SimCandidate } from "../candidates/sim-candidate";
import type { ApiPaths, SimTimings, Transport } from "../candidates/transport";

export const BASELINE_PATHS: ApiPaths = {
  answers: (id) => `/attempts/${id}/answers`,
  submit: (id) => `/attempts/${id}/submit`,
  heartbeat: () => "/heartbeat-not-served",
};

export const MAX_SOCKETS = 4_096;

export async function measureBaselinePopulation(options: {
  /** An app instance, to join and start the baseline's candidates. */
  appPort: number;
  adminToken: string;
  baseline: BaselineServer;
  databaseUrl: string;
  exam: { examId: string; questions: readonly BenchQuestion[] };
  candidates: number;
  schedule: Schedule;
  windowFromMs: number;
  windowToMs: number;
  giveUpAtMs: number;
  /** Count the baseline's CPU from this moment to the window's end apart too (the deadline storm's share). */
  cpuTailFromMs?: number;
  timings: SimTimings;
  /** The phase a request sent at `atMs` belongs to, to keep each operation's figures per phase too (RunStats). */
  phaseOf?: (atMs: number) => string;
  /** Defaults to straight to the baseline's port; a scenario with faults passes its proxy. */
  transport?: (agent: ReturnType<typeof createAgent>) => Transport;
  /** Which idle socket a request takes (createAgent); the app's run's order, for a like-for-like baseline. */
  socketOrder?: "lifo" | "fifo";
  signal: AbortSignal;
}): Promise<{ measurement: PopulationMeasurement; stats: RunStats }> {
  const seedAgent = createAgent(32);
  const api = new Api({
    port: options.appPort,
    agent: seedAgent,
    adminToken: options.adminToken,
    signal: options.signal,
  });
  const seeded = await seedCandidates(api, {
    examId: options.exam.examId,
    questions: options.exam.questions,
    count: options.candidates,
    concurrency: 32,
    signal: options.signal,
    fill: false,
    prefix: `baseline-${Date.now()}`,
  });
  seedAgent.destroy();
  say(`baseline: the same schedule against the bare node:http + pg server`);
  const stats = new RunStats(options.phaseOf);
  const agent = createAgent(Math.min(options.candidates, MAX_SOCKETS), options.socketOrder);
  const transport = options.transport ? options.transport(agent) : httpTransport(agent, options.baseline.port);
  const candidates = seeded.map(
    (candidate, index) =>
      new SimCandidate({
        index,
        email: candidate.email,
        joinToken: "",
        examId: options.exam.examId,
        questions: options.exam.questions,
        transport,
        stats,
        paths: BASELINE_PATHS,
        timings: { ...options.timings, heartbeatMs: 0 },
        preparedAttemptId: candidate.attemptId,
        giveUpAtMs: options.giveUpAtMs,
        signal: options.signal,
      }),
  );
  try {
    const measurement = await measurePopulation({
      target: "baseline",
      candidates,
      stats,
      schedule: options.schedule,
      windowFromMs: options.windowFromMs,
      windowToMs: options.windowToMs,
      cpu: { serverGroup: options.baseline.child.pid, databaseUrl: options.databaseUrl },
      cpuTailFromMs: options.cpuTailFromMs,
      signal: options.signal,
    });
    return { measurement, stats };
  } finally {
    agent.destroy();
  }
}
