/**
 * `<input type="datetime-local">` values ("2026-12-01T09:30") read and written in one named time zone (the
 * screen's, see docs/i18n.md), not the browser's: an admin scheduling an exam in Beijing from a laptop set to
 * UTC still types Beijing times when the screen says so.
 */

/** The zone's offset from UTC at `instant`, in ms (whole seconds). */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a wall-clock `value` names in `timeZone`, or null when it is not a datetime-local value. */
export function zonedInputToInstant(value: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // Two rounds settle the offset around a daylight-saving change.
  const first = wall - offsetAt(wall, timeZone);
  return new Date(wall - offsetAt(first, timeZone));
}

/** The datetime-local value showing `instant` in `timeZone`. */
export function instantToZonedInput(instant: string | Date, timeZone: string): string {
  const time = new Date(instant).getTime();
  return new Date(time + offsetAt(time, timeZone)).toISOString().slice(0, 16);
}
