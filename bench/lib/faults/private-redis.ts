// A Redis of this run's own, for scenarios that hang, kill or restart it: the shared one on 6379 belongs
// to everyone on the machine and is never touched. No persistence (the app keeps nothing in Redis it
// cannot lose), bound to 127.0.0.1 on a free port, working directory in a temporary folder.
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { onCleanup } from "../run/cleanup";
import { say, sleep } from "../run/log";
import { freePort, startChild, type ManagedChild } from "../servers/processes";

const START_TIMEOUT_MS = 10_000;

export type PrivateRedis = {
  port: number;
  url: string;
  /** The current server's pid (a restart changes it). */
  readonly pid: number;
  readonly isPaused: boolean;
  /** SIGSTOP: the server hangs; its connections stay open and commands get no answer. */
  pause(): void;
  /** SIGCONT: the server answers again, including what was sent while it hung. */
  resume(): void;
  /** SIGKILL, and waits for the exit: connections are reset, everything in it is gone. */
  kill9(): Promise<void>;
  /** Stops it if it runs, starts an empty one on the same port, and waits until it answers PING. */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

/** True once `port` answers PING with PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    const done = (isUp: boolean): void => {
      socket.destroy();
      resolve(isUp);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString("latin1").startsWith("+PONG")));
  });
}

export async function startPrivateRedis(options: { signal: AbortSignal }): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), `holdfast-bench-redis-${process.pid}-`));
  onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  let isPaused = false;
  let current: ManagedChild | null = null;
  // One cleanup for every generation, registered before the first, so a restart does not move Redis's
  // stop ahead of the apps using it. stop() sends SIGCONT after SIGTERM: a paused server stops too.
  onCleanup(`stop private redis on port ${port}`, () => current?.stop());

  const launch = async (): Promise<ManagedChild> => {
    isPaused = false;
    const started = startChild({
      name: "redis",
      command: "redis-server",
      args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      env: process.env,
      cwd: dir,
      isStoppedByCaller: true,
    });
    current = started;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await pings(port))) {
      if (started.hasExited())
        throw new Error(`redis-server exited while starting on port ${port}:\n${started.tail().slice(-20).join("\n")}`);
      if (options.signal.aborted) throw new Error("stopped");
      if (Date.now() > deadline)
        throw new Error(`redis-server did not answer on port ${port} within ${START_TIMEOUT_MS / 1000} s`);
      await sleep(50, options.signal);
    }
    return started;
  };
  let child = await launch();
  say(`private redis (pid ${child.pid}) answers on 127.0.0.1:${port}`);

  const signalServer = (signal: NodeJS.Signals): void => {
    if (child.hasExited()) throw new Error(`cannot send ${signal}: redis (pid ${child.pid}) is not running`);
    process.kill(child.pid, signal);
  };

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child.pid;
    },
    get isPaused() {
      return isPaused;
    },
    pause: () => {
      signalServer("SIGSTOP");
      isPaused = true;
    },
    resume: () => {
      signalServer("SIGCONT");
      isPaused = false;
    },
    kill9: async () => {
      signalServer("SIGKILL");
      await child.exited;
    },
    restart: async () => {
      await child.stop();
      child = await launch();
    },
    stop: () => child.stop(),
  };
}
