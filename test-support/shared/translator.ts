import { createTranslator } from "next-intl";

import type { AppLocale } from "@/lib/shared/i18n/locales";
import type { Translate } from "@/lib/shared/i18n/translate";
import { MESSAGES, type Namespace } from "@/messages";

/**
 * One locale's catalog as a plain function of a dotted key, for tests that check what a page says in each
 * language (keys built at run time, so not the typed translator the components use): the whole catalog, or
 * one namespace of it (`translatorFor("en", "proctor")` is what `useTranslations("proctor")` gives a page).
 */
export function translatorFor(locale: AppLocale, namespace?: Namespace): Translate {
  const t = createTranslator({ locale, messages: MESSAGES[locale], namespace });
  return (key, values) => (t as unknown as Translate)(key, values);
}
