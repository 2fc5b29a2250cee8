import { useLocale, useTimeZone, useTranslations } from "next-intl";

import { formatWindow } from "@/lib/shared/format";

/** When an exam can be taken, in words and in this screen's zone (common.window). Server or client. */
export function ExamWindow({ opensAt, closesAt }: { opensAt: Date | string | null; closesAt: Date | string | null }) {
  const t = useTranslations("common.window");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  return <>{formatWindow(opensAt, closesAt, (key, values) => t(key, values), locale, timeZone)}</>;
}
