import "server-only";

import { CSV_BYTE_ORDER_MARK, csvLines } from "@/lib/shared/csv-cell";
import type { AuditEntry, AuditQuery } from "@/lib/shared/schemas/audit";

import { listAuditEvents } from "./list-audit-events";

/** Rows read per query while the file streams: memory stays flat however long the log is. */
const CHUNK = 1000;

const AUDIT_CSV_FIELDS = [
  "at",
  "action",
  "actor_type",
  "actor_id",
  "actor_name",
  "actor_email",
  "exam_id",
  "exam_title",
  "candidate_name",
  "candidate_email",
  "staff_name",
  "staff_email",
  "attempt_id",
  "data",
] as const;

function csvRow(entry: AuditEntry): string[] {
  return [
    entry.at,
    entry.action,
    entry.actor.type,
    entry.actor.id ?? "",
    entry.actor.name ?? "",
    entry.actor.email ?? "",
    entry.examId ?? "",
    entry.examTitle ?? "",
    entry.candidate?.name ?? "",
    entry.candidate?.email ?? "",
    entry.staffMember?.name ?? "",
    entry.staffMember?.email ?? "",
    entry.attemptId ?? "",
    JSON.stringify(entry.data),
  ];
}

/**
 * The filtered audit log as CSV, newest first, streamed a thousand rows at a time (keyset pages, so the
 * file is one consistent walk down the log even while events are added). UTF-8 with a byte order mark and
 * CRLF lines, like the join-links export, so spreadsheets read Chinese names right; every text cell that a
 * spreadsheet would run as a formula starts with an apostrophe. `query.cursor` and `query.limit` are ignored.
 */
export function exportAuditCsv(options: { query: AuditQuery }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let isStarted = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!isStarted) {
        isStarted = true;
        controller.enqueue(encoder.encode(`${CSV_BYTE_ORDER_MARK}${csvLines([AUDIT_CSV_FIELDS])}`));
        return;
      }
      const page = await listAuditEvents({ query: { ...options.query, cursor }, limit: CHUNK });
      if (page.entries.length > 0) controller.enqueue(encoder.encode(csvLines(page.entries.map(csvRow))));
      if (page.nextCursor === null) controller.close();
      else cursor = page.nextCursor;
    },
  });
}
