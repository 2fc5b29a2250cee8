// CPU affinity of running process trees (Linux `taskset`), for a run that measures the same work twice: once
// with everything sharing every core, once with the app server on a core of its own. Pinning is done on
// running processes (every thread, `taskset -a -p`), so both measurements can come from one run, one
// browser and one server; threads and processes started later inherit the mask of their parent.
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { spawnSync } from "node:child_process";

/** Process ids under `rootPid` (itself included), from /proc's parent links. */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid …": comm may hold spaces and parentheses; the last ")" ends it.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const tree: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Sets the CPU list (`taskset -c` syntax, e.g. "0" or "0-1") of every thread of every process in `pids`. */
export function pinProcesses(pids: readonly number[], cpus: string): { pinned: number; failed: number } {
  let pinned = 0;
  let failed = 0;
  for (const pid of pids) {
    const result = spawnSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { encoding: "utf8" });
    if (result.status === 0) pinned += 1;
    else failed += 1;
  }
  return { pinned, failed };
}

export function cpuCount(): number {
  return availableParallelism();
}

/** "0-N" for every CPU of this machine. */
export function allCpus(): string {
  const count = cpuCount();
  return count > 1 ? `0-${count - 1}` : "0";
}

/** Whether `taskset` exists here (util-linux). */
export function hasTaskset(): boolean {
  return spawnSync("taskset", ["-p", String(process.pid)], { encoding: "utf8" }).status === 0;
}
