import "server-only";

import type { AuditActorType } from "@/lib/shared/audit-actions";
import { AppError } from "@/lib/shared/errors";
import type { AuditEntry, AuditPage, AuditPerson, AuditQuery } from "@/lib/shared/schemas/audit";

import { db } from "../db/client";

type Row = {
  id: string;
  at: Date;
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  action: string;
  exam_id: string | null;
  exam_title: string | null;
  candidate_id: string | null;
  candidate_name: string | null;
  candidate_email: string | null;
  staff_id: string | null;
  staff_name: string | null;
  staff_email: string | null;
  attempt_id: string | null;
  data: unknown;
};

type Cursor = { at: Date; id: string };

/** The opaque `nextCursor`: the last entry's (at, id), base64url. */
function encodeAuditCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at.toISOString()}|${cursor.id}`, "utf8").toString("base64url");
}

function decodeCursor(value: string): Cursor {
  const [at, id, ...rest] = Buffer.from(value, "base64url").toString("utf8").split("|");
  const time = at ? Date.parse(at) : NaN;
  if (rest.length > 0 || !id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(time)) {
    throw new AppError("VALIDATION_FAILED", "Invalid query: cursor: is not a cursor this API gave.", {
      details: { issues: [{ path: "cursor", message: "is not a cursor this API gave" }] },
    });
  }
  return { at: new Date(time), id };
}

const person = (id: string | null, name: string | null, email: string | null): AuditPerson | null =>
  id !== null && name !== null && email !== null ? { id, name, email } : null;

function toEntry(row: Row): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: {
      type: row.actor_type as AuditActorType,
      id: row.actor_id,
      name: row.actor_name,
      email: row.actor_email,
    },
    action: row.action,
    examId: row.exam_id,
    examTitle: row.exam_title,
    candidate: person(row.candidate_id, row.candidate_name, row.candidate_email),
    staffMember: person(row.staff_id, row.staff_name, row.staff_email),
    attemptId: row.attempt_id,
    data: row.data !== null && typeof row.data === "object" ? (row.data as Record<string, unknown>) : {},
  };
}

/**
 * One page of the audit log, newest first, with the names on record now: the actor (a staff user or a
 * candidate), the exam's title (its title at deletion once it is gone), the candidate and the staff member the
 * event is about. Keyset paging on (at, id), so rows inserted while someone pages never shift or repeat a page.
 * An event of an attempt that names no exam (a candidate's submission) is found by its attempt's exam.
 */
export async function listAuditEvents(options: { query: AuditQuery; limit: number }): Promise<AuditPage> {
  const { query, limit } = options;
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = await db.$queryRaw<Row[]>`
    SELECT ae.id::text AS id, ae.at, ae.actor_type, ae.actor_id::text AS actor_id,
           COALESCE(su.name, ce.name) AS actor_name, COALESCE(su.email, ce.email) AS actor_email,
           ae.action, COALESCE(ae.exam_id, att.exam_id)::text AS exam_id,
           COALESCE(ex.title, (SELECT d.data->>'title' FROM audit_events d
                               WHERE d.exam_id = ae.exam_id AND d.action = 'exam.deleted' LIMIT 1)) AS exam_title,
           en.id::text AS candidate_id, en.name AS candidate_name, en.email AS candidate_email,
           ts.id::text AS staff_id, ts.name AS staff_name, ts.email AS staff_email,
           ae.attempt_id::text AS attempt_id, ae.data
    FROM audit_events ae
    LEFT JOIN attempts att ON att.id = ae.attempt_id
    LEFT JOIN exams ex ON ex.id = COALESCE(ae.exam_id, att.exam_id)
    LEFT JOIN enrollments en ON en.id = COALESCE(ae.enrollment_id, att.enrollment_id)
    LEFT JOIN staff_users su ON ae.actor_type = 'staff' AND su.id = ae.actor_id
    LEFT JOIN enrollments ce ON ae.actor_type = 'candidate' AND ce.id = ae.actor_id
    LEFT JOIN staff_users ts ON ts.id::text = ae.data->>'staffUserId'
    WHERE (${query.examId ?? null}::uuid IS NULL OR ae.exam_id = ${query.examId ?? null}::uuid
           OR (ae.exam_id IS NULL AND att.exam_id = ${query.examId ?? null}::uuid))
      AND (${query.actorId ?? null}::uuid IS NULL OR ae.actor_id = ${query.actorId ?? null}::uuid)
      AND (${query.action ?? null}::text[] IS NULL OR ae.action = ANY(${query.action ?? null}::text[]))
      AND (${query.from ?? null}::timestamptz IS NULL OR ae.at >= ${query.from ?? null}::timestamptz)
      AND (${query.to ?? null}::timestamptz IS NULL OR ae.at < ${query.to ?? null}::timestamptz)
      AND (${cursor?.at ?? null}::timestamptz IS NULL
           OR (ae.at, ae.id) < (${cursor?.at ?? null}::timestamptz, ${cursor?.id ?? null}::uuid))
    ORDER BY ae.at DESC, ae.id DESC
    LIMIT ${limit + 1}`;
  const entries = rows.slice(0, limit).map(toEntry);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { entries, nextCursor: last ? encodeAuditCursor({ at: last.at, id: last.id }) : null };
}
