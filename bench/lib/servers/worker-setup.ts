// Two flags of the scenarios that start the app's workers (exam-day, sync), about Next's request stores on Node
// 20's promise hook (docs/benchmarks/log/2026-12-05-next-request-stores.md):
// `--context-hooks on|off`: off loads context-hooks-off.cjs into the workers (a measurement: pages break, the
// candidate routes do not); `--warm-pages true|false`: every worker renders a page before the run (startApp).
import { fileURLToPath } from "node:url";

import type { Flags } from "../run/args";

export type ContextHooks = "on" | "off";

export const CONTEXT_HOOKS_USAGE =
  "  --context-hooks on|off   off: the workers' AsyncLocalStorage never turns on Node 20's promise hook (a measurement: Next's pages break, the candidate routes work)  on";

export function contextHooksFlag(flags: Flags): ContextHooks {
  return flags.choice("context-hooks", ["on", "off"] as const, "on");
}

export const WARM_PAGES_USAGE =
  "  --warm-pages true|false  every worker renders a page before the run, as in production (Next's stores then in the promise hook)  true";

/** Every worker renders a page before the run (the default), as a production worker has when its candidates arrive. */
export function warmPagesFlag(flags: Flags): boolean {
  return flags.choice("warm-pages", ["true", "false"] as const, "true") === "true";
}

/** The Node options that give the app's workers `mode` (the cluster's primary passes its own on to each worker). */
export function contextHookArgs(mode: ContextHooks): string[] {
  return mode === "off" ? ["--require", fileURLToPath(new URL("./context-hooks-off.cjs", import.meta.url))] : [];
}

/** What both flags give a scenario's options. */
export type WorkerSetup = {
  /** off: the workers' AsyncLocalStorage never turns on Node 20's promise hook (a measurement). */
  contextHooks: ContextHooks;
  /** Every worker renders a page first, as production workers have (startApp's warmPages). */
  isWarmedWithPages: boolean;
};

/** The two flags' lines for a scenario's `--help`. */
export const WORKER_SETUP_USAGE = [CONTEXT_HOOKS_USAGE, WARM_PAGES_USAGE].join("\n");

export function workerSetupFlags(flags: Flags): WorkerSetup {
  return { contextHooks: contextHooksFlag(flags), isWarmedWithPages: warmPagesFlag(flags) };
}
