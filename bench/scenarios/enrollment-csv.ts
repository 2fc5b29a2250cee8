// `npm run bench -- enrollment-csv`: how long an admin waits for the preview of a big candidates CSV,
// and for its import, through the real app (`next start`, production build, private database).
//
// 1. A private database, migrated; the app built if needed and started; an exam created through the API.
// 2. The parse alone, in this process (lib/shared/enrollment-csv.ts), --repeat times: the floor.
// 3. `POST /api/admin/exams/{id}/candidates?dryRun=1` with the file (text/csv), --repeat times: every
//    line `new`, nothing written.
// 4. The import itself, once: every line written.
// 5. The preview again (every line `unchanged`, one lookup of 10,000 emails) and the import again
//    (idempotent: nothing new).
// 6. The checks: every status and count as expected, and the slowest preview within --budget seconds.
//    One line of figures per step, and bench/results/enrollment-csv-<time>.json.
import { performance } from "node:perf_hooks";

import { parseCandidatesCsv } from "../../lib/shared/enrollment-csv";
import type { CsvImportResult } from "../../lib/shared/schemas/enrollments";
import type { Flags } from "../lib/run/args";
import { startApp, type BuildMode } from "../lib/servers/app-server";
import { createMigratedDatabase } from "../lib/servers/database";
import { createAgent, send } from "../lib/load/http-client";
import { say, shout } from "../lib/run/log";
import { environment, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { appEnvironment, buildApp, createBenchExam } from "../lib/run/stage";

export type EnrollmentCsvOptions = {
  lines: number;
  repeat: number;
  budgetSeconds: number;
  build: BuildMode;
};

type Step = { step: string; seconds: number[]; status: number; summary: CsvImportResult["summary"] | null };

/** A roster like a registrar's export: quoted names with commas, some CJK, some extra time, CRLF. */
function roster(lines: number, tag: string): string {
  const rows = Array.from({ length: lines }, (_, i) => {
    const name = i % 7 === 0 ? `"张, 伟 ${i}"` : `"Lovelace, Ada ${i}"`;
    return `${name},candidate-${i}-${tag}@example.org,${i % 10 === 0 ? 25 : 0}`;
  });
  return `\uFEFFname,email,extra_minutes\r\n${rows.join("\r\n")}\r\n`;
}

function stats(seconds: number[]): string {
  const sorted = [...seconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `median ${median.toFixed(3)} s, max ${(sorted.at(-1) ?? 0).toFixed(3)} s over ${sorted.length}`;
}

export const enrollmentCsvScenario: Scenario<EnrollmentCsvOptions> = {
  name: "enrollment-csv",
  summary: "preview (dry run) and import of a big candidates CSV through the app; the preview within a budget",
  usage: [
    "  --lines N                candidates in the file                                10000",
    "  --repeat N               previews timed (and parses, in process)                   5",
    "  --budget S               the slowest preview must take at most S seconds            5",
    "  --build auto|always|never  next build when sources are newer than .next/BUILD_ID  auto",
  ].join("\n"),

  options(flags: Flags): EnrollmentCsvOptions {
    return {
      lines: flags.number("lines", 10_000, { min: 1, max: 20_000, isInteger: true }),
      repeat: flags.number("repeat", 5, { min: 1, max: 100, isInteger: true }),
      budgetSeconds: flags.number("budget", 5, { min: 0.1, max: 600 }),
      build: flags.choice("build", ["auto", "always", "never"] as const, "auto"),
    };
  },

  async run(options, signal) {
    const problems: string[] = [];
    // 1.
    const database = await createMigratedDatabase("enrollcsv");
    const env = appEnvironment({ databaseUrl: database.url, redisUrl: "redis://127.0.0.1:6379" });
    const buildId = await buildApp({ mode: options.build, env, signal });
    if (signal.aborted) return { isOk: false };
    const app = await startApp({ buildId, env, signal });
    const exam = await createBenchExam({ port: app.port, adminToken: env.ADMIN_API_TOKEN, signal });
    const agent = createAgent(2);
    const csv = roster(options.lines, Date.now().toString(36));
    const bytes = Buffer.byteLength(csv);
    say(`file: ${options.lines} lines, ${(bytes / 1024).toFixed(0)} KiB`);

    // 2.
    const parseSeconds: number[] = [];
    for (let i = 0; i < options.repeat; i++) {
      const started = performance.now();
      const parsed = parseCandidatesCsv(csv.slice(1));
      parseSeconds.push((performance.now() - started) / 1000);
      if (parsed.lines.length !== options.lines) problems.push(`parse: ${parsed.lines.length} lines`);
    }
    say(`parse, in process:        ${stats(parseSeconds)}`);

    const post = async (
      dryRun: boolean,
    ): Promise<{ seconds: number; status: number; body: CsvImportResult | null }> => {
      const started = performance.now();
      const response = await send({
        agent,
        port: app.port,
        method: "POST",
        path: `/api/admin/exams/${exam.examId}/candidates${dryRun ? "?dryRun=1" : ""}`,
        headers: { authorization: `Bearer ${env.ADMIN_API_TOKEN}`, "content-type": "text/csv; charset=utf-8" },
        body: csv,
        timeoutMs: 120_000,
        signal,
      });
      const seconds = (performance.now() - started) / 1000;
      const body = response.status === 200 ? (JSON.parse(response.body) as CsvImportResult) : null;
      if (response.status !== 200)
        problems.push(`POST (dryRun ${dryRun}): ${response.status} ${response.body.slice(0, 300)}`);
      return { seconds, status: response.status, body };
    };
    const steps: Step[] = [];
    const timed = async (
      step: string,
      dryRun: boolean,
      times: number,
      expected: Partial<CsvImportResult["summary"]>,
    ) => {
      const seconds: number[] = [];
      let last: Awaited<ReturnType<typeof post>> | null = null;
      for (let i = 0; i < times && !signal.aborted; i++) {
        last = await post(dryRun);
        seconds.push(last.seconds);
      }
      const summary = last?.body?.summary ?? null;
      for (const [key, value] of Object.entries(expected)) {
        if (summary?.[key as keyof typeof expected] !== value) {
          problems.push(`${step}: expected ${key} = ${value}, got ${JSON.stringify(summary)}`);
        }
      }
      steps.push({ step, seconds, status: last?.status ?? 0, summary });
      say(`${step.padEnd(25)} ${stats(seconds)}  ${JSON.stringify(summary)}`);
      return seconds;
    };

    // 3. to 5.
    const previews = await timed("preview, all new:", true, options.repeat, { new: options.lines, errors: 0 });
    await timed("import:", false, 1, { new: options.lines });
    const again = await timed("preview, all enrolled:", true, options.repeat, { unchanged: options.lines });
    await timed("import again:", false, 1, { new: 0, unchanged: options.lines });
    agent.destroy();
    exam.agent.destroy();
    await app.stop();

    // 6.
    const slowest = Math.max(...previews, ...again);
    if (slowest > options.budgetSeconds) {
      problems.push(`the slowest preview took ${slowest.toFixed(2)} s, over the ${options.budgetSeconds} s budget`);
    }
    say(`slowest preview: ${slowest.toFixed(3)} s (budget ${options.budgetSeconds} s)`);
    const file = writeResults("enrollment-csv", {
      options,
      environment: environment(),
      bytes,
      parseSeconds,
      steps,
      slowestPreviewSeconds: slowest,
      problems,
    });
    say(`results: ${file}`);
    for (const problem of problems) shout(problem);
    return { isOk: problems.length === 0 };
  },
};
