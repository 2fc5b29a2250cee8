/**
 * The server-owned deadline of an attempt (contract guarantee 5):
 * min(startedAt + durationSeconds + extraSeconds, closesAt). Writes are accepted until deadline + grace.
 */
export function computeDeadline(options: {
  startedAt: Date;
  durationSeconds: number;
  extraSeconds: number;
  closesAt: Date | null;
}): Date {
  const byDuration = options.startedAt.getTime() + (options.durationSeconds + options.extraSeconds) * 1000;
  const capped = options.closesAt ? Math.min(byDuration, options.closesAt.getTime()) : byDuration;
  return new Date(capped);
}

export function acceptsUntil(deadline: Date, graceSeconds: number): Date {
  return new Date(deadline.getTime() + graceSeconds * 1000);
}
