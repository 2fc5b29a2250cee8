import "server-only";

/**
 * Until when each attempt this process has seen lately accepts writes (deadline + grace, by the last statement that
 * read it here: an autosave, a submit's read), for the submit queue (submit-queue.ts): a submit is refused for load
 * only when its turn would come after this moment, and a submit whose attempt this process has not seen is never
 * refused for lateness. A paused attempt accepts writes past its deadline (ADR 016): it has no bound here.
 *
 * What is remembered can be older than the attempt: an extension or a pause made since moves the deadline later,
 * and the attempt's next autosave (seconds apart while a candidate works) brings it here. Until then the queue may
 * refuse a submit it could have served in time, only when it is that long; the candidate's page retries it, and
 * Postgres decides as always.
 */
const MAX_REMEMBERED = 50_000;

const globalForAcceptsUntil = globalThis as unknown as { holdfastAcceptsUntil?: Map<string, number | null> };
const remembered = (globalForAcceptsUntil.holdfastAcceptsUntil ??= new Map());

/** Remembers until when the attempt accepts writes (epoch ms), or that it has no bound now (null: paused). */
export function rememberAcceptsUntil(attemptId: string, acceptsUntilMs: number | null): void {
  remembered.delete(attemptId);
  remembered.set(attemptId, acceptsUntilMs);
  if (remembered.size > MAX_REMEMBERED) {
    const oldest = remembered.keys().next().value;
    if (oldest !== undefined) remembered.delete(oldest);
  }
}

/** Until when the attempt accepts writes, as this process last saw it; undefined when unknown or unbounded. */
export function acceptsUntilOf(attemptId: string): number | undefined {
  return remembered.get(attemptId) ?? undefined;
}
