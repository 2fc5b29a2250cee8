"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

import { TIME_ZONE_COOKIE } from "@/lib/shared/i18n/locales";

import { setPreferenceCookie } from "./language-switch";

/**
 * Tells the server the reader's time zone, so the times it renders are the reader's own (UTC until then).
 * When the page was rendered in another zone, it is re-rendered once in place.
 */
export function TimeZoneSync({ serverTimeZone }: { serverTimeZone: string }) {
  const router = useRouter();
  useEffect(() => {
    let zone: string;
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch {
      return;
    }
    if (!zone || zone === serverTimeZone) return;
    setPreferenceCookie(TIME_ZONE_COOKIE, zone);
    if (navigator.onLine) router.refresh();
  }, [router, serverTimeZone]);
  return null;
}
