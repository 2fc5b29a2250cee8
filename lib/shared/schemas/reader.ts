// A few lines of runtime checking for the bodies the exam page reads (the sync endpoints' 200 answers and
// its own event stream). Not zod: zod's core alone is 22 KB gzip of the exam page's first load, and the page
// reads seven fixed shapes. Each reader has zod's `safeParse` result shape, keeps only the keys it names
// (as a zod object does), and is typed against the server's own type, so the two cannot drift apart.

export type ReadResult<T> = { success: true; data: T } | { success: false; error: string };

export type Reader<T> = {
  /** The value as `T`, or where it first fails (a dotted path). */
  read(value: unknown, path: string): T;
  safeParse(value: unknown): ReadResult<T>;
  /** The value as `T`; throws where it first fails. */
  parse(value: unknown): T;
};

class ReadError extends Error {}

function reader<T>(read: (value: unknown, path: string) => T): Reader<T> {
  return {
    read,
    parse: (value) => read(value, ""),
    safeParse(value) {
      try {
        return { success: true, data: read(value, "") };
      } catch (error) {
        if (error instanceof ReadError) return { success: false, error: error.message };
        throw error;
      }
    },
  };
}

function fail(path: string, expected: string): never {
  throw new ReadError(`${path || "(body)"}: expected ${expected}`);
}

export const string = reader<string>((v, p) => (typeof v === "string" ? v : fail(p, "a string")));
export const boolean = reader<boolean>((v, p) => (typeof v === "boolean" ? v : fail(p, "a boolean")));
export const number = reader<number>((v, p) => (typeof v === "number" && Number.isFinite(v) ? v : fail(p, "a number")));
/** A whole number ≥ 0 (versions, revisions). */
export const count = reader<number>((v, p) =>
  Number.isInteger(v) && (v as number) >= 0 ? (v as number) : fail(p, "a count"),
);
/** A date-time string `Date.parse` reads. */
export const instant = reader<string>((v, p) =>
  typeof v === "string" && !Number.isNaN(Date.parse(v)) ? v : fail(p, "a date-time"),
);

export function oneOf<const T extends readonly string[]>(values: T): Reader<T[number]> {
  return reader((v, p) =>
    (values as readonly unknown[]).includes(v) ? (v as T[number]) : fail(p, values.join(" | ")),
  );
}

export function array<T>(item: Reader<T>): Reader<T[]> {
  return reader((v, p) =>
    Array.isArray(v) ? v.map((entry, i) => item.read(entry, `${p}.${i}`)) : fail(p, "an array"),
  );
}

export function nullable<T>(inner: Reader<T>): Reader<T | null> {
  return reader((v, p) => (v === null ? null : inner.read(v, p)));
}

/** Absent (or undefined) stays absent. */
export function optional<T>(inner: Reader<T>): Reader<T | undefined> {
  return reader((v, p) => (v === undefined ? undefined : inner.read(v, p)));
}

export function anyOf<T>(...readers: Reader<T>[]): Reader<T> {
  return reader((v, p) => {
    for (const candidate of readers) {
      const result = candidate.safeParse(v);
      if (result.success) return result.data;
    }
    return fail(p, "one of the allowed shapes");
  });
}

type Shape = Record<string, Reader<unknown>>;
type Out<S extends Shape> = {
  [K in keyof S as undefined extends ReturnType<S[K]["read"]> ? never : K]: ReturnType<S[K]["read"]>;
} & {
  [K in keyof S as undefined extends ReturnType<S[K]["read"]> ? K : never]?: ReturnType<S[K]["read"]>;
};

/** An object with these keys (others are dropped); optional keys that are absent stay absent. */
export function object<S extends Shape>(shape: S): Reader<Out<S>> {
  return reader((v, p) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return fail(p, "an object");
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(shape)) {
      const value = field.read((v as Record<string, unknown>)[key], p ? `${p}.${key}` : key);
      if (value !== undefined) out[key] = value;
    }
    return out as Out<S>;
  });
}
