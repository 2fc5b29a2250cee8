// Starts bench/lib/servers/baseline-server.ts (the bare node:http + pg server) in a child process. It imports the
// app's statement files (lib/server/db/statement-files.ts), whose `import "server-only"` is a no-op under
// the react-server condition, as for the demo (scripts/demo.mjs).
import { randomBytes } from "node:crypto";
import { join } from "node:path";

import { PROJECT_ROOT } from "./database";
import { say } from "../run/log";
import { freePort, startChild, waitForHttp, type ManagedChild } from "./processes";

export type BaselineServer = { port: number; child: ManagedChild };

export async function startBaseline(options: {
  databaseUrl: string;
  poolMax: number;
  signal: AbortSignal;
  /** Prepare each statement once per connection, as the app does (lib/server/db/statement-files.ts). */
  isPrepared?: boolean;
}): Promise<BaselineServer> {
  const port = await freePort();
  const config = {
    port,
    databaseUrl: options.databaseUrl,
    poolMax: options.poolMax,
    parentPid: process.pid,
    receiptSecret: randomBytes(32).toString("base64url"),
    isPrepared: options.isPrepared ?? false,
  };
  const child = startChild({
    name: "baseline",
    command: process.execPath,
    args: [
      "--import",
      "tsx",
      "--conditions=react-server",
      join(PROJECT_ROOT, "bench", "lib", "servers", "baseline-server.ts"),
      JSON.stringify(config),
    ],
    env: { ...process.env, NODE_ENV: "production" },
    cwd: PROJECT_ROOT,
    countPatterns: { error: /^baseline: / },
  });
  await waitForHttp({ port, path: "/health", child, timeoutMs: 30_000, signal: options.signal });
  say(`baseline (node:http + pg, pool ${options.poolMax}, pid ${child.pid}) answers on http://127.0.0.1:${port}`);
  return { port, child };
}
