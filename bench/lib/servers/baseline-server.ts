// The baseline: the least a server can do for the same work on this box. Bare node:http and a pg.Pool,
// no framework, no auth, no validation beyond JSON.parse, no Redis, no audit trail. It runs the app's
// own SQL: the very files the app reads (lib/server/db/statements/*.sql, through statement-files.ts).
//
// - POST /attempts/{id}/answers  { deviceId, answers }: the one-statement versioned upsert.
// - POST /attempts/{id}/submit   { deviceId, answers, digest }: the app's first-submit path
//   (lib/server/attempts/submit-in-one-statement.ts): read the paper (read-paper-for-submit.sql), apply the
//   delta to it in memory, digest it, sign a receipt, then the one statement (submit-attempt.sql) that locks,
//   applies, and freezes with freeze.sql: the submission, its result job, outbox rows and audit entry. Since issue 17;
//   before, a 7-statement transaction (BEGIN, lock_timeout, lock, apply, freeze, read, insert, COMMIT).
// - GET /health.
// With `isPrepared` (sync's --baseline-prepared; always in exam-day and deadline-storm) every statement is prepared
// once per connection, as the app prepares these three (lib/server/db/statement-files.ts, fileStatement).
//
// Started by bench/lib/servers/baseline.ts as a child process: `node --import tsx baseline-server.ts '<json config>'`.
import { createHash, createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

import pg from "pg";

import { bindStatement, loadStatement } from "../../../lib/server/db/statement-files";
import { canonicalJson } from "../../../lib/shared/digest";
import { LISTEN_BACKLOG } from "../../../scripts/start/fast-routes.mjs";

type Config = {
  port: number;
  databaseUrl: string;
  poolMax: number;
  parentPid: number;
  receiptSecret: string;
  isPrepared?: boolean;
};
type Answer = { questionId: string; value: unknown; version: number };
type Body = { deviceId: string; answers?: Answer[]; digest?: string };

const config = JSON.parse(process.argv[2] ?? "{}") as Config;
const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.poolMax, connectionTimeoutMillis: 5_000 });

const APPLY = loadStatement("apply-answer-delta");
const READ_PAPER = loadStatement("read-paper-for-submit");
const SUBMIT = loadStatement("submit-attempt");

function deltaValues(attemptId: string, body: Body): Record<string, unknown> {
  const answers = body.answers ?? [];
  return {
    attemptId,
    // The app scopes an autosave to the caller's enrollment; the baseline has no callers (null: unscoped).
    enrollmentId: null,
    sessionHash: null,
    deviceId: body.deviceId,
    questionIds: answers.map((answer) => answer.questionId),
    values: answers.map((answer) => JSON.stringify(answer.value)),
    versions: answers.map((answer) => answer.version),
  };
}

function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

async function autosave(attemptId: string, body: Body): Promise<[number, unknown]> {
  const { rows } = await pool.query<{ open: number; revision: number | null; applied: string[] }>({
    name: config.isPrepared ? "apply-answer-delta" : undefined,
    text: APPLY.text,
    values: bindStatement(APPLY, deltaValues(attemptId, body)),
  });
  const row = rows[0];
  if (!row || row.open === 0 || row.revision === null) return [409, { error: { code: "ALREADY_SUBMITTED" } }];
  return [200, { revision: row.revision, applied: row.applied }];
}

async function submit(attemptId: string, body: Body, idempotencyKey: string): Promise<[number, unknown]> {
  const requestHash = sha256Hex(canonicalJson(body));
  const read = await pool.query<{
    status: string;
    deadline: Date;
    enrollment_id: string;
    row_version: string;
    paper: { q: string; v: unknown; n: number; d: string }[];
  }>({
    name: config.isPrepared ? "read-paper-for-submit" : undefined,
    text: READ_PAPER.text,
    values: bindStatement(READ_PAPER, { attemptId, enrollmentId: null, idempotencyKey, sessionHash: null }),
  });
  const row = read.rows[0];
  if (!row?.status || row.status === "submitted") return [409, { error: { code: "ALREADY_SUBMITTED" } }];
  // The autosave rule on the paper just read, as the app's mergeDelta does (greater (version, deviceId) wins).
  const merged = new Map(row.paper.map((answer) => [answer.q, answer]));
  for (const answer of body.answers ?? []) {
    const stored = merged.get(answer.questionId);
    if (!stored || answer.version > stored.n || (answer.version === stored.n && body.deviceId > stored.d))
      merged.set(answer.questionId, { q: answer.questionId, v: answer.value, n: answer.version, d: body.deviceId });
  }
  const paper: Record<string, unknown> = {};
  for (const answer of merged.values()) paper[answer.q] = answer.v;
  const digest = sha256Hex(canonicalJson(paper));
  const submissionId = randomUUID();
  const submittedAt = new Date();
  const clientDigest = body.digest ?? null;
  const receipt = createHmac("sha256", config.receiptSecret)
    .update(["holdfast-receipt-v1", attemptId, submittedAt.toISOString(), digest].join("\n"), "utf8")
    .digest("base64url");
  const response = {
    submissionId,
    attemptId,
    submittedAt: submittedAt.toISOString(),
    source: "candidate",
    digest,
    clientDigest,
    digestMatches: clientDigest === null ? null : clientDigest === digest,
    receipt,
    serverTime: submittedAt.toISOString(),
    deadline: row.deadline.toISOString(),
  };
  const { rows } = await pool.query<{ created: number }>({
    name: config.isPrepared ? "submit-attempt" : undefined,
    text: SUBMIT.text,
    values: bindStatement(SUBMIT, {
      ...deltaValues(attemptId, body),
      rowVersion: row.row_version,
      submissionId,
      idempotencyKey,
      requestHash,
      digest,
      clientDigest,
      receipt,
      submittedAt,
      response: JSON.stringify(response),
      source: "candidate",
      actorLabel: "Holdfast",
      auditId: randomUUID(),
      actorType: "candidate",
      actorId: row.enrollment_id,
      answerCount: merged.size,
      digestMatches: response.digestMatches,
    }),
  });
  // The app takes its locked path here (a row changed between the read and the freeze); the benchmark's
  // submits never race, so the baseline answers it as a conflict.
  if (rows[0]?.created !== 1) return [409, { error: { code: "REQUEST_IN_PROGRESS" } }];
  return [200, response];
}

const ROUTE = /^\/attempts\/([0-9a-f-]{36})\/(answers|submit)$/;

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    if (request.method === "GET" && request.url === "/health") return send(response, 200, { ok: true });
    const match = ROUTE.exec(request.url ?? "");
    if (request.method !== "POST" || !match) return send(response, 404, { error: { code: "NOT_FOUND" } });
    const [, attemptId = "", action] = match;
    let body: Body;
    try {
      body = JSON.parse(await readBody(request)) as Body;
    } catch {
      return send(response, 400, { error: { code: "BAD_REQUEST" } });
    }
    const [status, result] =
      action === "answers"
        ? await autosave(attemptId, body)
        : await submit(attemptId, body, String(request.headers["idempotency-key"] ?? randomUUID()));
    send(response, status, result);
  } catch (error) {
    console.error(
      `baseline: ${request.method} ${request.url}: ${error instanceof Error ? error.message : String(error)}`,
    );
    if (!response.headersSent) send(response, 500, { error: { code: "INTERNAL" } });
  }
}

const server = createServer((request, response) => void handle(request, response));
server.keepAliveTimeout = 65_000;
// The app's accept queue (scripts/start/fast-routes.mjs), so a storm's new connections meet the same kernel queue.
server.listen({ port: config.port, host: "127.0.0.1", backlog: LISTEN_BACKLOG }, () =>
  console.log(`baseline listening on 127.0.0.1:${config.port}`),
);

async function shutdown(): Promise<void> {
  server.close();
  server.closeAllConnections();
  await pool.end().catch(() => undefined);
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
// Never outlive the run that started it, even if that run was killed with SIGKILL.
setInterval(() => {
  try {
    process.kill(config.parentPid, 0);
  } catch {
    void shutdown();
  }
}, 1_000).unref();
