// The in-process half of `npm run bench -- webhook-outage` (bench/scenarios/webhook-outage.ts): run as
// `node --import tsx --conditions=react-server bench/lib/webhooks/webhooks-child.ts '<json task>'`, so the app's own
// server modules load against the run's private database. Each task prints one line `RESULT <json>`.
//
// Tasks:
// - `worker`: a webhook delivery worker (lib/server/webhooks/delivery-worker.ts), as every app instance starts one;
//   lives until stopped.
// - `cohort`: seeds an exam with `candidates` attempts in progress, adds an endpoint for `url`, then submits every
//   attempt at once, each through the freeze (lib/server/attempts/freeze-attempt.ts) in its own transaction with
//   the attempt's row locked, as every submit path does: each transaction writes its delivery.
import { performance } from "node:perf_hooks";

type Task =
  | { task: "worker"; options: Record<string, unknown> }
  | { task: "cohort"; candidates: number; url: string; concurrency: number };

function report(result: unknown): void {
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

async function cohort(task: Extract<Task, { task: "cohort" }>): Promise<void> {
  const { db, dbPool } = await import("@/lib/server/db/client");
  const { freezeAttempt } = await import("@/lib/server/attempts/freeze-attempt");
  const { createWebhookEndpoint } = await import("@/lib/server/webhooks/create-webhook-endpoint");
  const client = await dbPool.connect();
  let examId: string;
  let attemptIds: string[];
  try {
    const exam = await client.query<{ id: string }>(
      `INSERT INTO exams (id, title, duration_seconds, status, updated_at)
       VALUES (gen_random_uuid(), 'Webhook outage', 3600, 'published', now()) RETURNING id::text AS id`,
    );
    examId = exam.rows[0]!.id;
    const attempts = await client.query<{ id: string }>(
      `WITH e AS (
         INSERT INTO enrollments (id, exam_id, name, email, join_token_hash)
         SELECT gen_random_uuid(), $1::uuid, 'Candidate ' || i, 'candidate-' || i || '@bench.test', md5($1 || ':' || i)
         FROM generate_series(1, $2::int) AS i RETURNING id)
       INSERT INTO attempts (id, enrollment_id, exam_id, status, deadline)
       SELECT gen_random_uuid(), e.id, $1::uuid, 'in_progress', now() + interval '1 hour' FROM e
       RETURNING id::text AS id`,
      [examId, task.candidates],
    );
    attemptIds = attempts.rows.map((row) => row.id);
  } finally {
    client.release();
  }
  const endpoint = await createWebhookEndpoint({
    examId,
    input: { url: task.url, events: ["submission.created"] },
    caller: { kind: "api-token" },
  });
  const started = performance.now();
  let next = 0;
  const submitOne = async () => {
    while (next < attemptIds.length) {
      const attemptId = attemptIds[next++]!;
      await db.$transaction(async (tx) => {
        await tx.$queryRawUnsafe(`SELECT id FROM attempts WHERE id = $1::uuid FOR UPDATE`, attemptId);
        await freezeAttempt(tx, { attemptId, source: "auto" });
      });
    }
  };
  await Promise.all(Array.from({ length: task.concurrency }, submitOne));
  report({ examId, endpointId: endpoint.id, submitSeconds: (performance.now() - started) / 1000 });
}

async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2] ?? "{}") as Task;
  if (task.task === "worker") {
    const { createDeliveryWorker } = await import("@/lib/server/webhooks/delivery-worker");
    createDeliveryWorker(task.options);
    report({ started: true });
    setInterval(() => undefined, 60_000);
    return;
  }
  if (task.task === "cohort") await cohort(task);
  else throw new Error(`unknown task ${JSON.stringify(task)}`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
