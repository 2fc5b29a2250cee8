// Several app instances (`next start`) sharing one database and one Redis, as a deployment behind a
// load balancer runs them, all from one private snapshot of the build. A fault scenario kills an instance
// with SIGKILL (no shutdown hook runs, in-flight requests are cut) and later starts it again on the
// same port, so the proxy in front finds it where it was.
import { startAppInstance, snapshotBuild } from "./app-server";
import { errorMessage, say } from "../run/log";
import { freePort, type ManagedChild } from "./processes";

export type AppInstance = {
  index: number;
  port: number;
  /** The current process's pid (a restart changes it). */
  pid: number;
  /** The current process. */
  child: ManagedChild;
};

export type AppCluster = {
  instances: AppInstance[];
  ports(): number[];
  /** SIGKILL to the instance's process group; returns once it exited. Not reported as an error. */
  kill9(index: number): Promise<void>;
  /** Stops the instance if it still runs, starts it on the same port, and waits for GET /api/health. */
  restart(index: number): Promise<void>;
  /** Whether the instance's current process is running (it may still be starting). */
  isUp(index: number): boolean;
  /** Output lines per pattern (`error`, `warn`) of every process the instance has had, added up. */
  lineCounts(index: number): Record<string, number>;
};

type Slot = AppInstance & { isKilled: boolean; isStarting: boolean; earlierCounts: Record<string, number> };

function addCounts(into: Record<string, number>, from: Record<string, number>): Record<string, number> {
  for (const [key, count] of Object.entries(from)) into[key] = (into[key] ?? 0) + count;
  return into;
}

export async function startAppCluster(options: {
  count: number;
  buildId: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Worker processes per instance (scripts/start.mjs); unset: one bare `next start` each. */
  workers?: number;
}): Promise<AppCluster> {
  if (!Number.isInteger(options.count) || options.count < 1)
    throw new Error(`an app cluster needs at least one instance, not ${options.count}`);
  const dir = snapshotBuild(options.buildId);
  const env: NodeJS.ProcessEnv = { ...options.env, HOLDFAST_INSTANCES: String(options.count) };
  const slots: Slot[] = [];

  const launch = async (slot: Pick<Slot, "index" | "port">): Promise<ManagedChild> => {
    const server = await startAppInstance({
      dir,
      buildId: options.buildId,
      port: slot.port,
      env,
      signal: options.signal,
      name: `app ${slot.index}`,
      workers: options.workers,
      // A kill from the fault schedule is on purpose; any other exit is a crash worth shouting about.
      isExitExpected: () => slots[slot.index]?.isKilled === true && slots[slot.index]?.child === server.child,
    });
    return server.child;
  };

  // One after another: two `next start` booting at once on two cores only slow each other down.
  for (let index = 0; index < options.count; index += 1) {
    const port = await freePort();
    const child = await launch({ index, port });
    slots.push({ index, port, pid: child.pid, child, isKilled: false, isStarting: false, earlierCounts: {} });
  }

  const slotAt = (index: number): Slot => {
    const slot = slots[index];
    if (!slot) throw new Error(`there is no app instance ${index} (the cluster has ${slots.length})`);
    return slot;
  };

  return {
    instances: slots,
    ports: () => slots.map((slot) => slot.port),
    kill9: async (index) => {
      const slot = slotAt(index);
      if (slot.child.hasExited()) return;
      slot.isKilled = true;
      try {
        process.kill(-slot.child.pid, "SIGKILL");
      } catch (error) {
        throw new Error(`could not kill app ${index} (pid ${slot.child.pid}): ${errorMessage(error)}`);
      }
      await slot.child.exited;
      say(`killed app ${index} (pid ${slot.child.pid}, SIGKILL)`);
    },
    restart: async (index) => {
      const slot = slotAt(index);
      if (slot.isStarting) throw new Error(`app ${index} is already being restarted`);
      slot.isStarting = true;
      try {
        // A stop on purpose, like a kill: its exit is not a crash.
        slot.isKilled = true;
        await slot.child.stop();
        addCounts(slot.earlierCounts, slot.child.lineCounts());
        const child = await launch(slot);
        Object.assign(slot, { child, pid: child.pid, isKilled: false });
      } finally {
        slot.isStarting = false;
      }
    },
    isUp: (index) => !slotAt(index).child.hasExited() && !slotAt(index).isStarting,
    lineCounts: (index) => {
      const slot = slotAt(index);
      return addCounts({ ...slot.earlierCounts }, slot.child.lineCounts());
    },
  };
}
