// One measured run of a population against one target: the schedule runs open loop, the measured
// window starts once every candidate has arrived, and CPU is counted over that window.
import { loadavg } from "node:os";

import { startCpuProbe, type CpuProbe, type CpuUsage } from "./cpu";
import type { OperationSummary, RunStats } from "./op-stats";
import { runPopulation, type Schedule } from "./population";
import type { SimCandidate } from "../candidates/sim-candidate";

export type PopulationMeasurement = {
  target: string;
  candidates: number;
  windowMs: number;
  /** Autosave requests per second the schedule asks for in the window, if every edit became one request. */
  offeredEditsPerSecond: number;
  operations: Record<string, OperationSummary>;
  /** Each operation by the phase its requests were sent in, when the run's RunStats has phases (else empty). */
  operationsByPhase: Record<string, OperationSummary>;
  cpu: CpuUsage | null;
  /** CPU ms of the server (its process group) and its Postgres backends per measured request. */
  cpuPerRequestMs: { server: number; postgres: number } | null;
  /** With `cpuTailFromMs`: the CPU from then to the window's end, and how long that was (a storm's share). */
  cpuTail: { usage: CpuUsage | null; ms: number } | null;
  loadAverage: number;
};

export async function measurePopulation(options: {
  target: string;
  candidates: readonly SimCandidate[];
  stats: RunStats;
  schedule: Schedule;
  /** The measured window, in ms since the run started. */
  windowFromMs: number;
  windowToMs: number;
  cpu?: { serverGroup: number; databaseUrl: string };
  /** With `cpu`: also count the CPU from this moment (ms since the run started) to the window's end apart. */
  cpuTailFromMs?: number;
  signal: AbortSignal;
}): Promise<PopulationMeasurement> {
  let probe: Promise<CpuProbe> | undefined;
  let tailProbe: { at: number; probe: Promise<CpuProbe> } | undefined;
  let tailUsage: Promise<CpuUsage | null> | undefined;
  let tailEndedAt = 0;
  let loadAverage = 0;
  let usage: Promise<CpuUsage | null> | undefined;
  const startTimer = setTimeout(
    () => {
      options.stats.startWindow();
      loadAverage = Math.round((loadavg()[0] ?? 0) * 100) / 100;
      if (options.cpu) probe = startCpuProbe(options.cpu);
    },
    Math.max(0, options.windowFromMs - options.stats.now()),
  );
  const tailTimer =
    options.cpu && options.cpuTailFromMs !== undefined
      ? setTimeout(
          () => {
            if (!usage && options.cpu) tailProbe = { at: options.stats.now(), probe: startCpuProbe(options.cpu) };
          },
          Math.max(0, options.cpuTailFromMs - options.stats.now()),
        )
      : undefined;
  const endWindow = (): void => {
    if (usage) return;
    options.stats.endWindow();
    usage = probe ? probe.then((running) => running.stop()) : Promise.resolve(null);
    tailEndedAt = options.stats.now();
    tailUsage = tailProbe?.probe.then((running) => running.stop());
  };
  const stopTimer = setTimeout(endWindow, Math.max(0, options.windowToMs - options.stats.now()));
  try {
    await runPopulation(options.candidates, options.schedule, options.stats, options.signal);
  } finally {
    clearTimeout(startTimer);
    clearTimeout(stopTimer);
    clearTimeout(tailTimer);
  }
  // Everyone finished before the window's planned end (a storm that drained early): it ends here.
  endWindow();
  const cpu = usage ? await usage : null;
  const cpuTail = tailProbe && tailUsage ? { usage: await tailUsage, ms: tailEndedAt - tailProbe.at } : null;
  const windowMs = options.stats.windowMs();
  const operations: Record<string, OperationSummary> = {};
  for (const [name, stats] of options.stats.operations) operations[name] = stats.summary(windowMs);
  const requests = Object.values(operations).reduce((sum, operation) => sum + operation.requests, 0);
  const operationsByPhase: Record<string, OperationSummary> = {};
  for (const [name, stats] of options.stats.phaseOperations) operationsByPhase[name] = stats.summary(windowMs);
  return {
    target: options.target,
    candidates: options.candidates.length,
    windowMs,
    offeredEditsPerSecond: Math.round((options.candidates.length / (options.schedule.editMeanMs / 1000)) * 10) / 10,
    operations,
    operationsByPhase,
    cpu,
    cpuPerRequestMs:
      cpu && requests > 0
        ? {
            server: Math.round((cpu.serverMs / requests) * 100) / 100,
            postgres: Math.round((cpu.postgresMs / requests) * 100) / 100,
          }
        : null,
    cpuTail,
    loadAverage,
  };
}

/** One line for an operation of a measurement. */
export function formatOperation(label: string, operation: OperationSummary | undefined): string {
  if (!operation) return `${label.padEnd(24)} no requests`;
  const { latency } = operation;
  const statuses = Object.entries(operation.statuses)
    .map(([key, count]) => `${key}×${count}`)
    .join(" ");
  const pad = (value: number, width = 7): string => value.toFixed(1).padStart(width);
  return (
    `${label.padEnd(24)} ${pad(operation.throughput, 8)} ok/s  p50 ${pad(latency.p50)} ms  p95 ${pad(latency.p95)} ms  p99 ${pad(latency.p99)} ms` +
    `  n=${operation.requests}  errors=${operation.errors} 429=${operation.limited} unexpected=${operation.unexpected}  [${statuses}]`
  );
}
