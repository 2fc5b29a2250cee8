import "server-only";

import { LiveHeartbeatSchema } from "@/lib/server/heartbeats/live-heartbeat";
import type { AttemptPhase, CandidateFacts, DeviceFacts, ExtensionSummary } from "@/lib/shared/schemas/proctor";

import { queryRows, sql } from "../db/sql";
import { redisKeys } from "../redis/keys";
import { withRedis } from "../redis/client";
import { localPresence, presenceField } from "./device-presence";

const PRESENCE_PREFIX = presenceField("");

// Times come back as epoch milliseconds (float8) from SQL: parsing 10,000 timestamptz into Dates costs more
// than the query.
type CandidateRow = {
  enrollment_id: string;
  name: string;
  email: string;
  extra_seconds: number;
  attempt_id: string | null;
  status: "in_progress" | "submitted" | null;
  started_at: number | null;
  deadline: number | null;
  paused_at: number | null;
  pause_reason: string | null;
  revision: number | null;
  answered: number | null;
  last_save_at: number | null;
  late_answers: number | null;
  submitted_at: number | null;
  source: "candidate" | "proctor" | "auto" | null;
  digest_mismatch: boolean;
};

type DeviceRow = {
  attempt_id: string;
  device_id: string;
  online: boolean;
  pending: number;
  oldest_pending_ms: number;
  last_ack_revision: number;
  consecutive_failures: number;
  storage_persisted: boolean | null;
  deadline_seen: number | null;
  first_seen_at: number;
  received_at: number;
  offline_since: number | null;
};

type ExtensionRow = {
  enrollment_id: string;
  id: string;
  seconds: number;
  reason: string;
  actor_label: string;
  created_at: number;
  new_deadline: number | null;
  acknowledged_at: number | null;
  acknowledged_device_id: string | null;
};

type ExamRow = { grace_seconds: number; total: number };

/** What Redis holds for one attempt (its live heartbeat hash), split by kind of field and keyed by device id. */
type LiveAttempt = { heartbeats: Record<string, string>; presence: Record<string, string> };

/**
 * The facts of every candidate of an exam, or of the given enrollments of it (the dashboard's snapshot and
 * the events feed's reloads). Set-based so 10,000 candidates cost a handful of statements, not 10,000:
 *
 * 1. One statement per table family, in parallel: enrollments with their attempt, submission, answer and
 *    late-answer aggregates; every device's durable heartbeat row with its open offline span; the latest
 *    time extension per enrollment; the exam's grace and question count.
 * 2. One Redis pipeline over the live heartbeat hashes of the attempts that have devices: each device's
 *    latest heartbeat (fresher than the Postgres row, which is written only on material changes) and when its
 *    channel closed. A device's first heartbeat always reaches Postgres, so its row names the attempt.
 *    Without Redis the Postgres rows stand alone and presence comes from this process.
 * 3. Merge, devices newest heartbeat first.
 *
 * The caller has already decided the exam is visible to them; unknown enrollment ids are simply absent.
 */
export async function loadCandidateFacts(options: {
  examId: string;
  enrollmentIds?: readonly string[];
}): Promise<CandidateFacts[]> {
  const { examId } = options;
  const ids = options.enrollmentIds ? [...new Set(options.enrollmentIds)] : null;
  if (ids && ids.length === 0) return [];

  // 1.
  const [candidates, { deviceRows, live }, extensionRows, examRows] = await Promise.all([
    queryRows<CandidateRow>(sql`
      WITH scope AS (
        SELECT a.id FROM attempts a
        WHERE a.exam_id = ${examId}::uuid AND (${ids}::uuid[] IS NULL OR a.enrollment_id = ANY(${ids}::uuid[]))
      ),
      answered AS (
        -- A cleared answer (JSON null) is a save, not an answer.
        SELECT an.attempt_id, count(*) FILTER (WHERE jsonb_typeof(an.value) <> 'null')::int AS answered,
               max(an.saved_at) AS last_save_at
        FROM answers an JOIN scope ON scope.id = an.attempt_id GROUP BY an.attempt_id
      ),
      late AS (
        SELECT l.attempt_id, count(*)::int AS late_answers
        FROM late_answers l JOIN scope ON scope.id = l.attempt_id GROUP BY l.attempt_id
      )
      SELECT e.id::text AS enrollment_id, e.name, e.email, e.extra_seconds,
             a.id::text AS attempt_id, a.status::text AS status, (extract(epoch FROM a.started_at) * 1000)::float8 AS started_at,
             (extract(epoch FROM a.deadline) * 1000)::float8 AS deadline, (extract(epoch FROM a.paused_at) * 1000)::float8 AS paused_at,
             a.pause_reason, a.revision, answered.answered, (extract(epoch FROM answered.last_save_at) * 1000)::float8 AS last_save_at,
             late.late_answers, (extract(epoch FROM s.submitted_at) * 1000)::float8 AS submitted_at, s.source::text AS source,
             COALESCE(s.client_digest IS NOT NULL AND s.client_digest <> s.digest, false) AS digest_mismatch
      FROM enrollments e
      LEFT JOIN attempts a ON a.enrollment_id = e.id
      LEFT JOIN submissions s ON s.attempt_id = a.id
      LEFT JOIN answered ON answered.attempt_id = a.id
      LEFT JOIN late ON late.attempt_id = a.id
      WHERE e.exam_id = ${examId}::uuid AND (${ids}::uuid[] IS NULL OR e.id = ANY(${ids}::uuid[]))
      ORDER BY e.name, e.email, e.id`),
    // 2. starts as soon as the devices are known, while the enrollments are still loading.
    queryRows<DeviceRow>(sql`
      SELECT h.attempt_id::text AS attempt_id, h.device_id, h.online, h.pending, h.oldest_pending_ms, h.last_ack_revision,
             h.consecutive_failures, h.storage_persisted, (extract(epoch FROM h.deadline_seen) * 1000)::float8 AS deadline_seen,
             (extract(epoch FROM h.first_seen_at) * 1000)::float8 AS first_seen_at, (extract(epoch FROM h.received_at) * 1000)::float8 AS received_at, (extract(epoch FROM o.started_at) * 1000)::float8 AS offline_since
      FROM attempts a
      JOIN device_heartbeats h ON h.attempt_id = a.id
      LEFT JOIN device_offline_spans o ON o.attempt_id = h.attempt_id AND o.device_id = h.device_id AND o.ended_at IS NULL
      WHERE a.exam_id = ${examId}::uuid AND (${ids}::uuid[] IS NULL OR a.enrollment_id = ANY(${ids}::uuid[]))`).then(
      async (rows) => ({
        deviceRows: rows,
        live: await readLiveAttempts([...new Set(rows.map((row) => row.attempt_id))]),
      }),
    ),
    queryRows<ExtensionRow>(sql`
      SELECT DISTINCT ON (t.enrollment_id)
             t.enrollment_id::text AS enrollment_id, t.id::text AS id, t.seconds, t.reason, t.actor_label,
             (extract(epoch FROM t.created_at) * 1000)::float8 AS created_at, (extract(epoch FROM t.new_deadline) * 1000)::float8 AS new_deadline,
             (extract(epoch FROM t.acknowledged_at) * 1000)::float8 AS acknowledged_at, t.acknowledged_device_id
      FROM time_extensions t
      WHERE t.exam_id = ${examId}::uuid AND (${ids}::uuid[] IS NULL OR t.enrollment_id = ANY(${ids}::uuid[]))
      ORDER BY t.enrollment_id, t.created_at DESC, t.id DESC`),
    queryRows<ExamRow>(sql`
      SELECT e.grace_seconds, (SELECT count(*)::int FROM questions q WHERE q.exam_id = e.id) AS total
      FROM exams e WHERE e.id = ${examId}::uuid`),
  ]);
  const exam = examRows[0];
  if (!exam) return [];

  const observedAt = Date.now();

  // 3.
  const devicesByAttempt = new Map<string, DeviceRow[]>();
  for (const row of deviceRows) {
    const list = devicesByAttempt.get(row.attempt_id);
    if (list) list.push(row);
    else devicesByAttempt.set(row.attempt_id, [row]);
  }
  const extensions = new Map(extensionRows.map((row) => [row.enrollment_id, row]));

  return candidates.map((row): CandidateFacts => {
    const attemptId = row.attempt_id;
    return {
      enrollmentId: row.enrollment_id,
      attemptId,
      name: row.name,
      email: row.email,
      phase: phaseOf(row),
      startedAt: row.started_at ?? null,
      deadline: row.deadline ?? null,
      pausedAt: row.paused_at ?? null,
      pauseReason: row.pause_reason ?? null,
      graceSeconds: exam.grace_seconds,
      extraSeconds: row.extra_seconds,
      revision: row.revision ?? 0,
      answered: row.answered ?? 0,
      total: exam.total,
      lastSaveAt: row.last_save_at ?? null,
      submittedAt: row.submitted_at ?? null,
      submissionSource: row.source,
      digestMismatch: row.digest_mismatch,
      lateAnswers: row.late_answers ?? 0,
      devices: attemptId ? mergeDevices(devicesByAttempt.get(attemptId) ?? [], live?.get(attemptId), attemptId) : [],
      lastExtension: extensionSummary(extensions.get(row.enrollment_id)),
      observedAt,
    };
  });
}

function phaseOf(row: CandidateRow): AttemptPhase {
  if (!row.attempt_id) return "not_started";
  if (row.status === "in_progress") return "in_progress";
  // A frozen attempt always has its submission (freeze-attempt.ts writes both in one transaction).
  return row.source === "auto" ? "auto_submitted" : "submitted";
}

function extensionSummary(row: ExtensionRow | undefined): ExtensionSummary | null {
  if (!row) return null;
  return {
    extensionId: row.id,
    seconds: row.seconds,
    reason: row.reason,
    by: row.actor_label,
    at: row.created_at,
    deadline: row.new_deadline ?? null,
    acknowledgedAt: row.acknowledged_at ?? null,
    acknowledgedBy: row.acknowledged_device_id,
  };
}

/**
 * Step 2: one HGETALL per started attempt, in one pipeline. Null when Redis is away (or failed mid-way): the
 * Postgres rows are then the whole picture.
 */
async function readLiveAttempts(attemptIds: readonly string[]): Promise<Map<string, LiveAttempt> | null> {
  if (attemptIds.length === 0) return new Map();
  return withRedis(async (client) => {
    const pipeline = client.pipeline();
    for (const attemptId of attemptIds) pipeline.hgetall(redisKeys.heartbeats(attemptId));
    const results = (await pipeline.exec()) ?? [];
    const live = new Map<string, LiveAttempt>();
    attemptIds.forEach((attemptId, index) => {
      const [error, hash] = results[index] ?? [new Error("missing pipeline result")];
      if (error) throw error;
      const entries = Object.entries((hash ?? {}) as Record<string, string>);
      if (entries.length === 0) return;
      const attempt: LiveAttempt = { heartbeats: {}, presence: {} };
      for (const [field, value] of entries) {
        if (field.startsWith(PRESENCE_PREFIX)) attempt.presence[field.slice(PRESENCE_PREFIX.length)] = value;
        else attempt.heartbeats[field] = value;
      }
      live.set(attemptId, attempt);
    });
    return live;
  }, null);
}

/**
 * One attempt's devices: every durable row, overlaid with its live copy where Redis has a newer one. A device
 * the live copy knows but Postgres does not (its first row still being written) is included from the live copy.
 */
function mergeDevices(rows: readonly DeviceRow[], live: LiveAttempt | undefined, attemptId: string): DeviceFacts[] {
  const devices = new Map<string, DeviceFacts>();
  for (const row of rows) {
    devices.set(row.device_id, {
      deviceId: row.device_id,
      online: row.online,
      pending: row.pending,
      oldestPendingMs: row.oldest_pending_ms,
      consecutiveFailures: row.consecutive_failures,
      lastAckRevision: row.last_ack_revision,
      storagePersisted: row.storage_persisted,
      firstSeenAt: row.first_seen_at,
      lastHeartbeatAt: row.received_at,
      disconnectedAt: null,
      offlineSince: row.offline_since ?? null,
      deadlineSeen: row.deadline_seen ?? null,
    });
  }

  for (const [deviceId, raw] of Object.entries(live?.heartbeats ?? {})) {
    const parsed = parseLive(raw);
    if (!parsed) continue;
    const durable = devices.get(deviceId);
    if (durable && durable.lastHeartbeatAt > parsed.heartbeat.receivedAt) continue;
    const { heartbeat } = parsed;
    devices.set(deviceId, {
      deviceId,
      online: heartbeat.online,
      pending: heartbeat.pending,
      oldestPendingMs: heartbeat.oldestPendingMs,
      consecutiveFailures: heartbeat.consecutiveFailures,
      lastAckRevision: heartbeat.lastAckRevision,
      storagePersisted: heartbeat.storagePersisted,
      firstSeenAt: durable?.firstSeenAt ?? heartbeat.receivedAt,
      lastHeartbeatAt: heartbeat.receivedAt,
      disconnectedAt: null,
      offlineSince: durable?.offlineSince ?? null,
      deadlineSeen: parsed.deadlineSeen ?? durable?.deadlineSeen ?? null,
    });
  }

  const local = localPresence().get(attemptId);
  for (const device of devices.values()) {
    const stored = live?.presence[device.deviceId];
    const disconnectedAt = stored !== undefined ? Number(stored) : local?.get(device.deviceId);
    device.disconnectedAt = disconnectedAt !== undefined && Number.isFinite(disconnectedAt) ? disconnectedAt : null;
  }
  return [...devices.values()].sort((a, b) => b.lastHeartbeatAt - a.lastHeartbeatAt);
}

/**
 * The live copy of one device, and the deadline it said it shows. The heartbeat's `deadline` field (ISO
 * text or epoch ms) is read from the raw JSON so the facts do not depend on the live copy's schema carrying it.
 */
function parseLive(
  raw: string,
): { heartbeat: ReturnType<typeof LiveHeartbeatSchema.parse>; deadlineSeen: number | null } | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = LiveHeartbeatSchema.safeParse(json);
  if (!parsed.success) return null;
  const deadline = (json as { deadline?: unknown }).deadline;
  let deadlineSeen: number | null = null;
  if (typeof deadline === "number" && Number.isFinite(deadline)) deadlineSeen = deadline;
  else if (typeof deadline === "string") {
    const at = Date.parse(deadline);
    deadlineSeen = Number.isNaN(at) ? null : at;
  }
  return { heartbeat: parsed.data, deadlineSeen };
}
