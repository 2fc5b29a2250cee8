// Junk values, and how a case puts one into an otherwise valid body.

// Junk values, as JSON text (so 2^53 + 1, 1e309 and lone surrogates reach the server as written).

const DEEP = 100_000;
export const JUNK: readonly { name: string; raw: string }[] = [
  { name: "string", raw: '"string"' },
  { name: "empty string", raw: '""' },
  { name: "blank string", raw: '"   "' },
  { name: "zero", raw: "0" },
  { name: "negative", raw: "-1" },
  { name: "float", raw: "1.5" },
  { name: "minus zero", raw: "-0" },
  { name: "2^31", raw: "2147483648" },
  { name: "2^53+1", raw: "9007199254740993" },
  { name: "1e309 (Infinity)", raw: "1e309" },
  { name: "-1e309", raw: "-1e309" },
  { name: "huge exponent", raw: "1e308" },
  { name: "null", raw: "null" },
  { name: "true", raw: "true" },
  { name: "false", raw: "false" },
  { name: "empty array", raw: "[]" },
  { name: "empty object", raw: "{}" },
  { name: "array of number", raw: "[1]" },
  { name: "nested arrays", raw: "[[[[[[[[[[[]]]]]]]]]]]" },
  { name: `${DEEP}-deep arrays`, raw: `${"[".repeat(DEEP)}${"]".repeat(DEEP)}` },
  { name: "__proto__ object", raw: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}' },
  { name: '"NaN"', raw: '"NaN"' },
  { name: '"Infinity"', raw: '"Infinity"' },
  { name: '"-Infinity"', raw: '"-Infinity"' },
  { name: '"1e309"', raw: '"1e309"' },
  { name: "numeric string", raw: '"42"' },
  { name: "NUL", raw: '"\\u0000"' },
  { name: "NUL inside", raw: '"a\\u0000b"' },
  { name: "lone surrogate", raw: '"\\ud800"' },
  { name: "SQL-ish", raw: '"\' OR 1=1 --"' },
  { name: "SQL drop", raw: '"x\'); DROP TABLE attempts; --"' },
  { name: "markup", raw: '"<script>alert(1)</script>"' },
  { name: "unicode junk", raw: '"\\u202e\\ud83d\\ude00 \\uff46\\uff55\\uff4c\\uff4c \\u0301\\ufeff"' },
  { name: "10k string", raw: JSON.stringify("x".repeat(10_000)) },
];

/** A string Postgres cannot store as text or jsonb (NUL), or that is not Unicode (a lone surrogate). */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof value === "string")
    return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
  if (Array.isArray(value)) return value.some((item) => hasUnstorableText(item, depth + 1));
  if (value !== null && typeof value === "object")
    return Object.entries(value).some(
      ([key, item]) => hasUnstorableText(key, depth + 1) || hasUnstorableText(item, depth + 1),
    );
  return false;
}

const SENTINEL = "\u0001junk\u0001";

export type Path = readonly (string | number)[];

/** `base` as JSON text with the value at `path` replaced by `raw` JSON text, or removed (`raw` undefined). */
export function mutate(base: unknown, path: Path, raw: string | undefined): string {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (raw === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
    return JSON.stringify(copy);
  }
  parent[last] = SENTINEL;
  return JSON.stringify(copy).replace(JSON.stringify(SENTINEL), raw);
}
