import type { AppLocale } from "./i18n/locales";

// Numbers, times and durations in the reader's locale, through Intl. Each screen uses one time zone and
// names it (TimeZoneNote); words around these values live in the message catalogs (messages/).

type Locale = AppLocale | string;

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>(key: string, make: () => T): T {
  let value = cache.get(key) as T | undefined;
  if (!value) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

function unit(locale: Locale, name: "hour" | "minute" | "second", display: "long" | "narrow"): Intl.NumberFormat {
  return cached(
    `u|${locale}|${name}|${display}`,
    () => new Intl.NumberFormat(locale, { style: "unit", unit: name, unitDisplay: display }),
  );
}

/**
 * A length of time in words: 5400 → "1 hour 30 minutes" / "1小时30分钟"; 90 → "1 minute 30 seconds";
 * 0 → "0 minutes". Plurals come from the locale's own rules (Intl unit formatting).
 */
export function formatDuration(totalSeconds: number, locale: Locale, display: "long" | "narrow" = "long"): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts: string[] = [];
  if (hours > 0) parts.push(unit(locale, "hour", display).format(hours));
  if (minutes > 0) parts.push(unit(locale, "minute", display).format(minutes));
  if (rest > 0) parts.push(unit(locale, "second", display).format(rest));
  if (parts.length === 0) return unit(locale, "minute", display).format(0);
  return cached(`l|${locale}`, () => new Intl.ListFormat(locale, { type: "unit", style: "narrow" })).format(parts);
}

function toDate(instant: Date | string | number): Date {
  return instant instanceof Date ? instant : new Date(instant);
}

/** Date and time, 24-hour: "Dec 1, 2026, 08:00" / "2026年12月1日 08:00". The zone is named once per screen. */
export function formatInstant(instant: Date | string | number, locale: Locale, timeZone: string): string {
  return cached(
    `i|${locale}|${timeZone}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        year: "numeric",
        month: "short",
        day: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZone,
      }),
  ).format(toDate(instant));
}

/** Time of day, 24-hour with seconds: "14:05:09". */
export function formatClock(
  instant: Date | string | number,
  locale: Locale,
  timeZone: string,
  withSeconds = true,
): string {
  return cached(
    `c|${locale}|${timeZone}|${withSeconds}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        hour: "2-digit",
        minute: "2-digit",
        ...(withSeconds ? { second: "2-digit" } : {}),
        hourCycle: "h23",
        timeZone,
      }),
  ).format(toDate(instant));
}

/** The zone as a reader knows it: "Asia/Shanghai (GMT+8)", "UTC". */
export function describeTimeZone(timeZone: string, locale: Locale, at: Date = new Date()): string {
  if (timeZone === "UTC" || timeZone === "Etc/UTC") return "UTC";
  const offset = cached(
    `z|${locale}|${timeZone}`,
    () => new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "shortOffset" }),
  )
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")?.value;
  return offset ? `${timeZone} (${offset})` : timeZone;
}

/** A whole or decimal number: "1,234" / "20.5" / "1.234" in the locale's digits. */
export function formatNumber(value: number, locale: Locale, maximumFractionDigits = 2): string {
  return cached(
    `n|${locale}|${maximumFractionDigits}`,
    () => new Intl.NumberFormat(locale, { maximumFractionDigits }),
  ).format(value);
}

/** A ratio 0–1 as a percentage: 0.125 → "12.5%" / "12.5%". */
export function formatPercent(ratio: number, locale: Locale, maximumFractionDigits = 1): string {
  return cached(
    `p|${locale}|${maximumFractionDigits}`,
    () => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits }),
  ).format(ratio);
}

/** The words `formatWindow` needs (common.window in the catalogs). */
type WindowWords = (key: "always" | "from" | "until" | "range", values?: Record<string, string>) => string;

/** The exam window in words: "Always open", "From …", "Until …" or "… to …", in the screen's zone. */
export function formatWindow(
  opensAt: Date | string | null,
  closesAt: Date | string | null,
  words: WindowWords,
  locale: Locale,
  timeZone: string,
): string {
  const open = opensAt ? formatInstant(opensAt, locale, timeZone) : null;
  const close = closesAt ? formatInstant(closesAt, locale, timeZone) : null;
  if (open && close) return words("range", { opensAt: open, closesAt: close });
  if (open) return words("from", { opensAt: open });
  if (close) return words("until", { closesAt: close });
  return words("always");
}
