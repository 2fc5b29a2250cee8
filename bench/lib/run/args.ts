// Command-line flags of `npm run bench -- <scenario> [--name=value | --name value | --flag]`.

export class UsageError extends Error {}

export type Flags = {
  /** A number flag within [min, max], or `fallback` when absent. */
  number(name: string, fallback: number, range?: { min?: number; max?: number; isInteger?: boolean }): number;
  /** One of `choices`, or `fallback` when absent. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T;
  /** True when the flag is present without a value, or with `true`/`1`. */
  boolean(name: string): boolean;
  /** The flag's text, or `fallback` when absent. */
  string(name: string, fallback: string | null): string | null;
  /** Flags that were given but never read: a typo should stop the run, not be ignored. */
  unread(): string[];
  /** Every flag as given, for the results file. */
  raw(): Record<string, string>;
};

export function parseArgs(argv: readonly string[]): { positional: string[]; flags: Flags } {
  const positional: string[] = [];
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? "";
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const body = arg.slice(2);
    const equals = body.indexOf("=");
    if (equals !== -1) {
      values.set(body.slice(0, equals), body.slice(equals + 1));
      continue;
    }
    const next = argv[index + 1];
    if (next !== undefined && !next.startsWith("--")) {
      values.set(body, next);
      index += 1;
    } else {
      values.set(body, "true");
    }
  }

  const read = new Set<string>();
  const flags: Flags = {
    number(name, fallback, range = {}) {
      read.add(name);
      const text = values.get(name);
      if (text === undefined) return fallback;
      const value = Number(text);
      const { min = -Infinity, max = Infinity, isInteger = false } = range;
      if (!Number.isFinite(value) || value < min || value > max || (isInteger && !Number.isInteger(value))) {
        throw new UsageError(
          `--${name} must be ${isInteger ? "an integer" : "a number"} in [${min}, ${max}], got "${text}"`,
        );
      }
      return value;
    },
    choice(name, choices, fallback) {
      read.add(name);
      const text = values.get(name);
      if (text === undefined) return fallback;
      const found = choices.find((choice) => choice === text);
      if (found === undefined) throw new UsageError(`--${name} must be one of ${choices.join(", ")}, got "${text}"`);
      return found;
    },
    boolean(name) {
      read.add(name);
      const text = values.get(name);
      return text === "true" || text === "1";
    },
    string(name, fallback) {
      read.add(name);
      return values.get(name) ?? fallback;
    },
    unread: () => [...values.keys()].filter((name) => !read.has(name)),
    raw: () => Object.fromEntries(values),
  };
  return { positional, flags };
}
