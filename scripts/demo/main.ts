// `npm run demo` after its dependencies are installed (scripts/demo.mjs starts this under tsx):
// database, migrations, demo data, build, `next start`, and a printout of where to click.
// Ctrl-C stops everything it started, in order: the app, then the embedded database.
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { loadDemoSecrets, type DemoSecrets } from "./demo-secrets";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "./embedded-database";
import { exampleApiCall } from "./example-api-call";
import { buildIfChanged } from "./next-build";
import { findFreePort, localBin, runChild, startChild, stopChildren, waitForOk } from "./processes";
import type { DemoSeed } from "./seed-demo";

const HELP = `Usage: npm run demo [-- <flags>]

Runs Holdfast on this machine with a demo exam: starts an embedded PostgreSQL (unless DATABASE_URL is
set), applies the migrations, seeds the demo data, builds the app when its sources changed, starts it,
and prints the links to open as admin, proctor and each candidate. Ctrl-C stops everything it started.
Re-running reuses the data, the secrets (.holdfast/demo.env) and therefore the same links.

Flags:
  --reset     delete the demo data and seed it again. Embedded database: removes .holdfast/pgdata.
              With DATABASE_URL: runs \`prisma migrate reset --force\`, which empties THAT database.
  --rebuild   run \`next build\` even if the sources did not change
  -h, --help  show this text

Environment:
  PORT            port of the app (default 3000; the next free port is taken if it is busy)
  DATABASE_URL    use this PostgreSQL instead of the embedded one
  REDIS_URL       Redis for the app; unset, the app tries 127.0.0.1:6379 and otherwise runs in
                  single-instance mode (see docs/decisions/003-running-without-redis.md)
  PRISMA_SCHEMA_ENGINE_BINARY
                  Prisma schema engine for migrations, for machines that cannot download Prisma's
                  (set automatically when ../shared/tools/prisma-engine/schema-engine.mjs exists)`;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const stateDir = join(root, ".holdfast");

let database: EmbeddedDatabase | null = null;
let isStopping = false;

function say(message: string): void {
  console.log(`holdfast: ${message}`);
}

/** Stops what the demo started (app first, then the database it uses) and exits. Runs once. */
async function shutDown(exitCode: number, reason?: string): Promise<void> {
  if (isStopping) return;
  isStopping = true;
  if (reason) say(reason);
  await stopChildren(10_000);
  if (database) {
    say("stopping the embedded PostgreSQL");
    await database.stop();
  }
  say(exitCode === 0 ? "stopped" : "stopped after an error");
  process.exit(exitCode);
}

// A terminal's Ctrl-C reaches this process once from the terminal and once through scripts/demo.mjs;
// shutDown runs only once, so the second is harmless.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => void shutDown(0, `${signal} received, stopping`));
}

function parseFlags(): { isReset: boolean; isRebuild: boolean } {
  try {
    const { values } = parseArgs({
      options: { reset: { type: "boolean" }, rebuild: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      console.log(HELP);
      process.exit(0);
    }
    return { isReset: values.reset ?? false, isRebuild: values.rebuild ?? false };
  } catch (error) {
    console.error(`holdfast: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    process.exit(2);
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
}

async function prepareDatabase(options: {
  secrets: DemoSecrets;
  isReset: boolean;
  areSecretsNew: boolean;
}): Promise<string> {
  const external = process.env.DATABASE_URL;
  const prisma = localBin(root, "prisma");
  if (external) {
    say(`using DATABASE_URL (${redact(external)}) instead of the embedded database`);
    const env = { ...process.env, DATABASE_URL: external };
    if (options.isReset) {
      say("--reset: emptying that database with `prisma migrate reset --force`");
      await runChild(prisma, ["migrate", "reset", "--force"], { cwd: root, env });
    }
    await runChild(prisma, ["migrate", "deploy"], { cwd: root, env });
    return external;
  }

  const dataDir = join(stateDir, "pgdata");
  database = await startEmbeddedDatabase({
    dataDir,
    password: options.secrets.DEMO_POSTGRES_PASSWORD,
    reset: options.isReset,
  });
  if (!database.isFirstRun && options.areSecretsNew) {
    throw new Error(
      ".holdfast/demo.env was missing but .holdfast/pgdata exists; the data was made with other secrets. " +
        "Run `npm run demo -- --reset` to start over.",
    );
  }
  say(`embedded PostgreSQL is up on 127.0.0.1:${database.port} (data in .holdfast/pgdata)`);
  await runChild(prisma, ["migrate", "deploy"], { cwd: root, env: { ...process.env, DATABASE_URL: database.url } });
  return database.url;
}

function printLinks(options: { appUrl: string; seed: DemoSeed; secrets: DemoSecrets; databaseUrl: string }): void {
  const { appUrl, seed, secrets } = options;
  const rule = "─".repeat(78);
  const nameWidth = Math.max(
    ...seed.exams.flatMap((exam) => exam.candidates.map((candidate) => candidate.name.length)),
  );
  const lines = [
    "",
    rule,
    `  Holdfast demo is running at ${appUrl}`,
    "",
    `  Admin      ${appUrl}/signin`,
    `             email ${seed.admin.email}   password ${secrets.DEMO_ADMIN_PASSWORD}`,
    `  Proctor    ${appUrl}/signin?next=/proctor/exams/${seed.exams[0]!.examId}   (the first exam's live dashboard)`,
    `             email ${seed.proctor.email}   password ${secrets.DEMO_PROCTOR_PASSWORD}`,
    ...seed.exams.flatMap((exam) => [
      "",
      `  Exam "${exam.examTitle}" (${exam.language === "zh-CN" ? "in Chinese" : "in English"}; ${exam.isExamNew ? "created now" : "from an earlier run"})`,
      `    Live dashboard  ${appUrl}/proctor/exams/${exam.examId}`,
      "    Candidates: each personal join link works on any device, as often as needed",
      ...exam.candidates.flatMap((candidate) => [
        `    ${candidate.name.padEnd(nameWidth)}  ${candidate.email}${candidate.extraSeconds > 0 ? `  (+${Math.round(candidate.extraSeconds / 60)} min extra time)` : ""}`,
        `    ${" ".repeat(nameWidth)}  ${candidate.joinUrl}`,
      ]),
    ]),
    "",
    `  API token  Authorization: Bearer ${secrets.ADMIN_API_TOKEN}`,
    "             e.g. create an exam:",
    ...exampleApiCall({ appUrl, token: secrets.ADMIN_API_TOKEN, root }).map((line) => `               ${line}`),
    `  API docs   ${appUrl}/admin/api   (the reference; the document itself: ${appUrl}/api/openapi.json)`,
    `  Database   ${database ? options.databaseUrl : redact(options.databaseUrl)}`,
    "",
    "  Stop with Ctrl-C (the data is kept; `npm run demo -- --reset` starts over).",
    rule,
    "",
  ];
  console.log(lines.join("\n"));
}

async function main(): Promise<void> {
  const { isReset, isRebuild } = parseFlags();
  mkdirSync(stateDir, { recursive: true });
  const { secrets, isNew: areSecretsNew } = loadDemoSecrets(join(stateDir, "demo.env"));
  if (areSecretsNew) say("generated the demo's secrets and passwords in .holdfast/demo.env");

  const databaseUrl = await prepareDatabase({ secrets, isReset, areSecretsNew });
  const appEnv: NodeJS.ProcessEnv = {
    // A local demo reports nothing home (and many demo machines could not reach Next's telemetry anyway).
    NEXT_TELEMETRY_DISABLED: "1",
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    APP_SECRET: secrets.APP_SECRET,
    ADMIN_API_TOKEN: secrets.ADMIN_API_TOKEN,
  };

  await buildIfChanged({ root, stampFile: join(stateDir, "build-hash"), isForced: isRebuild, env: appEnv });

  const preferredPort = Number.parseInt(process.env.PORT ?? "3000", 10);
  if (!Number.isInteger(preferredPort) || preferredPort < 1 || preferredPort > 65_535)
    throw new Error(`PORT must be a port number, not "${process.env.PORT}"`);
  const port = await findFreePort(preferredPort);
  if (port !== preferredPort) say(`port ${preferredPort} is busy; using ${port}`);
  const appUrl = `http://localhost:${port}`;

  // lib/server/env.mjs reads process.env once, when the seed first imports it.
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    APP_SECRET: secrets.APP_SECRET,
    ADMIN_API_TOKEN: secrets.ADMIN_API_TOKEN,
    APP_URL: appUrl,
  });
  say("seeding the demo data");
  const { seedDemo } = await import("./seed-demo");
  const seed = await seedDemo({
    adminPassword: secrets.DEMO_ADMIN_PASSWORD,
    proctorPassword: secrets.DEMO_PROCTOR_PASSWORD,
  });

  say(`starting the app on ${appUrl}`);
  // One Next.js worker per core when Redis is there, as `npm start` (scripts/start.mjs; HOLDFAST_WORKERS).
  const next = startChild(process.execPath, [join(root, "scripts", "start.mjs"), "-p", String(port)], {
    cwd: root,
    env: { ...appEnv, APP_URL: appUrl, PORT: String(port) },
    label: "[next]",
  });
  next.once("exit", (code, signal) => {
    if (isStopping) return;
    void shutDown(
      1,
      `the app stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); stopping the demo`,
    );
  });
  await waitForOk(`http://127.0.0.1:${port}/api/health`, next, 120_000);

  printLinks({ appUrl, seed, secrets, databaseUrl });
}

main().catch((error: unknown) => {
  if (isStopping) return;
  console.error(`holdfast: ${error instanceof Error ? error.message : String(error)}`);
  void shutDown(1);
});
