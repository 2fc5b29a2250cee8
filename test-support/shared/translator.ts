import { createTranslator } from "next-intl";

import type { AppLocale } from "@/lib/shared/i18n/locales";
import { MESSAGES } from "@/messages";

export type Translate = (key: string, values?: Record<string, string | number>) => string;

/**
 * The whole catalog of one locale as a plain function of a dotted key, for tests that check what a page
 * says in each language (keys built at run time, so not the typed translator the components use).
 */
export function translatorFor(locale: AppLocale): Translate {
  const t = createTranslator({ locale, messages: MESSAGES[locale] });
  return (key, values) => (t as unknown as Translate)(key, values);
}
