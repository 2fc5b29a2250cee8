// CPU time spent during a measurement window, per party: the server under test (its whole process
// group), the Postgres backends connected to the run's database, and this load generator. On a box
// shared with other work, "CPU per request" is steadier than wall-clock throughput, and it says where
// the time goes. Linux only (/proc); elsewhere the figures are null.
import { existsSync, readdirSync, readFileSync } from "node:fs";

import pg from "pg";

/** USER_HZ: /proc reports CPU time in these ticks; 100 on every Linux this runs on. */
const TICK_MS = 10;

type Stat = { pgrp: number; cpuMs: number };

function readStat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may contain spaces; the fields after it are fixed.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const pgrp = Number(fields[2]);
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(pgrp) && Number.isFinite(ticks) ? { pgrp, cpuMs: ticks * TICK_MS } : null;
  } catch {
    return null;
  }
}

function groupCpuMs(pgid: number): number {
  let total = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat?.pgrp === pgid) total += stat.cpuMs;
  }
  return total;
}

async function backendPids(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

export type CpuUsage = {
  /** Milliseconds of CPU in the window. */
  serverMs: number;
  /** Backends connected at the end of the window (pooled connections), since the start or since they connected. */
  postgresMs: number;
  loadGeneratorMs: number;
};

export type CpuProbe = { stop(): Promise<CpuUsage | null> };

/** Starts counting now; `stop()` returns what each party used since. */
export async function startCpuProbe(options: { serverGroup: number; databaseUrl: string }): Promise<CpuProbe> {
  if (!existsSync("/proc/self/stat")) return { stop: async () => null };
  const server = groupCpuMs(options.serverGroup);
  const pids = await backendPids(options.databaseUrl);
  const backends = new Map(pids.map((pid) => [pid, readStat(pid)?.cpuMs ?? 0]));
  const loadGenerator = process.cpuUsage();
  return {
    async stop() {
      const own = process.cpuUsage(loadGenerator);
      let postgresMs = 0;
      for (const pid of await backendPids(options.databaseUrl)) {
        const now = readStat(pid)?.cpuMs;
        // A backend that connected during the window (a pool growing under load) spent all its CPU in it.
        const before = backends.get(pid) ?? 0;
        if (now !== undefined) postgresMs += now - before;
      }
      return {
        serverMs: groupCpuMs(options.serverGroup) - server,
        postgresMs,
        loadGeneratorMs: Math.round((own.user + own.system) / 1000),
      };
    },
  };
}
