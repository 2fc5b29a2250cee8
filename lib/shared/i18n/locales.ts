/**
 * The interface languages Holdfast speaks, and how a request picks one. Candidate content (exam titles,
 * prompts, options) is never translated: only the interface is. To add a language, see docs/i18n.md.
 */
export const LOCALES = ["en", "zh-CN"] as const;
export type AppLocale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: AppLocale = "en";

/** The language each locale is named in, in its own words (the switch shows these). */
export const LOCALE_NAMES: Record<AppLocale, string> = { en: "English", "zh-CN": "中文" };

/** The cookie that remembers the reader's choice (a year; not HttpOnly: the switch sets it in the page). */
export const LOCALE_COOKIE = "holdfast_locale";
/** The cookie that tells server-rendered pages the reader's IANA time zone (set by the page itself). */
export const TIME_ZONE_COOKIE = "holdfast_tz";
export const PREFERENCE_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

export function isAppLocale(value: unknown): value is AppLocale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** next-intl's locale (a string) as one of ours; anything else is the default. */
export function asAppLocale(value: string): AppLocale {
  return isAppLocale(value) ? value : DEFAULT_LOCALE;
}

/**
 * Best fit for an `Accept-Language` header: tags by quality, each matched exactly, then by its language
 * (`zh`, `zh-Hans`, `zh-TW`, `zh-SG` → zh-CN: the only Chinese we have; `en-US` → en). Nothing → null.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): AppLocale | null {
  if (!acceptLanguage) return null;
  const ranked = acceptLanguage
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    const exact = LOCALES.find((locale) => locale.toLowerCase() === tag);
    if (exact) return exact;
    const language = tag.split("-")[0];
    const byLanguage = LOCALES.find((locale) => locale.toLowerCase().split("-")[0] === language);
    if (byLanguage) return byLanguage;
  }
  return null;
}

/** The locale for a request: the remembered choice, else the browser's best fit, else English. */
export function resolveLocale(cookieValue: string | undefined, acceptLanguage: string | null): AppLocale {
  if (isAppLocale(cookieValue)) return cookieValue;
  return negotiateLocale(acceptLanguage) ?? DEFAULT_LOCALE;
}

/** An IANA zone the runtime knows (`Asia/Shanghai`, `UTC`), else null. */
export function validTimeZone(value: string | undefined | null): string | null {
  if (!value || value.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
