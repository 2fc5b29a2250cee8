import type { AttemptPause, StoredAttempt } from "./db";

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

/** Whether a fact stamped `at` is at least as fresh as the last one taken, stamped `seen` (none yet: it is). */
function isFresh(at: number, seen: string | undefined): boolean {
  const seenAt = seen === undefined ? Number.NaN : Date.parse(seen);
  return Number.isNaN(seenAt) || at >= seenAt;
}

/**
 * The attempt record with a server answer's time facts applied. Deadlines only come from an answer at
 * least as fresh as the one they were last taken from (a slow heartbeat must not undo a proctor's
 * extension that a later autosave already brought); the clock offset is always the latest measurement.
 * When only `deadline` is known, `acceptsUntil` keeps its distance to it (the grace period does not change).
 * The pause follows the same rule against the answers that spoke of the pause (`pauseTimeSeen`): an answer
 * that says nothing of it (an autosave's) is no fresher word on it, so a "paused" event stamped just before an
 * autosave's answer but arriving after it still locks the page. Likewise an answer without a deadline (a
 * "paused" event) does not make an extension stamped before it stale. A resume brings its deadline and the
 * pause's end together, each kept if fresher than what was last said of it.
 */
export function withServerFacts<Record extends StoredAttempt>(record: Record, facts: ServerFacts): Record {
  const next = { ...record };
  if (facts.serverOffsetMs !== undefined && facts.serverOffsetMs !== null && Number.isFinite(facts.serverOffsetMs)) {
    next.serverOffsetMs = Math.round(facts.serverOffsetMs);
  }
  const at = Date.parse(facts.serverTime);
  if (Number.isNaN(at)) return next;
  if (facts.pause !== undefined && isFresh(at, record.pauseTimeSeen)) {
    next.pause = facts.pause;
    next.pauseTimeSeen = facts.serverTime;
  }
  const hasTimes = facts.deadline !== undefined || facts.acceptsUntil !== undefined;
  if (!hasTimes || !isFresh(at, record.serverTimeSeen)) return next;
  next.serverTimeSeen = facts.serverTime;
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
