// `npm run bench -- <scenario> [flags]`: Holdfast's benchmarks, each against the real app as a
// production server and a bare baseline measured in the same run. See bench/README.md.
//
// Whatever happens (a normal end, an error, the time limit, Ctrl-C), the run stops the servers it
// started and drops the databases it created before it exits.
import { setMaxListeners } from "node:events";

import { parseArgs, UsageError } from "./lib/run/args";
import { runCleanups } from "./lib/run/cleanup";
import { errorMessage, say, shout } from "./lib/run/log";
import { publishCharts } from "./lib/reporting/publish";
import type { Scenario } from "./lib/run/scenario";
import { asyncContextScenario } from "./scenarios/async-context";
import { autosaveScenario, baselineScenario } from "./scenarios/autosave";
import { badInputScenario } from "./scenarios/bad-input";
import { chaosScenario } from "./scenarios/chaos";
import { clientScenario } from "./scenarios/client";
import { dashboardScenario } from "./scenarios/dashboard";
import { deadlineStormScenario } from "./scenarios/deadline-storm";
import { deltaVsFullScenario } from "./scenarios/delta-vs-full";
import { enrollmentCsvScenario } from "./scenarios/enrollment-csv";
import { examDayScenario } from "./scenarios/exam-day";
import { overloadScenario } from "./scenarios/overload";
import { redisFreezeScenario } from "./scenarios/redis-freeze";
import { regradeScenario } from "./scenarios/regrade";
import { resultsCsvScenario } from "./scenarios/results-csv";
import { syncScenario } from "./scenarios/sync";
import { webhookOutageScenario } from "./scenarios/webhook-outage";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each scenario has its own options type
const SCENARIOS: Record<string, Scenario<any>> = {
  [syncScenario.name]: syncScenario,
  [clientScenario.name]: clientScenario,
  [baselineScenario.name]: baselineScenario,
  [autosaveScenario.name]: autosaveScenario,
  [deadlineStormScenario.name]: deadlineStormScenario,
  [chaosScenario.name]: chaosScenario,
  [examDayScenario.name]: examDayScenario,
  [redisFreezeScenario.name]: redisFreezeScenario,
  [overloadScenario.name]: overloadScenario,
  [deltaVsFullScenario.name]: deltaVsFullScenario,
  [badInputScenario.name]: badInputScenario,
  [dashboardScenario.name]: dashboardScenario,
  [enrollmentCsvScenario.name]: enrollmentCsvScenario,
  [regradeScenario.name]: regradeScenario,
  [resultsCsvScenario.name]: resultsCsvScenario,
  [webhookOutageScenario.name]: webhookOutageScenario,
  [asyncContextScenario.name]: asyncContextScenario,
};

const DEFAULT_MAX_MINUTES = 30;

function usage(): string {
  const lines = ["usage: npm run bench -- <scenario> [flags]", "", "scenarios:"];
  for (const scenario of Object.values(SCENARIOS))
    lines.push(`  ${scenario.name.padEnd(14)} ${scenario.summary}`, "", scenario.usage, "");
  lines.push(
    "every scenario:",
    `  --max-minutes M          stop and clean up after this long                       ${DEFAULT_MAX_MINUTES}`,
    "",
    "  publish <results/….json> copy that run's charts to docs/benchmarks/ (committed), for docs/benchmarks.md",
  );
  return lines.join("\n");
}

let shutdown: Promise<never> | undefined;

/** Undoes everything once, then exits. A second Ctrl-C exits at once, leaving what is not undone yet. */
function exitAfterCleanup(code: number): Promise<never> {
  shutdown ??= runCleanups().then(() => process.exit(code));
  return shutdown;
}

async function main(): Promise<void> {
  const controller = new AbortController();
  // Every client of a load run may wait on this signal at the same time.
  setMaxListeners(100_000, controller.signal);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (shutdown) {
        shout(
          `${signal} again: exiting without finishing the cleanup; servers or holdfast_bench_* databases may be left (the next run drops those databases)`,
        );
        process.exit(130);
      }
      say(`${signal}: stopping and cleaning up (again to exit at once)`);
      controller.abort();
      void exitAfterCleanup(130);
    });
  }

  const { positional, flags } = parseArgs(process.argv.slice(2));
  const name = positional[0];
  const isHelp = name === "help" || flags.boolean("help");
  if (!name || isHelp) {
    console.log(usage());
    return exitAfterCleanup(isHelp ? 0 : 2);
  }
  if (name === "publish") {
    const file = positional[1];
    if (!file)
      throw new UsageError(
        "publish needs a run's results file: npm run bench -- publish bench/results/<scenario>-<time>.json",
      );
    const published = publishCharts(file);
    say(
      `published ${published.charts.length} charts of ${published.scenario} ${published.stamp} to docs/benchmarks/; for docs/benchmarks.md:\n${published.markdown}`,
    );
    return exitAfterCleanup(0);
  }
  const scenario = SCENARIOS[name];
  if (!scenario) throw new UsageError(`unknown scenario "${name}"; scenarios: ${Object.keys(SCENARIOS).join(", ")}`);
  const maxMinutes = flags.number("max-minutes", DEFAULT_MAX_MINUTES, { min: 1, max: 24 * 60 });
  const options: unknown = scenario.options(flags);
  const unknown = flags.unread();
  if (unknown.length)
    throw new UsageError(
      `unknown flag${unknown.length > 1 ? "s" : ""} for ${name}: ${unknown.map((flag) => `--${flag}`).join(", ")}`,
    );

  const timer = setTimeout(() => {
    shout(`the run exceeded --max-minutes ${maxMinutes}; stopping and cleaning up`);
    controller.abort();
    void exitAfterCleanup(1);
  }, maxMinutes * 60_000);
  timer.unref();

  const result = await scenario.run(options, controller.signal);
  if (controller.signal.aborted) return exitAfterCleanup(130);
  return exitAfterCleanup(result.isOk ? 0 : 1);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${usage()}`);
    return exitAfterCleanup(2);
  }
  if (!shutdown) shout(`bench failed: ${error instanceof Error && error.stack ? error.stack : errorMessage(error)}`);
  return exitAfterCleanup(1);
});
