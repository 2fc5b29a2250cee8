import { zonedInputToInstant } from "./zoned-time";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The audit page's filters as its URL keeps them: dates are the reader's calendar days, `to` inclusive. */
export type AuditPageFilters = { examId: string; actorId: string; action: string; from: string; to: string };

export function readAuditPageFilters(params: Record<string, string | string[] | undefined>): AuditPageFilters {
  const one = (key: string) => {
    const value = params[key];
    return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
  };
  return { examId: one("examId"), actorId: one("actorId"), action: one("action"), from: one("from"), to: one("to") };
}

/** The day after a `YYYY-MM-DD` date, so an inclusive "to" day becomes an exclusive instant. */
function nextDay(date: string): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/**
 * The audit API's query for the page's filters (`GET /api/admin/audit`, the same filters the "Load more" and
 * "Download CSV" use): days become the instants they start at in `timeZone`. Null when a date is not a date;
 * the API's schema checks the rest.
 */
export function auditApiQuery(filters: AuditPageFilters, timeZone: string): URLSearchParams | null {
  const query = new URLSearchParams();
  if (filters.examId) query.set("examId", filters.examId);
  if (filters.actorId) query.set("actorId", filters.actorId);
  if (filters.action) query.set("action", filters.action);
  for (const [key, date] of [
    ["from", filters.from],
    ["to", filters.to && DATE.test(filters.to) ? nextDay(filters.to) : filters.to],
  ] as const) {
    if (!date) continue;
    const instant = DATE.test(date) ? zonedInputToInstant(`${date}T00:00`, timeZone) : null;
    if (!instant) return null;
    query.set(key, instant.toISOString());
  }
  return query;
}
