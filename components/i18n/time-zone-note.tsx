import { useLocale, useTimeZone, useTranslations } from "next-intl";

import { describeTimeZone } from "@/lib/shared/format";

/** Names the one time zone every time on this screen is shown in. Server or client. */
export function TimeZoneNote({ className = "time-zone-note" }: { className?: string }) {
  const t = useTranslations("common");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  return <p className={className}>{t("timeZone", { zone: describeTimeZone(timeZone, locale) })}</p>;
}
