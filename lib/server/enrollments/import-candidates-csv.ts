import "server-only";

import { randomUUID } from "node:crypto";

import { extraMinutesOf, parseCandidatesCsv, type ParsedCandidateLine } from "@/lib/shared/enrollment-csv";
import { AppError } from "@/lib/shared/errors";
import type { CsvImportResult, CsvPreviewLine } from "@/lib/shared/schemas/enrollments";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { db, type Prisma } from "../db/client";
import { lockExamForKeyShare } from "../exams/lock-exam-for-key-share";
import { deriveJoinToken, hashJoinToken } from "./join-token";

type Existing = { id: string; email: string; name: string; extra_seconds: number };
type Tx = Prisma.TransactionClient;

/**
 * A line already enrolled: `unchanged` when name and extra time are the same, else a `conflict` error.
 * An import never changes an existing candidate: a roster edited since the last import would otherwise
 * rename people silently, and extra time changed here would not move a running attempt's deadline (the
 * candidate's row on the exam's page does both, through extendCandidate).
 */
function classify(line: ParsedCandidateLine, existing: Existing | undefined): CsvPreviewLine {
  const base = { line: line.line, name: line.name, email: line.email, extraSeconds: line.extraSeconds };
  if (line.errors.length > 0) return { ...base, status: "error", errors: line.errors };
  if (!existing) return { ...base, status: "new", errors: [] };
  // In whole minutes, as the file speaks them: a part minute stored through the API (and written rounded up
  // by the export) is not a change, so the exported file imports again without a conflict.
  const existingMinutes = extraMinutesOf(existing.extra_seconds);
  if (existing.name === line.name && existingMinutes * 60 === line.extraSeconds) {
    return { ...base, status: "unchanged", enrollmentId: existing.id, errors: [] };
  }
  return {
    ...base,
    status: "error",
    enrollmentId: existing.id,
    errors: [
      {
        code: "conflict",
        message: `Already enrolled as "${existing.name}" with ${existingMinutes} extra minutes; an import does not change an enrolled candidate.`,
        params: { name: existing.name, extraMinutes: existingMinutes },
      },
    ],
  };
}

function resultOf(options: {
  dryRun: boolean;
  written: boolean;
  delimiter: "," | ";";
  fileErrors: CsvImportResult["fileErrors"];
  lines: CsvPreviewLine[];
}): CsvImportResult {
  const count = (status: CsvPreviewLine["status"]) => options.lines.filter((line) => line.status === status).length;
  return {
    ...options,
    summary: { lines: options.lines.length, new: count("new"), unchanged: count("unchanged"), errors: count("error") },
  };
}

async function findExisting(client: Tx | typeof db, examId: string, emails: string[]): Promise<Map<string, Existing>> {
  const rows = await client.$queryRaw<Existing[]>`
    SELECT id::text AS id, email, name, extra_seconds FROM enrollments
    WHERE exam_id = ${examId}::uuid AND email = ANY(${emails}::text[])`;
  return new Map(rows.map((row) => [row.email, row]));
}

function refused(result: CsvImportResult): AppError {
  const problems = result.fileErrors.length > 0 ? result.fileErrors.length : result.summary.errors;
  return new AppError(
    "VALIDATION_FAILED",
    result.fileErrors.length > 0
      ? `The file cannot be read: ${result.fileErrors[0]!.message} Nothing was imported.`
      : `${problems} line(s) have errors; nothing was imported. Fix them and send the whole file again.`,
    { details: result },
  );
}

/**
 * Imports (or, with `dryRun`, previews) a candidates CSV (docs/admin-api.md, "Candidates CSV"):
 *
 * 1. Parse and check every line (lib/shared/enrollment-csv.ts): no database yet.
 * 2. Look up the file's emails already enrolled: each valid line becomes `new`, `unchanged` or a
 *    `conflict` error. A dry run stops here and returns the preview, errors and all.
 * 3. Any error refuses the whole file: 422 with the preview in `error.details`, nothing written.
 * 4. In one transaction, insert the new lines in one statement, ON CONFLICT (exam_id, email) DO NOTHING,
 *    so two admins importing at once end with one enrollment per email (the unique key decides, not a
 *    read). A line someone else enrolled between 2 and 4 is read back under that same key: the same
 *    name and time make it `unchanged`; anything else is a conflict and the transaction rolls back (3).
 *    Locks in the lock order (docs/sync-protocol.md, "Lock order"): the exam FOR KEY SHARE first, then the
 *    new rows in email order, so a delete of the exam or another import never waits on us the other way round.
 */
export async function importCandidatesCsv(options: {
  examId: string;
  csv: string;
  dryRun: boolean;
  actor: AuditActor;
}): Promise<CsvImportResult> {
  const { examId, csv, dryRun, actor } = options;
  const exam = await db.exam.findUnique({ where: { id: examId }, select: { id: true } });
  if (!exam) throw new AppError("NOT_FOUND", "No such exam.");

  // 1.
  const parsed = parseCandidatesCsv(csv);
  const validEmails = parsed.lines.filter((line) => line.errors.length === 0).map((line) => line.email);

  // 2.
  const existing = await findExisting(db, examId, validEmails);
  const preview = resultOf({
    dryRun,
    written: false,
    delimiter: parsed.delimiter,
    fileErrors: parsed.fileErrors,
    lines: parsed.lines.map((line) => classify(line, existing.get(line.email))),
  });
  if (dryRun) return preview;

  // 3.
  if (preview.fileErrors.length > 0 || preview.summary.errors > 0) throw refused(preview);

  // 4.
  const fresh = preview.lines.filter((line) => line.status === "new");
  const ids = fresh.map(() => randomUUID());
  return db.$transaction(
    async (tx) => {
      await lockExamForKeyShare(tx, examId);
      const inserted = await tx.$queryRaw<{ id: string; email: string }[]>`
        INSERT INTO enrollments (id, exam_id, name, email, join_token_hash, extra_seconds)
        SELECT input.id, ${examId}::uuid, input.name, input.email, input.hash, input.extra
        FROM unnest(${ids}::uuid[], ${fresh.map((line) => line.name)}::text[], ${fresh.map((line) => line.email)}::text[],
                    ${ids.map((id) => hashJoinToken(deriveJoinToken(id, 1)))}::text[],
                    ${fresh.map((line) => line.extraSeconds ?? 0)}::int[])
          AS input(id, name, email, hash, extra)
        ORDER BY input.email COLLATE "C"
        ON CONFLICT (exam_id, email) DO NOTHING
        RETURNING id::text AS id, email`;
      const insertedIds = new Map(inserted.map((row) => [row.email, row.id]));
      const raced = fresh.filter((line) => !insertedIds.has(line.email)).map((line) => line.email);
      const racedRows = raced.length > 0 ? await findExisting(tx, examId, raced) : new Map<string, Existing>();

      const lines = preview.lines.map((line): CsvPreviewLine => {
        if (line.status !== "new") return line;
        const id = insertedIds.get(line.email);
        if (id !== undefined) return { ...line, enrollmentId: id };
        return classify({ ...line, errors: [] }, racedRows.get(line.email));
      });
      const result = resultOf({ dryRun, written: true, delimiter: parsed.delimiter, fileErrors: [], lines });
      if (result.summary.errors > 0) throw refused({ ...result, written: false });

      await recordAuditEvent(
        {
          actor,
          action: "candidates.imported",
          examId,
          data: { lines: result.summary.lines, new: result.summary.new, unchanged: result.summary.unchanged },
        },
        tx,
      );
      return result;
    },
    { timeout: 30_000 },
  );
}
