// What bench/run.ts needs from a scenario: its flags, read up front (so a typo stops the run before
// anything starts), and a run that reports whether everything it checked held.
import type { Flags } from "./args";

export type ScenarioRun = {
  /** False when the run saw something that must not happen (5xx, unexpected status, a failed check). */
  isOk: boolean;
};

export type Scenario<Options> = {
  name: string;
  /** One line for `npm run bench -- --help`. */
  summary: string;
  /** The flags and their defaults, for `--help`. */
  usage: string;
  /** Reads every flag this scenario takes. */
  options(flags: Flags): Options;
  run(options: Options, signal: AbortSignal): Promise<ScenarioRun>;
};
