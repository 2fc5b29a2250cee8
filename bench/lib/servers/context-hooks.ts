// `--context-hooks on|off` of the scenarios that start the app's workers: off loads context-hooks-off.cjs into
// them (a measurement of Node 20's AsyncLocalStorage promise hook; pages break, the candidate routes do not).
import { fileURLToPath } from "node:url";

import type { Flags } from "../run/args";

export type ContextHooks = "on" | "off";

export const CONTEXT_HOOKS_USAGE =
  "  --context-hooks on|off   off: the workers' AsyncLocalStorage never turns on Node 20's promise hook (a measurement: Next's pages break, the candidate routes work)  on";

export function contextHooksFlag(flags: Flags): ContextHooks {
  return flags.choice("context-hooks", ["on", "off"] as const, "on");
}

/** The Node options that give the app's workers `mode` (the cluster's primary passes its own on to each worker). */
export function contextHookArgs(mode: ContextHooks): string[] {
  return mode === "off" ? ["--require", fileURLToPath(new URL("./context-hooks-off.cjs", import.meta.url))] : [];
}
