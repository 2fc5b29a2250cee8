import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";

import { MESSAGES } from "@/messages";
import { LOCALE_COOKIE, TIME_ZONE_COOKIE, resolveLocale, validTimeZone } from "@/lib/shared/i18n/locales";

/**
 * The language and time zone of one request, with no locale in the URL (join links and bookmarks never
 * change): the `holdfast_locale` cookie, else the best fit for `Accept-Language`, else English. Times are
 * shown in the reader's zone once their page has told us it (`holdfast_tz`, set by TimeZoneCookie), and
 * in UTC until then; every screen names the zone it uses.
 */
export default getRequestConfig(async () => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const locale = resolveLocale(cookieStore.get(LOCALE_COOKIE)?.value, headerList.get("accept-language"));
  const timeZone = validTimeZone(cookieStore.get(TIME_ZONE_COOKIE)?.value) ?? "UTC";
  return { locale, timeZone, messages: MESSAGES[locale] };
});
