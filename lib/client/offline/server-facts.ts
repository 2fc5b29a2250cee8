import type { AttemptPause, AttemptRecord } from "./db";

/** Time facts from one server answer: its `serverTime`, the attempt's `deadline`, and the clock offset measured. */
export type ServerFacts = {
  serverTime: string;
  deadline?: string;
  acceptsUntil?: string;
  /** Server time − device time at the request's midpoint; omitted when the answer was not timed. */
  serverOffsetMs?: number | null;
  /** The attempt's pause (null: running); omitted when the answer does not say. */
  pause?: AttemptPause | null;
};

/**
 * The attempt record with a server answer's time facts applied. Deadlines only come from an answer at
 * least as fresh as the one they were last taken from (a slow heartbeat must not undo a proctor's
 * extension that a later autosave already brought); the clock offset is always the latest measurement.
 * When only `deadline` is known, `acceptsUntil` keeps its distance to it (the grace period does not change).
 * The pause follows the same freshness rule as the deadline: a resume and its new deadline come together.
 */
export function withServerFacts(record: AttemptRecord, facts: ServerFacts): AttemptRecord {
  const next = { ...record };
  if (facts.serverOffsetMs !== undefined && facts.serverOffsetMs !== null && Number.isFinite(facts.serverOffsetMs)) {
    next.serverOffsetMs = Math.round(facts.serverOffsetMs);
  }
  const seen = Date.parse(record.serverTimeSeen);
  const at = Date.parse(facts.serverTime);
  if (Number.isNaN(at) || (!Number.isNaN(seen) && at < seen)) return next;
  next.serverTimeSeen = facts.serverTime;
  if (facts.pause !== undefined) next.pause = facts.pause;
  if (facts.deadline !== undefined && facts.deadline !== record.deadline) {
    const graceMs = Date.parse(record.acceptsUntil) - Date.parse(record.deadline);
    next.deadline = facts.deadline;
    next.acceptsUntil =
      facts.acceptsUntil ?? new Date(Date.parse(facts.deadline) + (Number.isNaN(graceMs) ? 0 : graceMs)).toISOString();
  } else if (facts.acceptsUntil !== undefined) {
    next.acceptsUntil = facts.acceptsUntil;
  }
  return next;
}
