// A fault schedule: at given times into a run, kill or restart app instances, hang and release Redis,
// restart Postgres, or change the proxy's network faults. Steps run one after another on their own
// clock; a step that takes long (a restart waits until the server answers) delays the ones behind it,
// and the events say when each one really ran and how long it took.
import type { AppCluster } from "../servers/app-cluster";
import type { FaultProxy, FaultSettings } from "./fault-proxy";
import { NO_FAULTS } from "./fault-proxy";
import { errorMessage, say, sleep } from "../run/log";
import type { PrivatePostgres } from "./private-postgres";
import type { PrivateRedis } from "./private-redis";

export type ChaosAction =
  | { kind: "kill-app"; index: number }
  | { kind: "restart-app"; index: number }
  | { kind: "pause-redis" }
  | { kind: "resume-redis" }
  | { kind: "restart-postgres"; mode: "fast" | "immediate" }
  | { kind: "set-faults"; faults: Partial<FaultSettings> };

export type ChaosStep = { atMs: number; action: ChaosAction };

/** `atMs`: when the action began, in ms since the schedule started. */
export type ChaosEvent = { atMs: number; action: ChaosAction; tookMs: number; ok: boolean; error?: string };

/** How long a killed instance stays down, and Redis hangs, in the default plan. */
const APP_DOWN_MS = 3_000;
const REDIS_HANG_MS = 5_000;

/**
 * One of each fault, spread over the run, every one undone by 80 % of it so the end of the run shows
 * whether everything recovered: network faults throughout the middle, two instances killed and
 * restarted, Redis hung for ~5 s, and Postgres shut down immediately (crash-like) and started again.
 */
export function defaultChaosPlan(durationMs: number, instances: number): ChaosStep[] {
  const at = (fraction: number, plusMs = 0): number => Math.round(durationMs * fraction + plusMs);
  const second = instances > 1 ? 1 : 0;
  const plan: ChaosStep[] = [
    { atMs: at(0.1), action: { kind: "kill-app", index: 0 } },
    { atMs: at(0.1, APP_DOWN_MS), action: { kind: "restart-app", index: 0 } },
    {
      atMs: at(0.2),
      action: {
        kind: "set-faults",
        faults: { dropResponseRate: 0.05, resetRate: 0.05, latencyMs: { min: 0, max: 30 } },
      },
    },
    { atMs: at(0.3), action: { kind: "pause-redis" } },
    { atMs: at(0.3, REDIS_HANG_MS), action: { kind: "resume-redis" } },
    { atMs: at(0.45), action: { kind: "restart-postgres", mode: "immediate" } },
    { atMs: at(0.6), action: { kind: "kill-app", index: second } },
    { atMs: at(0.6, APP_DOWN_MS), action: { kind: "restart-app", index: second } },
    { atMs: at(0.8), action: { kind: "set-faults", faults: NO_FAULTS } },
  ];
  return plan.sort((a, b) => a.atMs - b.atMs);
}

/** How many whole cycles of about `cycleMs` a run of `durationMs` holds (at least one). */
export function chaosCycles(durationMs: number, cycleMs: number): number {
  return Math.max(1, Math.floor(durationMs / cycleMs));
}

/**
 * The default plan again and again for a long run (a soak): `durationMs` is split into as many whole cycles of about
 * `cycleMs` as fit (at least one), each cycle is the default plan on its own length, and each cycle kills the next
 * instances in turn, so every instance is killed over a long run. Every fault is undone within its cycle.
 */
export function cycledChaosPlan(durationMs: number, cycleMs: number, instances: number): ChaosStep[] {
  const cycles = chaosCycles(durationMs, cycleMs);
  const length = durationMs / cycles;
  const turn = (action: ChaosAction, cycle: number): ChaosAction =>
    action.kind === "kill-app" || action.kind === "restart-app"
      ? { ...action, index: (action.index + cycle) % instances }
      : action;
  return Array.from({ length: cycles }, (_, cycle) =>
    defaultChaosPlan(length, instances).map((step) => ({
      atMs: Math.round(cycle * length + step.atMs),
      action: turn(step.action, cycle),
    })),
  ).flat();
}

export function describeAction(action: ChaosAction): string {
  switch (action.kind) {
    case "kill-app":
    case "restart-app":
      return `${action.kind} ${action.index}`;
    case "restart-postgres":
      return `restart-postgres (${action.mode})`;
    case "set-faults":
      return `set-faults ${JSON.stringify(action.faults)}`;
    default:
      return action.kind;
  }
}

type Targets = { cluster?: AppCluster; redis?: PrivateRedis; postgres?: PrivatePostgres; proxy?: FaultProxy };

function need<T>(target: T | undefined, what: string): T {
  if (target === undefined) throw new Error(`this run has no ${what}`);
  return target;
}

async function perform(action: ChaosAction, targets: Targets): Promise<void> {
  switch (action.kind) {
    case "kill-app":
      return need(targets.cluster, "app cluster").kill9(action.index);
    case "restart-app":
      return need(targets.cluster, "app cluster").restart(action.index);
    case "pause-redis":
      return need(targets.redis, "private redis").pause();
    case "resume-redis":
      return need(targets.redis, "private redis").resume();
    case "restart-postgres":
      await need(targets.postgres, "private postgres").restart(action.mode);
      return;
    case "set-faults":
      return need(targets.proxy, "fault proxy").setFaults(action.faults);
  }
}

/**
 * Runs `plan` (sorted by time) until it is done or `signal` aborts. A failed step is an event with
 * `ok: false`, not an exception: the schedule goes on, and the scenario decides what a failure means.
 * After an abort, a Redis this schedule paused is resumed, so the run's own checks can still use it.
 */
export async function runChaos(options: {
  plan: ChaosStep[];
  cluster?: AppCluster;
  redis?: PrivateRedis;
  postgres?: PrivatePostgres;
  proxy?: FaultProxy;
  signal: AbortSignal;
  onEvent?(event: ChaosEvent): void;
}): Promise<ChaosEvent[]> {
  const startedAt = Date.now();
  const events: ChaosEvent[] = [];
  for (const step of [...options.plan].sort((a, b) => a.atMs - b.atMs)) {
    await sleep(step.atMs - (Date.now() - startedAt), options.signal);
    if (options.signal.aborted) break;
    const atMs = Date.now() - startedAt;
    let event: ChaosEvent;
    try {
      await perform(step.action, options);
      event = { atMs, action: step.action, tookMs: Date.now() - startedAt - atMs, ok: true };
    } catch (error) {
      event = {
        atMs,
        action: step.action,
        tookMs: Date.now() - startedAt - atMs,
        ok: false,
        error: errorMessage(error),
      };
    }
    say(
      `chaos at ${(atMs / 1000).toFixed(1)} s: ${describeAction(step.action)} ${event.ok ? "done" : `FAILED (${event.error})`} in ${event.tookMs} ms`,
    );
    events.push(event);
    options.onEvent?.(event);
  }
  if (options.signal.aborted && options.redis?.isPaused) options.redis.resume();
  return events;
}
