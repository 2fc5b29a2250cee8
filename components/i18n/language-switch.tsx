"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useTransition } from "react";

import {
  LOCALE_COOKIE,
  LOCALE_NAMES,
  LOCALES,
  PREFERENCE_COOKIE_MAX_AGE,
  type AppLocale,
} from "@/lib/shared/i18n/locales";

/** Remembers a preference for a year, for every page of this site. */
export function setPreferenceCookie(name: string, value: string) {
  const secure = location.protocol === "https:" ? "; secure" : "";
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${PREFERENCE_COOKIE_MAX_AGE}; samesite=lax${secure}`;
}

/**
 * The language menu in every page's header. The choice is kept in a cookie (no locale in the URL, so join
 * links and bookmarks never change) and the page is re-rendered on the server in place: what the reader
 * typed stays where it is. Each language is named in its own words.
 */
export function LanguageSwitch() {
  const t = useTranslations("common");
  const locale = useLocale() as AppLocale;
  const router = useRouter();
  const [isPending, startTransition] = useTransition();

  return (
    <label className="language-switch">
      <span className="visually-hidden">{t("language")}</span>
      <select
        value={locale}
        aria-busy={isPending}
        onChange={(event) => {
          setPreferenceCookie(LOCALE_COOKIE, event.target.value);
          startTransition(() => router.refresh());
        }}
      >
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LOCALE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
