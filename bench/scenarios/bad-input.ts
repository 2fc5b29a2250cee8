// `npm run bench -- bad-input`: hundreds to thousands of bad requests against every endpoint of the
// contract, through the real app (`next start`, production build, private database). Each must get a
// 4xx with the contract's JSON error body (a few documented exceptions: see bench/lib/checking/bad-input/),
// never a 5xx, a 2xx, a hang or an HTML page; and afterwards the database must be exactly as before.
//
// 1. A private database, migrated; the app built if needed and started with `next start`.
// 2. Seeding through the API: an exam of every question type with candidates joined and started, one
//    of them submitted; a second exam with one candidate; a draft exam; an admin and a proctor (straight
//    into Postgres: the API cannot create staff), signed in through the API; expired sessions (Postgres:
//    only time makes them through the API); real emergency files encrypted to the server's keys.
// 3. A snapshot of every table (row count + order-independent checksum), and each candidate's attempt view.
// 4. The bad requests (bench/lib/checking/bad-input/), deterministic from --seed, a few at a time. A 429
//    did not test its input: it is sent again after Retry-After, a bounded number of times.
// 5. The checks: every response as expected, the snapshot identical, the attempt views unchanged, no
//    error logged by the app. One line of figures, every failing case, bench/results/bad-input-<time>.json.
import { createHash, randomBytes, randomUUID } from "node:crypto";

import { hash } from "@node-rs/argon2";
import pg from "pg";

import { answersDigest } from "../../lib/shared/digest";
import { encryptEmergencyExport, type EmergencyExportFile } from "../../lib/shared/emergency-export";
import { isErrorBody } from "../../lib/shared/errors";
import type { Flags } from "../lib/run/args";
import { currentBuildId, ensureBuild, startApp, type BuildMode } from "../lib/servers/app-server";
import { capCases, generateCases } from "../lib/checking/bad-input/generate-cases";
import type { BadCase, Fixture, FixtureCandidate, FixtureQuestion } from "../lib/checking/bad-input/types";
import { createMigratedDatabase } from "../lib/servers/database";
import {
  diffSnapshots,
  snapshotDatabase,
  waitForResultsQueue,
  type DatabaseSnapshot,
} from "../lib/checking/db-snapshot";
import { createAgent } from "../lib/load/http-client";
import { say, shout, sleep } from "../lib/run/log";
import { mapLimit } from "../lib/load/map-limit";
import { sendRaw, type RawResponse } from "../lib/load/raw-http";
import { writeMarkdownReport } from "../lib/reporting/markdown-report";
import { environment, writeResults } from "../lib/reporting/report";
import { latencyDistributionChart } from "../lib/reporting/svg-chart";
import type { Scenario } from "../lib/run/scenario";
import { appEnvironment } from "../lib/run/stage";
import { Api } from "../lib/candidates/seed";

export type BadInputOptions = {
  seed: number;
  /** null: every generated case. */
  cases: number | null;
  concurrency: number;
  candidates: number;
  requestTimeoutMs: number;
  max429Retries: number;
  build: BuildMode;
};

/**
 * Tables allowed to change while only bad requests are sent, each with the reason. Empty: no rejected
 * request writes anything (failed sign-ins and join attempts are not audited; rate-limit counters and
 * live heartbeats are in Redis, not Postgres). A case that would legitimately write (a late answer to a
 * submitted attempt, a heartbeat) is not sent; see bench/lib/checking/bad-input/.
 */
const TABLES_ALLOWED_TO_CHANGE: Readonly<Record<string, string>> = {};

const OPTION_IDS = ["a", "b", "c", "d"];
const SAMPLE_LIMIT = 40;
const BIG_BODY_BYTES = 64 * 1024;

function examDefinition(title: string, status: "published" | "draft"): Record<string, unknown> {
  const options = OPTION_IDS.map((id) => ({ id, label: `Option ${id.toUpperCase()}` }));
  return {
    title,
    durationSeconds: 4 * 3600,
    graceSeconds: 60,
    status,
    questions: [
      { type: "single_choice", prompt: "Pick one", options, answerKey: "a", points: 1 },
      { type: "multiple_choice", prompt: "Pick some", options, answerKey: ["a", "c"], points: 2 },
      { type: "short_text", prompt: "Say it briefly", points: 1 },
      { type: "essay", prompt: "Say it at length", points: 5 },
      { type: "numeric", prompt: "How many?", answerKey: 42, tolerance: 0.5, points: 1 },
    ],
  };
}

function paperOf(
  questions: readonly FixtureQuestion[],
  label: string,
): { questionId: string; value: string | number | string[]; version: number }[] {
  return questions.map((question) => {
    const value =
      question.type === "single_choice"
        ? "b"
        : question.type === "multiple_choice"
          ? ["a", "d"]
          : question.type === "numeric"
            ? 41.5
            : `${label} ${question.type}`;
    return { questionId: question.id, value, version: 1 };
  });
}

async function createExam(
  api: Api,
  title: string,
  status: "published" | "draft",
): Promise<{ id: string; questions: FixtureQuestion[] }> {
  const response = await api.call("POST", "/api/admin/exams", {
    body: examDefinition(title, status),
    isAdmin: true,
    expect: [201],
  });
  const created = JSON.parse(response.body) as {
    id: string;
    questions: { id: string; type: FixtureQuestion["type"]; position: number }[];
  };
  const questions = [...created.questions]
    .sort((a, b) => a.position - b.position)
    .map((question) => ({
      id: question.id,
      type: question.type,
      optionIds: question.type.endsWith("choice") ? OPTION_IDS : [],
    }));
  return { id: created.id, questions };
}

async function enrollAndJoin(api: Api, examId: string, count: number, tag: string): Promise<string[]> {
  const candidates = Array.from({ length: count }, (_, index) => ({
    name: `Bad Input ${tag} ${index + 1}`,
    email: `bad-input-${tag}-${index + 1}@holdfast.test`,
  }));
  const response = await api.call("POST", `/api/admin/exams/${examId}/candidates`, {
    body: { candidates },
    isAdmin: true,
    expect: [201],
  });
  const enrolled = (JSON.parse(response.body) as { candidates: { joinToken: string }[] }).candidates;
  const cookies: string[] = [];
  for (const { joinToken } of enrolled) {
    const joined = await api.call("POST", "/api/session", { body: { joinToken }, expect: [200] });
    const cookie = joined.headers["set-cookie"]?.[0]?.split(";")[0];
    if (!cookie) throw new Error("seeding: POST /api/session set no cookie");
    cookies.push(cookie);
  }
  return cookies;
}

async function startAndFill(
  api: Api,
  examId: string,
  questions: readonly FixtureQuestion[],
  cookie: string,
  label: string,
): Promise<FixtureCandidate> {
  const started = await api.call("POST", `/api/exams/${examId}/attempts`, { cookie, expect: [201] });
  const { attemptId } = JSON.parse(started.body) as { attemptId: string };
  await api.call("POST", `/api/attempts/${attemptId}/answers`, {
    cookie,
    body: { deviceId: "bench-seed", answers: paperOf(questions, label) },
    expect: [200],
  });
  return { cookie, attemptId };
}

/** Staff users and expired sessions: the API has no way to make them (staff are provisioned, sessions expire with time). */
async function seedInPostgres(
  databaseUrl: string,
  otherExamId: string,
  candidateEnrollmentOf: string,
): Promise<{
  admin: { email: string; password: string };
  proctor: { email: string; password: string };
  expiredCandidateToken: string;
  expiredStaffToken: string;
}> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const admin = {
      id: randomUUID(),
      email: "bad-input-admin@holdfast.test",
      password: randomBytes(12).toString("base64url"),
    };
    const proctor = {
      id: randomUUID(),
      email: "bad-input-proctor@holdfast.test",
      password: randomBytes(12).toString("base64url"),
    };
    for (const [user, role] of [
      [admin, "admin"],
      [proctor, "proctor"],
    ] as const) {
      await client.query("INSERT INTO staff_users (id, email, name, role, password_hash) VALUES ($1, $2, $3, $4, $5)", [
        user.id,
        user.email,
        `Bad Input ${role}`,
        role,
        await hash(user.password),
      ]);
    }
    await client.query("INSERT INTO exam_proctors (exam_id, staff_user_id) VALUES ($1, $2)", [otherExamId, proctor.id]);
    const expiredCandidateToken = randomBytes(32).toString("base64url");
    const expiredStaffToken = randomBytes(32).toString("base64url");
    const sha = (token: string): string => createHash("sha256").update(token).digest("hex");
    const { rows } = await client.query<{ enrollment_id: string }>(
      "SELECT enrollment_id::text FROM attempts WHERE id = $1",
      [candidateEnrollmentOf],
    );
    await client.query(
      `INSERT INTO sessions (id, token_hash, kind, enrollment_id, expires_at) VALUES ($1, $2, 'candidate', $3, now() - interval '1 hour')`,
      [randomUUID(), sha(expiredCandidateToken), rows[0]?.enrollment_id],
    );
    await client.query(
      `INSERT INTO sessions (id, token_hash, kind, staff_user_id, expires_at) VALUES ($1, $2, 'staff', $3, now() - interval '1 minute')`,
      [randomUUID(), sha(expiredStaffToken), admin.id],
    );
    return { admin, proctor, expiredCandidateToken, expiredStaffToken };
  } finally {
    await client.end();
  }
}

async function signIn(api: Api, email: string, password: string): Promise<string> {
  const response = await api.call("POST", "/api/staff/session", { body: { email, password }, expect: [200] });
  const cookie = response.headers["set-cookie"]?.[0]?.split(";")[0];
  if (!cookie) throw new Error("seeding: POST /api/staff/session set no cookie");
  return cookie;
}

async function exportFile(
  api: Api,
  candidate: FixtureCandidate,
  answers: { questionId: string; value: unknown; version: number }[],
): Promise<EmergencyExportFile> {
  const response = await api.call("GET", `/api/attempts/${candidate.attemptId}/export-key`, {
    cookie: candidate.cookie,
    expect: [200],
  });
  const { publicKey } = JSON.parse(response.body) as { publicKey: string };
  return encryptEmergencyExport({
    publicKey,
    payload: {
      v: 1,
      attemptId: candidate.attemptId,
      deviceId: "bench-export",
      createdAt: new Date().toISOString(),
      answers: answers as { questionId: string; value: string; version: number }[],
    },
  });
}

/** The candidate's view of their attempt, without the fields that change with the clock. */
async function attemptView(api: Api, candidate: FixtureCandidate): Promise<string> {
  const response = await api.call("GET", `/api/attempts/${candidate.attemptId}`, {
    cookie: candidate.cookie,
    expect: [200],
  });
  const view = JSON.parse(response.body) as Record<string, unknown>;
  delete view.serverTime;
  return JSON.stringify(view);
}

async function seed(options: {
  api: Api;
  port: number;
  databaseUrl: string;
  adminToken: string;
  metricsToken: string;
  candidates: number;
}): Promise<Fixture> {
  const { api } = options;
  const stamp = new Date().toISOString();
  const exam = await createExam(api, `Bad input ${stamp}`, "published");
  const otherExam = await createExam(api, `Bad input, other exam ${stamp}`, "published");
  const draftExam = await createExam(api, `Bad input, draft ${stamp}`, "draft");

  const cookies = await enrollAndJoin(api, exam.id, options.candidates + 1, "a");
  const candidates: FixtureCandidate[] = [];
  for (const [index, cookie] of cookies.entries())
    candidates.push(await startAndFill(api, exam.id, exam.questions, cookie, `candidate ${index + 1}`));
  const [otherCookie] = await enrollAndJoin(api, otherExam.id, 1, "b");
  const other = await startAndFill(api, otherExam.id, otherExam.questions, otherCookie ?? "", "other");
  const [draftCookie] = await enrollAndJoin(api, draftExam.id, 1, "c");

  // The first candidate submits, so replayed keys and already-submitted attempts exist.
  const [first, ...open] = candidates;
  if (!first || open.length === 0) throw new Error("seeding: too few candidates");
  const finalDelta = [{ questionId: (exam.questions[2] as FixtureQuestion).id, value: "final answer", version: 2 }];
  const paper = paperOf(exam.questions, "candidate 1").map((answer) =>
    answer.questionId === finalDelta[0]?.questionId ? finalDelta[0] : answer,
  );
  const submitBody = { deviceId: "bench-seed", answers: finalDelta, digest: await answersDigest(paper) };
  const idempotencyKey = randomUUID();
  // Api.call sends no extra headers, and a submit needs its Idempotency-Key.
  const submitted = await sendRaw({
    agent: false,
    port: options.port,
    request: {
      method: "POST",
      path: `/api/attempts/${first.attemptId}/submit`,
      headers: { "content-type": "application/json", cookie: first.cookie, "idempotency-key": idempotencyKey },
      body: Buffer.from(JSON.stringify(submitBody)),
    },
    timeoutMs: 30_000,
  });
  if (submitted.status !== 200)
    throw new Error(`seeding: the submit answered ${submitted.status}: ${submitted.body.slice(0, 300)}`);

  const staff = await seedInPostgres(options.databaseUrl, otherExam.id, (open[0] as FixtureCandidate).attemptId);
  const adminCookie = await signIn(api, staff.admin.email, staff.admin.password);
  const proctorCookie = await signIn(api, staff.proctor.email, staff.proctor.password);

  const invalidAnswers = await exportFile(api, open[0] as FixtureCandidate, [
    { questionId: randomUUID(), value: "a", version: 7 },
  ]);
  const validAnswers = await exportFile(api, open[1] ?? (open[0] as FixtureCandidate), [
    { questionId: (exam.questions[2] as FixtureQuestion).id, value: "from the file", version: 50 },
  ]);

  const [single, multiple, short] = exam.questions as [FixtureQuestion, FixtureQuestion, FixtureQuestion];
  const badAnswers: [string, { questionId: string; value: unknown; version: number }][] = [
    ["a text answer with a NUL", { questionId: short.id, value: "a\u0000b", version: 60 }],
    ["a text answer with an unpaired surrogate", { questionId: short.id, value: "\ud800", version: 60 }],
    ["a text answer over the limit", { questionId: short.id, value: "x".repeat(2_001), version: 60 }],
    ["an option that does not exist", { questionId: single.id, value: "z", version: 60 }],
    ["a duplicate option", { questionId: multiple.id, value: ["a", "a"], version: 60 }],
    ["a version of 2^31", { questionId: single.id, value: "a", version: 2 ** 31 }],
    ["a version of 0", { questionId: single.id, value: "a", version: 0 }],
    [
      "a question of another exam",
      { questionId: (otherExam.questions[0] as FixtureQuestion).id, value: "a", version: 60 },
    ],
    // null clears an answer (valid); a boolean is no answer of any type.
    ["a boolean value", { questionId: single.id, value: true, version: 60 }],
  ];
  const badPayloads = [];
  for (const [label, answer] of badAnswers)
    badPayloads.push({ label, file: await exportFile(api, open[0] as FixtureCandidate, [answer]) });

  return {
    adminToken: options.adminToken,
    metricsToken: options.metricsToken,
    exam,
    otherExam,
    draftExam: { id: draftExam.id },
    open,
    submitted: { ...first, idempotencyKey, body: submitBody },
    other,
    draftCookie: draftCookie ?? "",
    expiredCandidateCookie: `holdfast_candidate=${staff.expiredCandidateToken}`,
    expiredStaffCookie: `holdfast_staff=${staff.expiredStaffToken}`,
    adminCookie,
    proctorCookie,
    staff: { adminEmail: staff.admin.email, proctorEmail: staff.proctor.email },
    exportFiles: { invalidAnswers, validAnswers, badPayloads },
  };
}

type Verdict = {
  problem: string | null;
  kind: "ok" | "5xx" | "wrong-2xx" | "no-response" | "bad-body" | "wrong-status" | "untested-429";
};

function header(response: RawResponse, name: string): string {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

/** Whether the response is what the case must get; the problem in words if not. */
function judge(item: BadCase, response: RawResponse): Verdict {
  if (response.status === 0)
    return { kind: "no-response", problem: `no response (${response.error ?? "?"}) after ${response.ms} ms` };
  if (response.status >= 500) return { kind: "5xx", problem: `${response.status}` };
  if (response.status === 429)
    return { kind: "untested-429", problem: "429 after every retry: the input was never tested" };
  const { expect } = item;
  if (expect.kind === "allow") {
    if (!expect.statuses.includes(response.status))
      return {
        kind: response.status < 300 ? "wrong-2xx" : "wrong-status",
        problem: `${response.status}, expected ${expect.statuses.join("/")} (${expect.why})`,
      };
    if (expect.location && !expect.location.test(header(response, "location")))
      return { kind: "wrong-status", problem: `Location ${JSON.stringify(header(response, "location"))}` };
    if (expect.isCookieForbidden && header(response, "set-cookie"))
      return { kind: "wrong-status", problem: `sets a cookie: ${header(response, "set-cookie").slice(0, 80)}` };
    return { kind: "ok", problem: null };
  }
  if (response.status < 300) return { kind: "wrong-2xx", problem: `${response.status} for a bad request` };
  if (response.status < 400)
    return { kind: "wrong-status", problem: `${response.status} (a redirect) for a bad request` };
  if (!header(response, "content-type").includes("application/json"))
    return {
      kind: "bad-body",
      problem: `${response.status} with Content-Type ${JSON.stringify(header(response, "content-type"))}, not the JSON error body`,
    };
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return { kind: "bad-body", problem: `${response.status} with a body that is not JSON` };
  }
  if (!isErrorBody(body) || typeof body.error.message !== "string" || body.error.message === "")
    return { kind: "bad-body", problem: `${response.status} without { error: { code, message } }` };
  if (expect.statuses && !expect.statuses.includes(response.status))
    return {
      kind: "wrong-status",
      problem: `${response.status} ${body.error.code}, expected ${expect.statuses.join("/")}`,
    };
  return { kind: "ok", problem: null };
}

function excerpt(text: string | Buffer | undefined, length: number): string {
  if (text === undefined) return "(no body)";
  const value = Buffer.isBuffer(text) ? text.subarray(0, length * 4).toString("utf8") : text;
  const flat = JSON.stringify(value.length > length ? `${value.slice(0, length)}…` : value);
  const total = Buffer.isBuffer(text) ? text.byteLength : Buffer.byteLength(text);
  return total > length ? `${flat} (${total} bytes)` : flat;
}

type Outcome = { item: BadCase; response: RawResponse; verdict: Verdict; tries: number };

function count<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

export const badInputScenario: Scenario<BadInputOptions> = {
  name: "bad-input",
  summary: "bad requests to every endpoint: each a 4xx with the error body, none changing the database",
  usage: [
    "  --seed S                 generates the same cases for the same seed              1",
    "  --cases N                at most N cases, spread over endpoints and categories   all (~2,900)",
    "  --concurrency N          requests in flight                                      4",
    "  --candidates N           started candidates of the main exam (cookies rotate)    8",
    "  --request-timeout-ms MS  a request without an answer by then is a failure        15000",
    "  --max-429-retries N      resends of a request answered 429 (after Retry-After)   5",
    "  --build auto|always|never  next build: when sources are newer than .next/BUILD_ID   auto",
  ].join("\n"),

  options(flags: Flags): BadInputOptions {
    const cases = flags.number("cases", 0, { min: 0, max: 1_000_000, isInteger: true });
    return {
      seed: flags.number("seed", 1, { min: 0, max: 2 ** 32 - 1, isInteger: true }),
      cases: cases === 0 ? null : cases,
      concurrency: flags.number("concurrency", 4, { min: 1, max: 64, isInteger: true }),
      candidates: flags.number("candidates", 8, { min: 2, max: 200, isInteger: true }),
      requestTimeoutMs: flags.number("request-timeout-ms", 15_000, { min: 500, max: 120_000, isInteger: true }),
      max429Retries: flags.number("max-429-retries", 5, { min: 0, max: 50, isInteger: true }),
      build: flags.choice("build", ["auto", "always", "never"] as const, "auto"),
    };
  },

  async run(options, signal) {
    const startedAt = new Date();
    const env0 = environment();
    const problems: string[] = [];

    // 1.
    const database = await createMigratedDatabase("bad_input");
    const adminToken = randomBytes(32).toString("base64url");
    const metricsToken = randomBytes(32).toString("base64url");
    const appEnv = appEnvironment({
      databaseUrl: database.url,
      redisUrl: "redis://127.0.0.1:6379",
      poolMax: 5,
      // Hundreds of refused sign-ins for one account from one address: the sign-in limits (tested on their
      // own in lib/server/limits) would answer 429 for minutes and hide what this run checks, the answers.
      extra: {
        ADMIN_API_TOKEN: adminToken,
        METRICS_TOKEN: metricsToken,
        SIGN_IN_LIMIT_PER_EMAIL: "100000",
        SIGN_IN_LIMIT_PER_ADDRESS: "100000",
        // The (email, address) pair's doubling waits too: this run refuses ~100 passwords for one account.
        SIGN_IN_LIMIT_FREE_FAILURES: "1000",
        SIGN_IN_LIMIT_MAX_WAIT_SECONDS: "1",
      },
    });
    const build = await ensureBuild({ mode: options.build, env: appEnv, signal });
    if (signal.aborted) return { isOk: false };
    const app = await startApp({ buildId: build.buildId, env: appEnv, signal });

    // 2.
    const seedAgent = createAgent(4);
    const api = new Api({ port: app.port, agent: seedAgent, adminToken, signal });
    const seedStartedAt = Date.now();
    const fixture = await seed({
      api,
      port: app.port,
      databaseUrl: database.url,
      adminToken,
      metricsToken,
      candidates: options.candidates,
    });
    say(
      `seeded 3 exams, ${fixture.open.length + 2} started candidates (one submitted), an admin and a proctor in ${Math.round((Date.now() - seedStartedAt) / 1000)} s`,
    );

    // 3.
    const everyone = [...fixture.open, fixture.submitted, fixture.other];
    const viewsBefore = await Promise.all(everyone.map((candidate) => attemptView(api, candidate)));
    // The submitted candidate's paper is scored in the background (the results worker): let that finish first.
    await waitForResultsQueue(database.url);
    const before = await snapshotDatabase(database.url);

    // 4.
    const generated = generateCases(fixture, options.seed);
    const cases = options.cases === null ? generated : capCases(generated, options.cases);
    say(
      `sending ${cases.length} bad requests (of ${generated.length} generated for seed ${options.seed}), ${options.concurrency} at a time`,
    );
    app.child.resetLineCounts();
    const agent = createAgent(options.concurrency);
    const runStartedAt = performance.now();
    let resent = 0;
    let done = 0;
    const outcomes = await mapLimit(cases, options.concurrency, signal, async (item): Promise<Outcome> => {
      // Large or odd bodies get a connection of their own: a server may close it after refusing them.
      const body = item.request.body;
      const isOdd =
        (body !== undefined && body.byteLength > BIG_BODY_BYTES) ||
        item.request.chunkBytes !== undefined ||
        Object.keys(item.request.headers).includes("content-length");
      let response: RawResponse;
      let tries = 0;
      for (;;) {
        tries += 1;
        response = await sendRaw({
          agent: isOdd ? false : agent,
          port: app.port,
          request: item.request,
          timeoutMs: options.requestTimeoutMs,
        });
        if (response.status !== 429 || tries > options.max429Retries || signal.aborted) break;
        resent += 1;
        const retryAfter = Number(header(response, "retry-after"));
        await sleep((Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 1) * 1_000, signal);
      }
      done += 1;
      if (done % 500 === 0) say(`${done}/${cases.length} sent`);
      return { item, response, verdict: judge(item, response), tries };
    });
    agent.destroy();
    const elapsedMs = performance.now() - runStartedAt;
    if (signal.aborted) return { isOk: false };

    // 5.
    await sleep(500, signal);
    const after = await snapshotDatabase(database.url);
    const changed = diffSnapshots(before, after);
    const unexpectedChanges = changed.filter((change) => !(change.table in TABLES_ALLOWED_TO_CHANGE));
    const viewsAfter = await Promise.all(everyone.map((candidate) => attemptView(api, candidate)));
    const changedViews = everyone.filter((_, index) => viewsBefore[index] !== viewsAfter[index]);
    seedAgent.destroy();
    const logCounts = app.child.lineCounts();
    const appErrors = logCounts.error ?? 0;
    // What Next.js itself prints when something throws outside the app's logger (no "level" field):
    // the last lines of output are all that is kept, which is where a failure near the end would be.
    const unstructuredErrors = app.child.tail().filter((line) => /^\s*(⨯|[A-Z]\w*Error\b|Error:)/.test(line));
    const isAppAlive = !app.child.hasExited();

    const failures = outcomes.filter((outcome) => outcome.verdict.problem !== null);
    const statusCounts = count(outcomes, (outcome) =>
      outcome.response.status === 0 ? `ERR ${outcome.response.error ?? "?"}` : String(outcome.response.status),
    );
    const kinds = count(failures, (outcome) => outcome.verdict.kind);
    const perEndpoint = count(outcomes, (outcome) => outcome.item.endpoint);
    const perCategory = count(outcomes, (outcome) => outcome.item.category);
    const requests = outcomes.reduce((sum, outcome) => sum + outcome.tries, 0);
    const fiveXx = outcomes.filter((outcome) => outcome.response.status >= 500).length;

    for (const failure of failures.slice(0, SAMPLE_LIMIT)) {
      const { item, response, verdict } = failure;
      console.log(
        `FAIL [${item.category}] ${item.endpoint} — ${item.label}\n` +
          `     ${item.request.method} ${item.request.path.slice(0, 160)}  body ${excerpt(item.request.body, 160)}\n` +
          `     → ${verdict.problem}; response ${excerpt(response.body, 300)}`,
      );
    }
    if (failures.length > SAMPLE_LIMIT)
      console.log(`… and ${failures.length - SAMPLE_LIMIT} more failing cases (all in the results file)`);
    if (failures.length > 0)
      problems.push(`${failures.length} of ${outcomes.length} cases failed: ${JSON.stringify(kinds)}`);
    for (const change of unexpectedChanges) {
      problems.push(
        `table ${change.table} changed: ${change.before?.rows ?? "absent"} → ${change.after?.rows ?? "absent"} rows (checksum ${change.before?.checksum.slice(0, 8) ?? "-"} → ${change.after?.checksum.slice(0, 8) ?? "-"})`,
      );
    }
    if (changedViews.length > 0)
      problems.push(
        `${changedViews.length} attempt views changed: ${changedViews.map((candidate) => candidate.attemptId).join(", ")}`,
      );
    if (appErrors > 0)
      problems.push(
        `the app logged ${appErrors} error lines ("level":"error"); last lines:\n${app.child
          .tail()
          .filter((line) => line.includes('"level":"error"'))
          .slice(-5)
          .join("\n")}`,
      );
    if (unstructuredErrors.length > 0)
      problems.push(`the app printed errors outside its logger:\n${unstructuredErrors.slice(-5).join("\n")}`);
    if (!isAppAlive) problems.push("the app exited during the run");
    if (currentBuildId() !== build.buildId)
      say(
        `note: .next was rebuilt by someone else during the run; this run tested build ${build.buildId} (from its private copy)`,
      );
    for (const problem of problems) shout(problem);

    const tables = before.length;
    const unchanged = tables - changed.length;
    const statuses = Object.entries(statusCounts)
      .map(([key, value]) => `${key}×${value}`)
      .join(" ");
    const line =
      `bad-input: ${outcomes.length} cases, ${requests} requests (${resent} resent after 429) in ${(elapsedMs / 1000).toFixed(1)} s  [${statuses}]` +
      `  5xx=${fiveXx} wrong-2xx=${kinds["wrong-2xx"] ?? 0} no-response=${kinds["no-response"] ?? 0} bad-body=${kinds["bad-body"] ?? 0} wrong-status=${kinds["wrong-status"] ?? 0} untested-429=${kinds["untested-429"] ?? 0}` +
      `  unchanged tables ${unchanged}/${tables}  attempt views ${everyone.length - changedViews.length}/${everyone.length}  app errors ${appErrors + unstructuredErrors.length}`;
    console.log("");
    console.log(
      `per endpoint: ${Object.entries(perEndpoint)
        .map(([key, value]) => `${key} ${value}`)
        .join("; ")}`,
    );
    console.log(
      `per category: ${Object.entries(perCategory)
        .map(([key, value]) => `${key} ${value}`)
        .join("; ")}`,
    );
    console.log(line);
    console.log(`checks: ${problems.length === 0 ? "all passed" : `${problems.length} FAILED (see above)`}`);

    const file = writeResults("bad-input", {
      scenario: "bad-input",
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      options,
      environment: env0,
      build,
      generated: generated.length,
      sent: outcomes.length,
      requests,
      resentAfter429: resent,
      elapsedMs: Math.round(elapsedMs),
      statusCounts,
      failureKinds: kinds,
      perEndpoint,
      perCategory,
      perEndpointAndCategory: count(outcomes, (outcome) => `${outcome.item.endpoint} | ${outcome.item.category}`),
      tablesAllowedToChange: TABLES_ALLOWED_TO_CHANGE,
      snapshot: { before, after: after satisfies DatabaseSnapshot, changed },
      attemptViews: { checked: everyone.length, changed: changedViews.map((candidate) => candidate.attemptId) },
      appLogLines: logCounts,
      unstructuredErrors,
      failures: failures.map(({ item, response, verdict, tries }) => ({
        endpoint: item.endpoint,
        category: item.category,
        label: item.label,
        method: item.request.method,
        path: item.request.path.slice(0, 500),
        requestHeaders: Object.fromEntries(
          Object.entries(item.request.headers).map(([name, value]) => [name, value.slice(0, 200)]),
        ),
        body: excerpt(item.request.body, 500),
        status: response.status,
        error: response.error,
        problem: verdict.problem,
        response: excerpt(response.body, 1_000),
        tries,
      })),
      problems,
      line,
    });
    const perEndpointStatus = new Map<string, Record<string, number>>();
    for (const outcome of outcomes) {
      const row = perEndpointStatus.get(outcome.item.endpoint) ?? {};
      const key = outcome.response.status === 0 ? "no answer" : `${String(outcome.response.status)[0]}xx`;
      row[key] = (row[key] ?? 0) + 1;
      perEndpointStatus.set(outcome.item.endpoint, row);
    }
    const report = writeMarkdownReport({
      scenario: "bad-input",
      title: `Bad input: ${outcomes.length} bad requests to every endpoint`,
      verdict: problems.length === 0 ? "passed" : "failed",
      summary: [line, ...problems.map((problem) => `!! ${problem}`)],
      sections: [
        {
          heading: "Answers per endpoint",
          paragraphs: [
            "Every case must be answered with a 4xx and the contract's error body (a few documented exceptions: bench/lib/checking/bad-input/), and the database must end exactly as it began.",
          ],
          table: {
            columns: ["endpoint", "cases", "2xx/3xx (documented)", "4xx", "5xx", "no answer", "failing"],
            rows: [...perEndpointStatus].map(([endpoint, row]) => [
              endpoint,
              perEndpoint[endpoint] ?? 0,
              (row["2xx"] ?? 0) + (row["3xx"] ?? 0),
              row["4xx"] ?? 0,
              row["5xx"] ?? 0,
              row["no answer"] ?? 0,
              failures.filter((outcome) => outcome.item.endpoint === endpoint).length,
            ]),
          },
        },
        {
          heading: "Cases per category",
          table: { columns: ["category", "cases"], rows: Object.entries(perCategory) },
        },
        {
          heading: "How fast a refusal is",
          charts: [
            {
              name: "percentiles",
              svg: latencyDistributionChart({
                title: "latency of a bad request's answer, by percentile",
                series: [
                  {
                    name: "all cases",
                    samplesSortedMs: Float64Array.from(outcomes.map((outcome) => outcome.response.ms)).sort(),
                  },
                ],
              }),
              alt: "latency of the answers by percentile",
            },
          ],
        },
      ],
      jsonFile: file,
      environment: env0,
    });
    console.log(`results: ${file}; report: ${report}`);
    return { isOk: problems.length === 0 };
  },
};
