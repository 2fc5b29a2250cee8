import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import type { ReactNode } from "react";

import type { AppLocale } from "@/lib/shared/i18n/locales";
import { pickMessages, type Namespace } from "@/messages";

/**
 * Hands the client components below it the message namespaces they use (and `common` and `errors`, which
 * every page's header and forms need), never the whole catalog. Server components translate on the
 * server and send no messages at all.
 */
export async function ClientMessages({
  namespaces,
  children,
}: {
  namespaces: readonly Namespace[];
  children: ReactNode;
}) {
  const locale = (await getLocale()) as AppLocale;
  const wanted = [...new Set<Namespace>(["common", "errors", ...namespaces])];
  return <NextIntlClientProvider messages={pickMessages(locale, wanted)}>{children}</NextIntlClientProvider>;
}
