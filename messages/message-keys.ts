/** A catalogue of one language: namespace → its messages (messages/<language>/<namespace>.json). */
type Catalogue = Record<string, unknown>;

/**
 * Finds message keys shown instead of their sentences: next-intl shows `namespace.path.to.key` when a message is
 * missing or formats to nothing it can use (a precompiled message whose every part came out empty is an empty
 * array, not a string). Such a key starts with one of the catalogue's namespaces and a name at its top level,
 * and goes on in dotted identifiers; it is not part of a word, a URL, an address or a file name (no ASCII letter,
 * digit, `.`, `/`, `@`, `:`, `_` or `-` right before it, nor an ASCII letter, digit, `/`, `@`, `_`, `-` or a dot
 * and more right after it). Chinese text may touch it on either side. e2e/screens.spec.ts looks at every
 * screen's text with it.
 */
export function messageKeyFinder(catalogue: Catalogue): (text: string) => string[] {
  const pattern = new RegExp(
    `(?<![A-Za-z0-9./@:_-])(${Object.keys(catalogue).join("|")})\\.([A-Za-z_][A-Za-z0-9_]*)(?:\\.[A-Za-z_][A-Za-z0-9_]*)*(?![A-Za-z0-9/@_-]|\\.[A-Za-z0-9])`,
    "g",
  );
  return (text) =>
    [...text.matchAll(pattern)]
      .filter(([, namespace, first]) => Object.hasOwn(catalogue[namespace!] as object, first!))
      .map((match) => match[0]);
}
