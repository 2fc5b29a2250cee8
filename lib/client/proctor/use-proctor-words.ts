"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useMemo } from "react";

import { proctorWords, type ProctorWords } from "@/lib/shared/proctor/describe";

/** The dashboard's words in the reader's language and the screen's time zone (`proctor` messages). */
export function useProctorWords(): ProctorWords {
  const t = useTranslations("proctor");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  return useMemo(() => proctorWords(t, locale, timeZone), [t, locale, timeZone]);
}
