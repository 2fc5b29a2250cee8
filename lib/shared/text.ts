/**
 * Text Holdfast cannot store as the client sent it: a NUL character (Postgres text and jsonb refuse it)
 * or a UTF-16 surrogate without its pair (not Unicode: jsonb refuses its escape, a text column would
 * silently get U+FFFD). Refused with a 422 wherever text is stored, instead of failing in the database.
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSTORABLE_TEXT_MESSAGE = "contains a character that cannot be saved (NUL or an unpaired surrogate)";

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}
