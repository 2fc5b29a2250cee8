import "server-only";

import { createTranslator } from "next-intl";

import { AppError } from "@/lib/shared/errors";
import type { Translate } from "@/lib/shared/i18n/translate";
import { proctorWords } from "@/lib/shared/proctor/describe";
import { deviceShortId } from "@/lib/shared/proctor/device-id";
import type { CandidateTimeline, TimelineEvent, TimelineFacts } from "@/lib/shared/schemas/proctor";
import { MESSAGES } from "@/messages";

import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { queryRows, sql } from "../db/sql";
import {
  actorName,
  deviceSwitches,
  groupSaves,
  parseUserAgent,
  sortTimeline,
  type DeviceActivity,
} from "./describe-timeline";

/** A submission, current or superseded (ADR 017), as the timeline words it. */
type SubmissionRow = {
  submitted_at: Date | null;
  source: "candidate" | "proctor" | "auto" | null;
  digest: string | null;
  client_digest: string | null;
  /** For a proctor's force-submit: who and why, from its audit event. */
  forced_by: string | null;
  forced_reason: string | null;
};

type CandidateRow = SubmissionRow & {
  enrollment_id: string;
  enrolled_at: Date;
  attempt_id: string | null;
  started_at: Date | null;
};

/**
 * Each entry's `text`, for API clients: the dashboard's own words (lib/shared/proctor/describe.ts) over the
 * English catalog, so the API and the page say the same thing. (In a Next build the catalog is precompiled,
 * and next-intl formats it the way `getTranslations` does.)
 */
const englishCatalog = createTranslator({ locale: "en", messages: MESSAGES.en, namespace: "proctor" });
const english = proctorWords((key, values) => (englishCatalog as unknown as Translate)(key, values), "en", "UTC");

/** The causes a span is stored with (a CHECK constraint keeps them to these). */
function offlineCause(cause: string): TimelineFacts["offline"]["cause"] {
  return cause === "reported" || cause === "disconnected" || cause === "unreachable" ? cause : null;
}

/** How a late answer arrived (a CHECK constraint, late_answers_via_known, keeps it to these). */
type LateVia = TimelineFacts["late_answer"]["via"];

/**
 * Everything the server knows about one candidate's attempt, as lines a proctor reads, oldest first: enrolled,
 * each join (one per device session, with its browser), started, each device's first heartbeat, device
 * switches, offline spans and returns, saves per minute, extensions and their acknowledgement, the
 * submission, late answers and the decisions taken on them, and after a reopening (ADR 017) each earlier submission and the reopening. The enrollment must belong to the exam and the exam be visible to the caller
 * (a proctor's assigned exams; an admin's or the admin token's every exam), else 404.
 */
export async function getCandidateTimeline(options: {
  examId: string;
  enrollmentId: string;
  viewer: StaffPrincipal | ApiTokenPrincipal;
  now?: number;
}): Promise<CandidateTimeline> {
  const { examId, enrollmentId, viewer } = options;
  const proctorId = viewer.kind === "staff" && viewer.role === "proctor" ? viewer.userId : null;
  // Authorization lives in the WHERE: the enrollment of another exam, or of an exam not assigned to this
  // proctor, yields no row, like a missing one.
  const [candidate] = await queryRows<CandidateRow>(sql`
    SELECT en.id::text AS enrollment_id, en.created_at AS enrolled_at, a.id::text AS attempt_id, a.started_at,
           s.submitted_at, s.source::text AS source, s.digest, s.client_digest,
           forced.data->>'by' AS forced_by, forced.data->>'reason' AS forced_reason
    FROM enrollments en
      JOIN exams e ON e.id = en.exam_id
      LEFT JOIN attempts a ON a.enrollment_id = en.id
      LEFT JOIN submissions s ON s.attempt_id = a.id
      LEFT JOIN LATERAL (
        SELECT ae.data FROM audit_events ae
        WHERE s.source = 'proctor' AND ae.attempt_id = a.id AND ae.action = 'attempt.force_submitted'
          AND ae.data->>'submissionId' = s.id::text
        LIMIT 1
      ) forced ON true
    WHERE en.id = ${enrollmentId}::uuid AND en.exam_id = ${examId}::uuid
      AND (${proctorId}::uuid IS NULL
        OR EXISTS (SELECT 1 FROM exam_proctors p WHERE p.exam_id = e.id AND p.staff_user_id = ${proctorId}::uuid))`);
  if (!candidate) throw new AppError("NOT_FOUND", "No such candidate in this exam.");

  const attemptId = candidate.attempt_id;
  const [joins, heartbeats, spans, answers, extensions, lateAnswers, earlier, reopenings, decisions] =
    await Promise.all([
      // A join is audited with its session; a session without an audit event (made some other way) still counts.
      queryRows<{ at: Date; user_agent: string | null }>(sql`
      SELECT ae.at, ae.data->>'userAgent' AS user_agent
      FROM audit_events ae
      WHERE ae.enrollment_id = ${enrollmentId}::uuid AND ae.action = 'candidate.joined'
      UNION ALL
      SELECT se.created_at AS at, se.user_agent
      FROM sessions se
      WHERE se.enrollment_id = ${enrollmentId}::uuid AND se.kind = 'candidate'
        AND NOT EXISTS (SELECT 1 FROM audit_events ae
          WHERE ae.enrollment_id = se.enrollment_id AND ae.action = 'candidate.joined' AND ae.data->>'sessionId' = se.id::text)`),
      attemptId
        ? queryRows<{ device_id: string; first_seen_at: Date; received_at: Date }>(sql`
          SELECT device_id, first_seen_at, received_at FROM device_heartbeats WHERE attempt_id = ${attemptId}::uuid`)
        : [],
      attemptId
        ? queryRows<{ device_id: string; started_at: Date; ended_at: Date | null; cause: string }>(sql`
          SELECT device_id, started_at, ended_at, cause FROM device_offline_spans WHERE attempt_id = ${attemptId}::uuid`)
        : [],
      attemptId
        ? queryRows<{ device_id: string; saved_at: Date }>(sql`
          SELECT device_id, saved_at FROM answers WHERE attempt_id = ${attemptId}::uuid`)
        : [],
      queryRows<{
        seconds: number;
        reason: string;
        actor_label: string;
        attempt_id: string | null;
        created_at: Date;
        acknowledged_at: Date | null;
        acknowledged_device_id: string | null;
      }>(sql`
      SELECT seconds, reason, actor_label, attempt_id::text AS attempt_id, created_at, acknowledged_at, acknowledged_device_id
      FROM time_extensions WHERE enrollment_id = ${enrollmentId}::uuid AND exam_id = ${examId}::uuid`),
      attemptId
        ? queryRows<{ received_at: Date; via: LateVia; device_id: string; position: number | null }>(sql`
          SELECT l.received_at, l.via, l.device_id, q.position
          FROM late_answers l LEFT JOIN questions q ON q.id = l.question_id
          WHERE l.attempt_id = ${attemptId}::uuid`)
        : [],
      // A superseded submission, with who forced it if a proctor did (its audit event names the submission).
      attemptId
        ? queryRows<SubmissionRow>(sql`
          SELECT h.submitted_at, h.source::text AS source, h.digest, h.client_digest,
                 forced.data->>'by' AS forced_by, forced.data->>'reason' AS forced_reason
          FROM submission_history h
            LEFT JOIN LATERAL (
              SELECT ae.data FROM audit_events ae
              WHERE h.source = 'proctor' AND ae.attempt_id = h.attempt_id AND ae.action = 'attempt.force_submitted'
                AND ae.data->>'submissionId' = h.id::text
              LIMIT 1
            ) forced ON true
          WHERE h.attempt_id = ${attemptId}::uuid`)
        : [],
      attemptId
        ? queryRows<{ at: Date; actor_label: string; reason: string; seconds: number; version: number }>(sql`
          SELECT at, actor_label, reason, seconds, version FROM attempt_reopenings WHERE attempt_id = ${attemptId}::uuid`)
        : [],
      attemptId
        ? queryRows<{
            decided_at: Date;
            decision: "accepted" | "rejected";
            actor_label: string;
            reason: string;
            position: number | null;
          }>(sql`
          SELECT d.decided_at, d.decision, d.actor_label, d.reason, q.position
          FROM late_answer_decisions d
            JOIN late_answers l ON l.id = d.late_answer_id
            LEFT JOIN questions q ON q.id = l.question_id
          WHERE d.attempt_id = ${attemptId}::uuid`)
        : [],
    ]);

  const devices = new Set<string>([...heartbeats.map((row) => row.device_id), ...answers.map((row) => row.device_id)]);
  const entries: TimelineEvent[] = [{ at: candidate.enrolled_at.getTime(), kind: "enrolled", facts: {} }];

  for (const join of joins) {
    entries.push({ at: join.at.getTime(), kind: "joined", facts: parseUserAgent(join.user_agent) });
  }
  if (candidate.started_at) entries.push({ at: candidate.started_at.getTime(), kind: "started", facts: {} });

  for (const heartbeat of heartbeats) {
    entries.push({
      at: heartbeat.first_seen_at.getTime(),
      kind: "device_first_seen",
      facts: { device: deviceShortId(heartbeat.device_id) },
      deviceId: heartbeat.device_id,
    });
  }

  const activity: DeviceActivity[] = [
    ...answers.map((row) => ({ at: row.saved_at.getTime(), deviceId: row.device_id })),
    ...heartbeats.flatMap((row) => [
      { at: row.first_seen_at.getTime(), deviceId: row.device_id },
      { at: row.received_at.getTime(), deviceId: row.device_id },
    ]),
  ];
  entries.push(...deviceSwitches(activity));

  for (const span of spans) {
    entries.push({
      at: span.started_at.getTime(),
      kind: "offline",
      facts: { device: deviceShortId(span.device_id), cause: offlineCause(span.cause) },
      deviceId: span.device_id,
      until: span.ended_at?.getTime() ?? null,
    });
    if (span.ended_at) {
      entries.push({
        at: span.ended_at.getTime(),
        kind: "online",
        facts: {
          device: deviceShortId(span.device_id),
          offlineMs: span.ended_at.getTime() - span.started_at.getTime(),
        },
        deviceId: span.device_id,
      });
    }
  }

  entries.push(
    ...groupSaves(
      answers.map((row) => ({ savedAt: row.saved_at.getTime(), deviceId: row.device_id })),
      devices.size > 1,
    ),
  );

  for (const extension of extensions) {
    entries.push({
      at: extension.created_at.getTime(),
      kind: "extended",
      facts: {
        seconds: extension.seconds,
        by: actorName(extension.actor_label),
        reason: extension.reason,
        isWaitingForStart: extension.attempt_id === null,
      },
    });
    if (extension.acknowledged_at) {
      entries.push({
        at: extension.acknowledged_at.getTime(),
        kind: "extension_acknowledged",
        facts: {
          device: extension.acknowledged_device_id ? deviceShortId(extension.acknowledged_device_id) : null,
          seconds: extension.seconds,
        },
        ...(extension.acknowledged_device_id ? { deviceId: extension.acknowledged_device_id } : {}),
      });
    }
  }

  for (const submission of [...earlier, candidate]) {
    if (!submission.submitted_at || !submission.source) continue;
    const isMismatch = submission.client_digest !== null && submission.client_digest !== submission.digest;
    entries.push({
      at: submission.submitted_at.getTime(),
      kind: "submitted",
      facts: {
        source: submission.source,
        forcedBy: submission.source === "proctor" ? submission.forced_by : null,
        forcedReason: submission.source === "proctor" ? submission.forced_reason : null,
        isDigestMismatch: isMismatch,
      },
    });
  }

  for (const reopening of reopenings) {
    entries.push({
      at: reopening.at.getTime(),
      kind: "reopened",
      facts: {
        by: actorName(reopening.actor_label),
        reason: reopening.reason,
        seconds: reopening.seconds,
        version: reopening.version,
      },
    });
  }

  for (const late of lateAnswers) {
    entries.push({
      at: late.received_at.getTime(),
      kind: "late_answer",
      facts: { position: late.position, device: deviceShortId(late.device_id), via: late.via },
      deviceId: late.device_id,
    });
  }

  for (const decided of decisions) {
    entries.push({
      at: decided.decided_at.getTime(),
      kind: "late_answer_decided",
      facts: {
        position: decided.position,
        decision: decided.decision,
        by: actorName(decided.actor_label),
        reason: decided.reason,
      },
    });
  }

  return {
    enrollmentId: candidate.enrollment_id,
    serverTime: options.now ?? Date.now(),
    entries: sortTimeline(entries).map((entry) => ({ ...entry, text: english.timelineLine(entry) })),
  };
}
