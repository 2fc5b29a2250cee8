import type { AppLocale } from "./locales";

/**
 * People's names in the order a reader of `locale` looks them up: Intl.Collator's, so English readers get
 * alphabetical order (O'Brien as OBrien, between Oakes and Ólafur; accents beside their letters) and Chinese readers pinyin order (何 hé,
 * 冯 féng, 刘 liú: 冯, 何, 刘), with Latin names among them as they sort; digits by value ("Room 2" before
 * "Room 10"). Equal names keep a fixed order by the tie-breakers given (an email, then an id), so two downloads of
 * one list agree. Every list of candidates staff see or download uses it (docs/admin-api.md, "Order").
 */
export function nameCollator(locale: AppLocale): Intl.Collator {
  return new Intl.Collator(locale, { numeric: true, sensitivity: "variant", ignorePunctuation: true });
}

/** Sorts by `name`, then by each tie-breaker in code-point order; a new array. */
export function sortByName<T>(
  items: readonly T[],
  locale: AppLocale,
  key: (item: T) => { name: string; tieBreakers: readonly string[] },
): T[] {
  const collator = nameCollator(locale);
  const keyed = items.map((item) => ({ item, key: key(item) }));
  keyed.sort((a, b) => {
    const byName = collator.compare(a.key.name, b.key.name);
    if (byName !== 0) return byName;
    for (let index = 0; index < a.key.tieBreakers.length; index += 1) {
      const x = a.key.tieBreakers[index] ?? "";
      const y = b.key.tieBreakers[index] ?? "";
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  });
  return keyed.map(({ item }) => item);
}
