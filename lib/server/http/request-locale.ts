import "server-only";

import { LOCALE_COOKIE, resolveLocale, type AppLocale } from "@/lib/shared/i18n/locales";

import { readCookie } from "../auth/cookies";

/**
 * The reader's language for an API request, as the pages pick it (i18n/request.ts): the `holdfast_locale` cookie,
 * else the best fit for `Accept-Language`, else English. For what an API answers in the reader's order or words
 * (a download's name order, say); error bodies stay in English with their codes.
 */
export function requestLocale(request: Request): AppLocale {
  return resolveLocale(readCookie(request, LOCALE_COOKIE), request.headers.get("accept-language"));
}
