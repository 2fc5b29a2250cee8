// One freeze, every path (ADR 025). An attempt is submitted in six ways: the candidate's submit in one statement,
// the candidate's submit on the locked path (after waiting for another request's Redis lock), a proctor's
// force-submit, the auto-submit an overdue attempt gets from its lock (an autosave, a view), the deadline sweeper,
// and the emergency import of an overdue attempt. Each must write exactly what the others write — the attempt
// frozen, the submission, its result job, its outbox delivery, its audit entry, numbered after the history — apart
// from what names the source (the source itself, the candidate's key and request hash, the audit entry's actor).
//
// The test puts six attempts in the same state (one answer held, submitted once and reopened, so the next
// submission is version 2 and the history has a row; a webhook endpoint subscribed to submission.created), submits
// each through one path, and compares every row of every table that has an `attempt_id` column (found in the
// catalogue, so a side effect written to a new table is compared too), with ids and times made symbolic. The first
// path's snapshot is also checked against the list of what a submission writes, so a side effect that every path
// forgot fails as well as one that a single path forgot.
import { randomUUID } from "node:crypto";

import pg from "pg";
import { describe, expect, it } from "vitest";

import { POST as reopenRoute } from "@/app/api/admin/attempts/[attemptId]/reopen/route";
import { POST as uploadRoute } from "@/app/api/admin/emergency-exports/route";
import { GET as exportKeyRoute } from "@/app/api/attempts/[attemptId]/export-key/route";
import { POST as forceSubmitRoute } from "@/app/api/proctor/attempts/[attemptId]/force-submit/route";
import { db } from "@/lib/server/db/client";
import { env } from "@/lib/server/env.mjs";
import { redisKeys } from "@/lib/server/redis/keys";
import { acquireLock, releaseLock } from "@/lib/server/redis/lock";
import { answersDigest } from "@/lib/shared/digest";
import { encryptEmergencyExport } from "@/lib/shared/emergency-export";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { autoSubmitAttempt, autoSubmitOverdue } from "./auto-submit";
import { readPaperForSubmit, trySubmitInOneStatement } from "./submit-in-one-statement";

type Source = "candidate" | "proctor" | "auto";

/** The attempt as every path finds it, and the ids its rows may name. */
type Prepared = StartedAttempt & { questionId: string; email: string; firstKey: string; endpointId: string };

/** What names the path in the rows it writes: checked exactly, then made symbolic before the comparison. */
type Expected = {
  source: Source;
  key: string | null;
  actor: { type: string; id: string | null };
  /** Audit actions the path's own operation records beside the freeze (e.g. who force-submitted and why). */
  ownAudit: string[];
};

type Path = { name: string; submit(attempt: Prepared): Promise<Expected> };

const ANSWER = "held at the freeze";

/** One answer held, submitted once by the candidate and reopened by an admin; a subscribed webhook endpoint. */
async function prepare(): Promise<Prepared> {
  const attempt = await startedAttempt();
  const questionId = attempt.questions[2]!.id;
  const endpoint = await db.webhookEndpoint.create({
    data: {
      examId: attempt.examId,
      url: "http://127.0.0.1:9/freeze-paths",
      events: ["submission.created"],
      secret: `whsec_${randomUUID()}`,
    },
  });
  expect(
    (await autosave(attempt, { deviceId: "laptop", answers: [{ questionId, value: ANSWER, version: 1 }] })).status,
  ).toBe(200);
  const firstKey = randomUUID();
  expect((await submit(attempt, { deviceId: "laptop", answers: [] }, firstKey)).status).toBe(200);
  const reopened = await call(reopenRoute, {
    method: "POST",
    params: { attemptId: attempt.attemptId },
    bearer: adminToken(),
    json: { reason: "reopened for the freeze test", seconds: 600 },
  });
  expect(reopened.status).toBe(200);
  const { email } = await db.enrollment.findUniqueOrThrow({ where: { id: attempt.enrollmentId } });
  return { ...attempt, questionId, email, firstKey, endpointId: endpoint.id };
}

async function makeOverdue(attemptId: string): Promise<void> {
  await db.attempt.update({ where: { id: attemptId }, data: { deadline: new Date(Date.now() - 600_000) } });
}

const candidate = (attempt: Prepared, key: string): Expected => ({
  source: "candidate",
  key,
  actor: { type: "candidate", id: attempt.enrollmentId },
  ownAudit: [],
});
const auto: Expected = { source: "auto", key: null, actor: { type: "system", id: null }, ownAudit: [] };

const PATHS: Path[] = [
  {
    name: "the candidate's submit in one statement (submit-attempt.sql)",
    async submit(attempt) {
      const key = randomUUID();
      const paper = await readPaperForSubmit({
        attemptId: attempt.attemptId,
        candidate: { enrollmentId: attempt.enrollmentId },
        idempotencyKey: key,
      });
      const response = await trySubmitInOneStatement({
        attempt: paper,
        deviceId: "laptop",
        answers: [],
        idempotencyKey: key,
        requestHash: "a".repeat(64),
        clientDigest: undefined,
      });
      // Not null: this path, not the locked one, froze the attempt.
      expect(response?.response.source).toBe("candidate");
      return candidate(attempt, key);
    },
  },
  {
    name: "the candidate's submit on the locked path, after waiting for another request's Redis lock",
    async submit(attempt) {
      // Another request in its locked path holds the attempt's row lock (so the one statement, step 3, writes
      // nothing) and the submit lock; both are released while the submit waits for the latter, and it freezes in
      // the locked-attempt transaction (step 5).
      const holder = new pg.Client({ connectionString: env.DATABASE_URL });
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM attempts WHERE id = $1 FOR UPDATE", [attempt.attemptId]);
      const lockKey = redisKeys.submitLock(attempt.attemptId);
      const other = await acquireLock(lockKey, 10_000);
      if (other.status !== "acquired") throw new Error(`the test needs Redis: ${other.status}`);
      const release = new Promise((resolve) => setTimeout(resolve, 300)).then(async () => {
        await holder.query("ROLLBACK");
        await holder.end();
        await releaseLock(lockKey, other.token);
      });
      const key = randomUUID();
      const response = await submit(attempt, { deviceId: "laptop", answers: [] }, key);
      await release;
      expect(response.status).toBe(200);
      expect(response.body.source).toBe("candidate");
      return candidate(attempt, key);
    },
  },
  {
    name: "a proctor's force-submit",
    async submit(attempt) {
      const response = await call(forceSubmitRoute, {
        method: "POST",
        params: { attemptId: attempt.attemptId },
        bearer: adminToken(),
        json: { reason: "the freeze test" },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ source: "proctor", alreadySubmitted: false });
      return {
        source: "proctor",
        key: null,
        actor: { type: "api-token", id: null },
        ownAudit: ["attempt.force_submitted"],
      };
    },
  },
  {
    name: "the auto-submit an overdue attempt gets from its lock",
    async submit(attempt) {
      await makeOverdue(attempt.attemptId);
      expect(await autoSubmitAttempt(attempt.attemptId)).toMatchObject({ source: "auto" });
      return auto;
    },
  },
  {
    name: "the deadline sweeper",
    async submit(attempt) {
      await makeOverdue(attempt.attemptId);
      expect(await autoSubmitOverdue()).toBeGreaterThanOrEqual(1);
      return auto;
    },
  },
  {
    name: "the emergency import of an overdue attempt (frozen by its lock)",
    async submit(attempt) {
      const key = await call(exportKeyRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie });
      expect(key.status).toBe(200);
      const file = await encryptEmergencyExport({
        publicKey: key.body.publicKey,
        payload: {
          v: 1,
          attemptId: attempt.attemptId,
          deviceId: "laptop",
          createdAt: new Date().toISOString(),
          // The edit the server already holds: nothing is stored as late, so only the freeze writes.
          answers: [{ questionId: attempt.questionId, value: ANSWER, version: 1 }],
        },
      });
      await makeOverdue(attempt.attemptId);
      const response = await call(uploadRoute, {
        path: "/api/admin/emergency-exports",
        json: file,
        bearer: adminToken(),
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ mode: "late", counts: { late: 0 } });
      return { ...auto, ownAudit: ["emergency_export.imported"] };
    },
  },
];

type Row = Record<string, unknown>;

/** Every table with an `attempt_id` column, from the catalogue: a side effect in a new table is compared too. */
async function attemptTables(): Promise<string[]> {
  const rows = await db.$queryRaw<{ table_name: string }[]>`
    SELECT table_name::text AS table_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_name = 'attempt_id' ORDER BY table_name`;
  return rows.map((row) => row.table_name);
}

/** Every row the attempt has, table by table (the attempt's own row under "attempts"). */
async function rowsOf(attemptId: string, tables: readonly string[]): Promise<Record<string, Row[]>> {
  const snapshot: Record<string, Row[]> = {};
  for (const table of ["attempts", ...tables]) {
    const column = table === "attempts" ? "id" : "attempt_id";
    const rows = await db.$queryRawUnsafe<{ row: Row }[]>(
      `SELECT to_jsonb(t) AS row FROM "${table}" t WHERE t.${column} = $1::uuid`,
      attemptId,
    );
    if (rows.length > 0) snapshot[table] = rows.map((row) => row.row);
  }
  return snapshot;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const WEBHOOK_ID = /^msg_[0-9a-f]{32}$/;
/** A receipt (HMAC-SHA-256, base64url): it signs the submission's time, so it differs by path. */
const RECEIPT = /^[A-Za-z0-9_-]{43}$/;

/** Ids the rows may name, made symbolic; any other uuid or webhook id is "<id>", every time "<time>". */
function symbolic(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => symbolic(item, names));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [names.get(key) ?? key, symbolic(item, names)]),
    );
  if (typeof value !== "string") return value;
  const named = names.get(value);
  if (named) return named;
  if (UUID.test(value) || WEBHOOK_ID.test(value)) return "<id>";
  if (TIME.test(value)) return "<time>";
  if (RECEIPT.test(value)) return "<receipt>";
  // A stored response: JSON text, compared as what it says.
  if (value.startsWith("{")) return symbolic(JSON.parse(value) as unknown, names);
  return value;
}

/**
 * The attempt's rows as the comparison sees them: what names the path checked against `expected` and then
 * replaced by placeholders; the path's own audit entries (not part of the freeze) checked and dropped; rows sorted.
 */
function comparable(
  attempt: Prepared,
  rows: Record<string, Row[]>,
  expected: Expected & { digest: string },
): Record<string, unknown[]> {
  const submission = rows.submissions?.[0];
  expect(rows.submissions).toHaveLength(1);
  expect(submission).toMatchObject({
    source: expected.source,
    idempotency_key: expected.key,
    digest: expected.digest,
    version: 2,
  });
  expect(submission!.request_hash === null).toBe(expected.key === null);
  const response = JSON.parse(submission!.response as string) as Row;
  expect(response).toMatchObject({
    submissionId: submission!.id,
    source: expected.source,
    attemptId: attempt.attemptId,
  });

  const audit = rows.audit_events ?? [];
  const own = audit.filter((row) => expected.ownAudit.includes(row.action as string));
  expect(own.map((row) => row.action).sort()).toEqual([...expected.ownAudit].sort());
  const ours = audit.find(
    (row) => row.action === "attempt.submitted" && (row.data as Row).submissionId === submission!.id,
  );
  expect(ours).toMatchObject({ actor_type: expected.actor.type, actor_id: expected.actor.id });
  expect((ours!.data as Row).source).toBe(expected.source);

  const names = new Map<string, string>([
    [attempt.attemptId, "<attempt>"],
    [attempt.examId, "<exam>"],
    [attempt.enrollmentId, "<enrollment>"],
    [attempt.questionId, "<question>"],
    [attempt.endpointId, "<endpoint>"],
    [attempt.email, "<email>"],
    [attempt.firstKey, "<first key>"],
    [expected.digest, "<digest>"],
    [submission!.id as string, "<submission>"],
  ]);
  const masked: Record<string, unknown[]> = {};
  for (const [table, tableRows] of Object.entries(rows)) {
    masked[table] = tableRows
      .filter((row) => table !== "audit_events" || !expected.ownAudit.includes(row.action as string))
      .map((row) => {
        let copy: Row = { ...row };
        // Drawn at random for each attempt when it starts.
        if (table === "attempts") copy.shuffle_seed = "<seed>";
        if (table === "submissions") {
          copy = { ...copy, source: "<source>", idempotency_key: "<key>", request_hash: "<hash>" };
          copy.response = { ...(JSON.parse(row.response as string) as Row), source: "<source>" };
        }
        if (row === ours)
          copy = {
            ...copy,
            actor_type: "<actor>",
            actor_id: "<actor>",
            data: { ...(row.data as Row), source: "<source>" },
          };
        return symbolic(copy, names);
      })
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return masked;
}

/** Rows per table once the reference path has submitted: the setup's (first submit, reopening) plus the freeze's. */
const WRITTEN = {
  attempts: 1,
  answers: 1,
  submissions: 1, // the new submission, version 2
  submission_history: 1, // the first submission, superseded by the reopening
  attempt_reopenings: 1,
  result_jobs: 1, // the first submit's job, re-queued by this one (upserted: one per paper)
  webhook_deliveries: 2, // submission.created for the first submission and for this one
  audit_events: 4, // attempt.started, attempt.submitted (first), attempt.reopened, attempt.submitted (this one)
};

describe("every way an attempt is submitted writes the same rows, apart from the source", () => {
  it("submit (one statement, locked path), force-submit, auto-submit, the sweeper, the emergency import", async () => {
    const tables = await attemptTables();
    const snapshots: { name: string; rows: Record<string, unknown[]> }[] = [];
    for (const path of PATHS) {
      const attempt = await prepare();
      const expected = await path.submit(attempt);
      // The paper the server held, whatever the path: the one answer.
      const digest = await answersDigest([{ questionId: attempt.questionId, value: ANSWER }]);
      const rows = await rowsOf(attempt.attemptId, tables);
      snapshots.push({ name: path.name, rows: comparable(attempt, rows, { ...expected, digest }) });
    }

    const [reference, ...others] = snapshots;
    expect(Object.fromEntries(Object.entries(reference!.rows).map(([table, rows]) => [table, rows.length]))).toEqual(
      WRITTEN,
    );
    expect(reference!.rows.attempts).toEqual([expect.objectContaining({ status: "submitted", paused_at: null })]);
    expect(reference!.rows.submissions).toEqual([expect.objectContaining({ version: 2, client_digest: null })]);
    expect(reference!.rows.result_jobs).toEqual([
      expect.objectContaining({ cause: "submitted", actor_type: "system", exam_id: "<exam>" }),
    ]);
    expect(reference!.rows.webhook_deliveries).toContainEqual(
      expect.objectContaining({
        event_type: "submission.created",
        submission_id: "<submission>",
        endpoint_id: "<endpoint>",
        payload: expect.objectContaining({ submissionId: "<submission>", submissionVersion: 2 }),
      }),
    );
    expect(reference!.rows.audit_events).toContainEqual(
      expect.objectContaining({
        action: "attempt.submitted",
        data: { submissionId: "<submission>", version: 2, source: "<source>", answers: 1, digestMatches: null },
      }),
    );
    for (const other of others)
      expect({ path: other.name, rows: other.rows }).toEqual({ path: other.name, rows: reference!.rows });
  });
});

describe("the one submit path that writes nothing", () => {
  it("a retry of a key whose submission was reopened replays that submission's response, and writes no row", async () => {
    const attempt = await prepare();
    const tables = await attemptTables();
    const before = await rowsOf(attempt.attemptId, tables);
    const retry = await submit(attempt, { deviceId: "laptop", answers: [] }, attempt.firstKey);
    expect(retry.status).toBe(200);
    const [superseded] = await db.submissionHistory.findMany({ where: { attemptId: attempt.attemptId } });
    expect(retry.text).toBe(superseded!.response);
    expect(await rowsOf(attempt.attemptId, tables)).toEqual(before);
  });
});
