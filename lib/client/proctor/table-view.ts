import {
  countCandidate,
  deriveCandidateStatus,
  emptyCounters,
  type CandidateStatus,
} from "@/lib/shared/proctor/live-status";
import type { CandidateFacts, StatusCounters } from "@/lib/shared/schemas/proctor";

/** One table row: the facts, what they mean at the dashboard's "now", and the row's place by name. */
export type CandidateRow = { facts: CandidateFacts; status: CandidateStatus; nameRank: number };

/** The counter buttons: each filters the table to the candidates it counts. */
export const STATUS_FILTERS = ["all", "online", "offline", "pending", "atRisk", "submitted", "notStarted"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const SORT_KEYS = [
  "risk",
  "name",
  "connection",
  "sync",
  "oldestPending",
  "lastSave",
  "answered",
  "timeLeft",
  "status",
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = "asc" | "desc";
export type TableView = { filter: StatusFilter; search: string; sort: SortKey; direction: SortDirection };

export const DEFAULT_VIEW: TableView = { filter: "all", search: "", sort: "risk", direction: "asc" };

const collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

/**
 * Every candidate's place in name order (then email). Names do not change, so the dashboard computes this
 * only when candidates come or go; every sort then breaks ties with a number instead of comparing strings,
 * which at 10,000 rows is most of a sort's cost.
 */
export function rankByName(candidates: readonly CandidateFacts[]): Map<string, number> {
  const sorted = [...candidates].sort((a, b) => collator.compare(a.name, b.name) || collator.compare(a.email, b.email));
  return new Map(sorted.map((facts, index) => [facts.enrollmentId, index]));
}

export function deriveRows(
  candidates: readonly CandidateFacts[],
  now: number,
  ranks: ReadonlyMap<string, number> = rankByName(candidates),
): CandidateRow[] {
  return candidates.map((facts) => ({
    facts,
    status: deriveCandidateStatus(facts, now),
    nameRank: ranks.get(facts.enrollmentId) ?? Number.MAX_SAFE_INTEGER,
  }));
}

export function countRows(rows: readonly CandidateRow[]): StatusCounters {
  const counters = emptyCounters();
  for (const row of rows) countCandidate(counters, row.facts, row.status);
  return counters;
}

/** Whether a row counts under a counter button; the same rules as `countCandidate`. */
export function matchesFilter(row: CandidateRow, filter: StatusFilter): boolean {
  const { facts, status } = row;
  const isRunning = facts.phase === "in_progress";
  switch (filter) {
    case "all":
      return true;
    case "online":
      return isRunning && status.connection === "online";
    case "offline":
      return isRunning && (status.connection === "offline" || status.connection === "unreachable");
    case "pending":
      return isRunning && (status.sync === "pending" || status.sync === "failing");
    case "atRisk":
      return status.isAtRisk;
    case "submitted":
      return facts.phase === "submitted" || facts.phase === "auto_submitted";
    case "notStarted":
      return facts.phase === "not_started";
  }
}

/** Case- and accent-insensitive match on name or email. */
export function matchesSearch(row: CandidateRow, needle: string): boolean {
  if (needle === "") return true;
  return fold(row.facts.name).includes(needle) || fold(row.facts.email).includes(needle);
}

function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
}

const CONNECTION_ORDER = { unreachable: 0, offline: 1, online: 2, never: 3 } as const;
const SYNC_ORDER = { failing: 0, pending: 1, unknown: 2, synced: 3, none: 4 } as const;
const PHASE_ORDER = { in_progress: 0, not_started: 1, submitted: 2, auto_submitted: 3 } as const;

const byName = (a: CandidateRow, b: CandidateRow) => a.nameRank - b.nameRank;

/** Nulls (no value) sort last in either direction. */
function compareNullable(a: number | null, b: number | null, sign: number): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return (a - b) * sign;
}

const negate = (value: number | null) => (value === null ? null : -value);

function comparator(sort: SortKey, direction: SortDirection): (a: CandidateRow, b: CandidateRow) => number {
  const sign = direction === "asc" ? 1 : -1;
  switch (sort) {
    case "risk":
      // At risk first (by how long pending work has waited), then failing/pending, then everyone by name.
      return (a, b) =>
        (Number(b.status.isAtRisk) - Number(a.status.isAtRisk)) * sign ||
        (Math.min(SYNC_ORDER[a.status.sync], 3) - Math.min(SYNC_ORDER[b.status.sync], 3)) * sign ||
        compareNullable(negate(a.status.oldestPendingMs), negate(b.status.oldestPendingMs), 1) ||
        byName(a, b);
    case "name":
      return (a, b) => byName(a, b) * sign;
    case "connection":
      return (a, b) =>
        (CONNECTION_ORDER[a.status.connection] - CONNECTION_ORDER[b.status.connection]) * sign || byName(a, b);
    case "sync":
      return (a, b) =>
        (SYNC_ORDER[a.status.sync] - SYNC_ORDER[b.status.sync]) * sign ||
        (b.status.pending - a.status.pending) * sign ||
        byName(a, b);
    case "oldestPending":
      // Ascending means the longest-waiting work first: the order a proctor acts in.
      return (a, b) =>
        compareNullable(negate(a.status.oldestPendingMs), negate(b.status.oldestPendingMs), sign) || byName(a, b);
    case "lastSave":
      return (a, b) => compareNullable(a.facts.lastSaveAt, b.facts.lastSaveAt, sign) || byName(a, b);
    case "answered":
      return (a, b) => (a.facts.answered - b.facts.answered) * sign || byName(a, b);
    case "timeLeft":
      return (a, b) => compareNullable(a.status.timeLeftMs, b.status.timeLeftMs, sign) || byName(a, b);
    case "status":
      return (a, b) => (PHASE_ORDER[a.facts.phase] - PHASE_ORDER[b.facts.phase]) * sign || byName(a, b);
  }
}

/** Filter, search and sort in one pass over the rows; never mutates its input. */
export function viewRows(rows: readonly CandidateRow[], view: TableView): CandidateRow[] {
  const needle = fold(view.search.trim());
  const visible = rows.filter((row) => matchesFilter(row, view.filter) && matchesSearch(row, needle));
  return visible.sort(comparator(view.sort, view.direction));
}
