// The candidate population, open loop: every candidate's arrival, edits and submit follow a schedule
// fixed before the run (arrivals spread evenly, think times drawn from an exponential distribution),
// whatever the server answers. A slow server shows up as latency and as work pending on the devices,
// never as politely reduced load. Each candidate still keeps one sync request in flight, as the
// browser does. Every loop is bounded by the schedule's end and the run's give-up time.
import type { Agent } from "node:http";

import type { ResponseDrops } from "../faults/response-drops";
import { send } from "./http-client";
import { sleep } from "../run/log";
import type { RunStats } from "./op-stats";
import type { SimCandidate } from "../candidates/sim-candidate";
import type { Transport } from "../candidates/transport";

export type Schedule = {
  /** Candidates arrive evenly over this many ms from the start. */
  arrivalSpreadMs: number;
  /** Mean ms between two edits of one candidate (exponential think time, clamped to [0.1, 5] × mean). */
  editMeanMs: number;
  /** When editing stops (ms since the start). */
  editUntilMs: number;
  /**
   * When candidate `index` (of `count`) presses Submit, or null for no submit (the drafts are flushed at
   * `editUntilMs` instead).
   */
  submitAtMs: ((index: number, count: number) => number) | null;
};

/** A think time: exponential with the given mean, clamped so one candidate never stalls or floods. */
export function thinkTime(meanMs: number, random: () => number = Math.random): number {
  const draw = -Math.log(1 - random()) * meanMs;
  return Math.min(5 * meanMs, Math.max(0.1 * meanMs, draw));
}

/** Waits until run time `atMs` (ms since the run started); at once if it has passed. */
export async function sleepUntil(stats: RunStats, atMs: number, signal: AbortSignal): Promise<void> {
  const wait = atMs - stats.now();
  if (wait > 0) await sleep(wait, signal);
}

/** Arrival time of candidate `index` of `count`. */
export function arrivalAt(schedule: Schedule, index: number, count: number): number {
  return count <= 1 ? 0 : (schedule.arrivalSpreadMs * index) / count;
}

/** Runs one lightweight candidate's whole life on the schedule. */
async function live(
  candidate: SimCandidate,
  index: number,
  count: number,
  schedule: Schedule,
  stats: RunStats,
  signal: AbortSignal,
): Promise<void> {
  await sleepUntil(stats, arrivalAt(schedule, index, count), signal);
  if (signal.aborted || !(await candidate.joinAndStart())) return;
  const stopEditingAt = schedule.submitAtMs
    ? Math.min(schedule.editUntilMs, schedule.submitAtMs(index, count))
    : schedule.editUntilMs;
  // The next edit is due at a fixed point after the previous one was due, not after it was answered.
  for (
    let due = stats.now() + thinkTime(schedule.editMeanMs);
    due < stopEditingAt && !signal.aborted;
    due += thinkTime(schedule.editMeanMs)
  ) {
    await sleepUntil(stats, due, signal);
    candidate.edit();
  }
  if (signal.aborted) return;
  if (schedule.submitAtMs) {
    await sleepUntil(stats, schedule.submitAtMs(index, count), signal);
    await candidate.submit();
  } else {
    await sleepUntil(stats, schedule.editUntilMs, signal);
    await candidate.flush();
  }
  candidate.stopTimers();
}

export async function runPopulation(
  candidates: readonly SimCandidate[],
  schedule: Schedule,
  stats: RunStats,
  signal: AbortSignal,
): Promise<void> {
  await Promise.all(
    candidates.map((candidate, index) => live(candidate, index, candidates.length, schedule, stats, signal)),
  );
}

/**
 * A transport over node:http keep-alive to one port on 127.0.0.1 (an app, the baseline, or the fault proxy);
 * `drops`: a share of responses thrown away as they arrive (bench/lib/faults/response-drops.ts).
 */
export function httpTransport(agent: Agent, port: number, drops?: ResponseDrops): Transport {
  const isDropped = drops ? () => drops.isDropped() : undefined;
  return (request) =>
    send({
      agent,
      port,
      method: request.method,
      path: request.path,
      headers: request.headers,
      body: request.body,
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      isDropped,
    });
}
