/**
 * A translator as the pure wording modules take it: a dotted key (often built at run time, so not the typed
 * translator the components use) and its values. `useTranslations(namespace)` is one; so is next-intl's
 * `createTranslator` over a catalog, on the server and in tests.
 */
export type Translate = (key: string, values?: Record<string, string | number>) => string;
