// The in-process half of the results benchmarks (bench/scenarios/regrade.ts, results-csv.ts): run by the scenario
// as `node --import tsx --conditions=react-server bench/lib/results/results-child.ts '<json task>'`, so the app's
// own server modules load (their `import "server-only"` is a no-op under that condition, as for the demo) against
// the run's private database, from a fresh process whose memory is its own. lib/server/env.mjs reads the
// environment the scenario gives the child. Each task prints one line `RESULT <json>` and exits.
//
// Tasks:
// - `worker`: a results worker, started as every app instance starts it (instrumentation.ts); lives until stopped.
// - `regrade`: seeds one exam and its submitted papers in SQL, times the baseline read, the first scoring and the
//   regrade after an answer-key correction made through updateExam (the PATCH route's operation), and checks them.
// - `csv-seed`: seeds an exam with scored papers in SQL. `csv-measure`: streams its export through the real route
//   handler, sampling the process's memory.
import { performance } from "node:perf_hooks";

import type pg from "pg";

type Task =
  | { task: "worker" }
  | { task: "regrade"; papers: number; budgetSeconds: number; sample: number }
  | { task: "csv-seed"; candidates: number; questions: number }
  | { task: "csv-measure"; examId: string; adminToken: string };

const seconds = (started: number) => (performance.now() - started) / 1000;

function report(result: unknown): void {
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

/** Sleeps `ms` milliseconds. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `count` enrolled candidates of the exam, each with a submitted attempt and its submission, all in SQL on one
 * connection (a temporary table numbers the papers, so the seeds that follow can derive answers from the number).
 * The digest and receipt are stand-ins: no benchmark verifies them.
 */
async function seedPapers(client: pg.PoolClient, examId: string, count: number): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS bench_papers`);
  await client.query(
    `CREATE TEMP TABLE bench_papers AS
       SELECT i, gen_random_uuid() AS enrollment_id, gen_random_uuid() AS attempt_id, gen_random_uuid() AS submission_id
       FROM generate_series(1, $1::int) AS i`,
    [count],
  );
  await client.query(
    `INSERT INTO enrollments (id, exam_id, name, email, join_token_hash)
     SELECT enrollment_id, $1::uuid, 'Candidate ' || i, 'candidate-' || i || '@bench.test', md5($1 || ':' || i)
     FROM bench_papers`,
    [examId],
  );
  await client.query(
    `INSERT INTO attempts (id, enrollment_id, exam_id, status, started_at, deadline, revision)
     SELECT attempt_id, enrollment_id, $1::uuid, 'submitted', now() - interval '1 hour', now(), 11 FROM bench_papers`,
    [examId],
  );
  await client.query(
    `INSERT INTO submissions (id, attempt_id, digest, receipt, source, submitted_at, version)
     SELECT submission_id, attempt_id, 'bench', 'bench', 'auto', now(), 1 FROM bench_papers`,
  );
}

// --- regrade ---------------------------------------------------------------------------------------------------

/** Ten objective questions (four single choice, three multiple choice, two numeric, one short text) and an essay. */
function regradeQuestions() {
  const options = ["a", "b", "c", "d"].map((id) => ({ id, label: `Option ${id.toUpperCase()}` }));
  return [
    ...[1, 2, 3, 4].map((n) => ({
      type: "single_choice" as const,
      prompt: `Single ${n}`,
      options,
      answerKey: "a",
      points: 1,
    })),
    ...[1, 2, 3].map((n) => ({
      type: "multiple_choice" as const,
      prompt: `Multiple ${n}`,
      options,
      answerKey: ["a", "c"],
      points: 2,
    })),
    ...[1, 2].map((n) => ({
      type: "numeric" as const,
      prompt: `Numeric ${n}`,
      answerKey: 32,
      tolerance: 0,
      points: 1,
    })),
    { type: "short_text" as const, prompt: "Loopback", answerKey: ["127.0.0.1", "localhost"], points: 1 },
    { type: "essay" as const, prompt: "Explain", points: 5 },
  ];
}

/** Answers of every paper to every question, derived from the paper's number (a third of the papers chose `b` on Q1). */
async function seedAnswers(client: pg.PoolClient, examId: string): Promise<void> {
  await client.query(
    `INSERT INTO answers (id, attempt_id, question_id, value, version, device_id, saved_at)
     SELECT gen_random_uuid(), p.attempt_id, q.id,
            CASE q.type
              WHEN 'single_choice' THEN to_jsonb(CASE WHEN (p.i + q.position) % 3 = 0 THEN 'b' ELSE 'a' END)
              WHEN 'multiple_choice' THEN (ARRAY['["a","c"]', '["a"]', '["a","b","c"]', '[]'])[(p.i + q.position) % 4 + 1]::jsonb
              WHEN 'numeric' THEN to_jsonb(CASE WHEN (p.i + q.position) % 5 = 0 THEN 33 ELSE 32 END)
              WHEN 'short_text' THEN to_jsonb(CASE p.i % 3 WHEN 0 THEN ' LOCALHOST ' WHEN 1 THEN '127.0.0.1' ELSE 'my laptop' END)
              ELSE to_jsonb('An essay of paper ' || p.i)
            END,
            1, 'bench', now() - interval '30 minutes'
     FROM bench_papers p CROSS JOIN questions q
     WHERE q.exam_id = $1::uuid`,
    [examId],
  );
}

async function queued(pool: pg.Pool, examId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM result_jobs WHERE exam_id = $1`, [
    examId,
  ]);
  return rows[0]?.n ?? 0;
}

/** Polls until the exam has no queued result job; the time from `started`. */
async function untilDrained(pool: pg.Pool, examId: string, started: number, limitSeconds: number): Promise<number> {
  while ((await queued(pool, examId)) > 0) {
    if (seconds(started) > limitSeconds) throw new Error(`the queue was not drained within ${limitSeconds} s`);
    await sleep(25);
  }
  return seconds(started);
}

async function regrade(task: Extract<Task, { task: "regrade" }>): Promise<void> {
  const { dbPool } = await import("@/lib/server/db/client");
  const { createExam } = await import("@/lib/server/exams/create-exam");
  const { updateExam } = await import("@/lib/server/exams/update-exam");
  const { enqueueResultJobs } = await import("@/lib/server/results/result-jobs");
  const { SYSTEM_ACTOR } = await import("@/lib/server/results/recompute-results");
  const { db } = await import("@/lib/server/db/client");
  const { CreateExamSchema, PatchExamSchema } = await import("@/lib/shared/schemas/exams");
  const problems: string[] = [];

  // Seed.
  const seedStarted = performance.now();
  const exam = await createExam({
    input: CreateExamSchema.parse({
      title: "Regrade benchmark",
      durationSeconds: 3600,
      status: "published",
      questions: regradeQuestions(),
    }),
    actor: { type: "system" },
  });
  const client = await dbPool.connect();
  try {
    await seedPapers(client, exam.id, task.papers);
    await seedAnswers(client, exam.id);
    await client.query("ANALYZE");
  } finally {
    client.release();
  }
  const seedSeconds = seconds(seedStarted);

  // Baseline: every answer of every paper, read once.
  const baselineStarted = performance.now();
  const answers = await dbPool.query(
    `SELECT a.attempt_id, a.question_id, a.value FROM answers a JOIN attempts t ON t.id = a.attempt_id
     WHERE t.exam_id = $1 AND t.status = 'submitted'`,
    [exam.id],
  );
  const baselineSeconds = seconds(baselineStarted);
  if (answers.rowCount !== task.papers * 11) problems.push(`baseline read ${answers.rowCount} answers`);

  // The first scoring, as the submits would have queued it, drained by the workers.
  const scoreStarted = performance.now();
  await db.$transaction((tx) => enqueueResultJobs(tx, { examId: exam.id, cause: "submitted", actor: SYSTEM_ACTOR }));
  const scoreSeconds = await untilDrained(dbPool, exam.id, scoreStarted, 600);

  // Q1's key corrected from `a` to `b` through the PATCH operation: every paper is queued in its transaction.
  const before = await dbPool.query<{ attempt_id: string; score_units: string; q1: number | null }>(
    `SELECT attempt_id::text, score_units::text, (questions -> 0 ->> 'units')::int AS q1 FROM results WHERE exam_id = $1`,
    [exam.id],
  );
  const q1 = exam.questions[0]!;
  const regradeStarted = performance.now();
  await updateExam({
    examId: exam.id,
    input: PatchExamSchema.parse({
      revision: exam.revision,
      questions: exam.questions.map((question) =>
        question.id === q1.id ? { ...question, answerKey: "b" } : { ...question },
      ),
    }),
    caller: { kind: "api-token" },
  });
  const editSeconds = seconds(regradeStarted);
  const regradeSeconds = await untilDrained(dbPool, exam.id, regradeStarted, 600);

  // Checks: every paper got a version 2 caused by the correction; a sample's Q1 and total moved as they must.
  const versions = await dbPool.query<{ cause: string; n: number }>(
    `SELECT cause, count(*)::int AS n FROM result_versions WHERE exam_id = $1 GROUP BY cause ORDER BY cause`,
    [exam.id],
  );
  const byCause = Object.fromEntries(versions.rows.map((row) => [row.cause, row.n]));
  if (byCause.submitted !== task.papers) problems.push(`versions "submitted": ${byCause.submitted ?? 0}`);
  if (byCause.regraded !== task.papers) problems.push(`versions "regraded": ${byCause.regraded ?? 0}`);
  const previous = new Map(before.rows.map((row) => [row.attempt_id, row]));
  const sample = await dbPool.query<{
    attempt_id: string;
    version: number;
    score_units: string;
    q1: number | null;
    chose: string;
    reason: string;
  }>(
    `SELECT r.attempt_id::text, r.version, r.score_units::text, (r.questions -> 0 ->> 'units')::int AS q1,
            a.value #>> '{}' AS chose, v.reason
     FROM results r
     JOIN answers a ON a.attempt_id = r.attempt_id AND a.question_id = $2::uuid
     JOIN result_versions v ON v.attempt_id = r.attempt_id AND v.version = r.version
     WHERE r.exam_id = $1::uuid ORDER BY random() LIMIT $3`,
    [exam.id, q1.id, task.sample],
  );
  let checked = 0;
  for (const row of sample.rows) {
    const old = previous.get(row.attempt_id);
    const expectedQ1 = row.chose === "b" ? 10_000 : 0;
    const expectedTotal = old ? BigInt(old.score_units) - BigInt(old.q1 ?? 0) + BigInt(expectedQ1) : null;
    if (row.version !== 2) problems.push(`${row.attempt_id}: version ${row.version}, expected 2`);
    else if (row.q1 !== expectedQ1) problems.push(`${row.attempt_id}: Q1 ${row.q1} units, expected ${expectedQ1}`);
    else if (expectedTotal === null || BigInt(row.score_units) !== expectedTotal)
      problems.push(`${row.attempt_id}: total ${row.score_units}, expected ${expectedTotal}`);
    else if (!row.reason.includes("Q1 answerKey")) problems.push(`${row.attempt_id}: reason "${row.reason}"`);
    else checked += 1;
  }

  report({
    papers: task.papers,
    answers: answers.rowCount,
    seedSeconds,
    baselineSeconds,
    scoreSeconds,
    editSeconds,
    regradeSeconds,
    versions: byCause,
    sampleChecked: checked,
    sampleSize: sample.rowCount,
    problems: problems.slice(0, 20),
  });
}

// --- results CSV -----------------------------------------------------------------------------------------------

async function csvSeed(task: Extract<Task, { task: "csv-seed" }>): Promise<void> {
  const { dbPool } = await import("@/lib/server/db/client");
  const { createExam } = await import("@/lib/server/exams/create-exam");
  const { CreateExamSchema } = await import("@/lib/shared/schemas/exams");
  const started = performance.now();
  const options = ["a", "b"].map((id) => ({ id, label: `Option ${id}` }));
  const exam = await createExam({
    input: CreateExamSchema.parse({
      title: `Results CSV benchmark, ${task.candidates} candidates`,
      durationSeconds: 3600,
      status: "published",
      questions: Array.from({ length: task.questions }, (_, n) => ({
        type: "single_choice",
        prompt: `Question ${n + 1}`,
        options,
        answerKey: "a",
        points: 1 + (n % 3) * 0.5,
      })),
    }),
    actor: { type: "system" },
  });
  const client = await dbPool.connect();
  try {
    await seedPapers(client, exam.id, task.candidates);
    // A scored result per paper, as recomputeResults writes it (a third of the answers wrong).
    await client.query(
      `INSERT INTO results (attempt_id, exam_id, submission_id, version, score_units, max_units, pending, questions)
       SELECT p.attempt_id, $1::uuid, p.submission_id, 1,
              sum(CASE WHEN (p.i + q.position) % 3 = 0 THEN 0 ELSE round(q.points * 10000) END)::bigint,
              sum(round(q.points * 10000))::bigint, 0,
              jsonb_agg(jsonb_build_object(
                'questionId', q.id::text,
                'units', CASE WHEN (p.i + q.position) % 3 = 0 THEN 0 ELSE round(q.points * 10000) END,
                'maxUnits', round(q.points * 10000), 'source', 'auto',
                'reason', CASE WHEN (p.i + q.position) % 3 = 0 THEN 'incorrect' ELSE 'correct' END,
                'lateAnswerId', NULL) ORDER BY q.position)
       FROM bench_papers p CROSS JOIN questions q
       WHERE q.exam_id = $1::uuid
       GROUP BY p.attempt_id, p.submission_id`,
      [exam.id],
    );
    await client.query("ANALYZE");
  } finally {
    client.release();
  }
  report({ examId: exam.id, seedSeconds: seconds(started) });
}

async function csvMeasure(task: Extract<Task, { task: "csv-measure" }>): Promise<void> {
  const { GET } = await import("@/app/api/admin/exams/[examId]/results.csv/route");
  const memory = () => process.memoryUsage();
  // Warm the route's code path and the pool on a missing exam (404), so the first sample is the resting process.
  await GET(new Request("http://bench.test/api/admin/exams/00000000-0000-7000-8000-000000000000/results.csv"), {
    params: Promise.resolve({ examId: "00000000-0000-7000-8000-000000000000" }),
  });
  global.gc?.();
  const resting = memory();
  let peakRss = resting.rss;
  let peakHeap = resting.heapUsed;
  let peakLiveHeap = resting.heapUsed;
  const sampler = setInterval(() => {
    const now = memory();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 5);

  const started = performance.now();
  const response = await GET(
    new Request(`http://bench.test/api/admin/exams/${task.examId}/results.csv`, {
      headers: { authorization: `Bearer ${task.adminToken}` },
    }),
    { params: Promise.resolve({ examId: task.examId }) },
  );
  const firstByteSeconds = seconds(started);
  let bytes = 0;
  let lines = 0;
  let head: number[] = [];
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (head.length < 3) head = head.concat([...value.subarray(0, 3 - head.length)]);
    bytes += value.byteLength;
    for (const byte of value) if (byte === 0x0a) lines += 1;
    const now = memory();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
    // What the export holds on to, garbage aside: the heap right after a full collection, at every chunk (a
    // thousand candidates). A stream that kept its rows would grow this with the file; the sampled peak above
    // also counts garbage the collector had not reached yet.
    if (global.gc) {
      global.gc();
      peakLiveHeap = Math.max(peakLiveHeap, memory().heapUsed);
    }
  }
  const totalSeconds = seconds(started);
  clearInterval(sampler);
  report({
    status: response.status,
    contentType: response.headers.get("content-type"),
    hasBom: head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf,
    bytes,
    lines,
    firstByteSeconds,
    totalSeconds,
    restingRssMb: resting.rss / 2 ** 20,
    restingHeapMb: resting.heapUsed / 2 ** 20,
    peakRssMb: peakRss / 2 ** 20,
    peakHeapMb: peakHeap / 2 ** 20,
    peakLiveHeapMb: peakLiveHeap / 2 ** 20,
  });
}

async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2] ?? "{}") as Task;
  if (task.task === "worker") {
    const { startResultsWorker } = await import("@/lib/server/results/result-jobs");
    // As instrumentation.ts starts it on every instance (a drain every second, back to back while jobs remain).
    startResultsWorker();
    report({ started: true });
    setInterval(() => undefined, 60_000);
    return;
  }
  if (task.task === "regrade") await regrade(task);
  else if (task.task === "csv-seed") await csvSeed(task);
  else if (task.task === "csv-measure") await csvMeasure(task);
  else throw new Error(`unknown task ${JSON.stringify(task)}`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
