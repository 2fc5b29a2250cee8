import "server-only";

import { CSV_BYTE_ORDER_MARK, csvLines } from "@/lib/shared/csv-cell";
import { extraMinutesOf } from "@/lib/shared/enrollment-csv";
import type { AppLocale } from "@/lib/shared/i18n/locales";

import { listCandidates } from "./list-candidates";

/**
 * The exam's join links as CSV (`name,email,extra_minutes,join_url`), UTF-8 with a byte order mark so
 * spreadsheets read Chinese names right; a revoked link is an empty `join_url`. The same columns an
 * import reads, plus the link, so the file can be mail-merged or imported elsewhere; extra time is in whole
 * minutes, as the import reads it (a part minute rounded up: see extraMinutesOf). By name in the reader's order.
 */
export async function exportJoinLinks(options: { examId: string; locale: AppLocale }): Promise<string> {
  const candidates = await listCandidates(options);
  const rows = candidates.map((candidate) => [
    candidate.name,
    candidate.email,
    String(extraMinutesOf(candidate.extraSeconds)),
    candidate.joinLink.status === "active" ? candidate.joinLink.url : "",
  ]);
  return `${CSV_BYTE_ORDER_MARK}${csvLines([["name", "email", "extra_minutes", "join_url"], ...rows])}`;
}
