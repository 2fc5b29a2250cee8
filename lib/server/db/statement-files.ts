import "server-only";

import { readFileSync } from "node:fs";

/**
 * The hot statements, kept as `.sql` files in lib/server/db/statements/ (ADR 010): read by the app, and run
 * as they are by the benchmark's baseline server (bench/servers/baseline-server.ts), so the baseline does the
 * app's SQL with no copy to drift. Each file names its parameters `:name` (outside string literals; `::type`
 * casts are not parameters) and says what they are in its header comment.
 *
 * Each file is read by a literal `readFileSync(new URL("./statements/….sql", import.meta.url))`: Next's
 * bundler sees the file, copies it into the build (.next/server/assets/) and points the URL at the copy, so
 * `next start` finds it from any working directory and in a copied build; under tsx and vitest the URL is
 * the source file itself. Keep the paths literal: a computed one would make the bundler trace the whole
 * project.
 */
const FILES = {
  "apply-answer-delta": () => readFileSync(new URL("./statements/apply-answer-delta.sql", import.meta.url), "utf8"),
  "lock-attempt": () => readFileSync(new URL("./statements/lock-attempt.sql", import.meta.url), "utf8"),
  "freeze-attempt": () => readFileSync(new URL("./statements/freeze-attempt.sql", import.meta.url), "utf8"),
  "read-paper-for-submit": () =>
    readFileSync(new URL("./statements/read-paper-for-submit.sql", import.meta.url), "utf8"),
  "submit-attempt": () => readFileSync(new URL("./statements/submit-attempt.sql", import.meta.url), "utf8"),
  "enqueue-result-jobs": () => readFileSync(new URL("./statements/enqueue-result-jobs.sql", import.meta.url), "utf8"),
  "read-attempt-for-heartbeat": () =>
    readFileSync(new URL("./statements/read-attempt-for-heartbeat.sql", import.meta.url), "utf8"),
} as const;

/**
 * Parts written once and included by several statements with a whole line `-- @include <name>.sql` (the same rule
 * in every statement that applies it: e.g. the autosave rule, in the autosave and in the one-statement submit; the
 * freeze, in every way an attempt is submitted). A fragment may include others (freeze.sql includes the result-job
 * upsert and the outbox rows).
 */
const FRAGMENTS = {
  "upsert-answers": () => readFileSync(new URL("./statements/upsert-answers.sql", import.meta.url), "utf8"),
  freeze: () => readFileSync(new URL("./statements/freeze.sql", import.meta.url), "utf8"),
  "upsert-result-jobs": () => readFileSync(new URL("./statements/upsert-result-jobs.sql", import.meta.url), "utf8"),
  "outbox-submission-created": () =>
    readFileSync(new URL("./statements/outbox-submission-created.sql", import.meta.url), "utf8"),
  "live-candidate-session": () =>
    readFileSync(new URL("./statements/live-candidate-session.sql", import.meta.url), "utf8"),
} as const;

const INCLUDE = /^--\s*@include\s+([\w-]+)\.sql\b.*$/gm;

/**
 * A statement file's text with each `-- @include <name>.sql` line replaced by that fragment's text, the fragment's
 * own includes expanded likewise; a fragment that includes itself, directly or not, is refused.
 */
export function expandIncludes(
  source: string,
  read: (name: string) => string = readFragment,
  including: readonly string[] = [],
): string {
  return source.replace(INCLUDE, (_, name: string) => {
    if (including.includes(name)) throw new Error(`statement fragment ${name}.sql includes itself`);
    return expandIncludes(read(name).trimEnd(), read, [...including, name]);
  });
}

function readFragment(name: string): string {
  const fragment = FRAGMENTS[name as keyof typeof FRAGMENTS];
  if (!fragment) throw new Error(`no statement fragment ${name}.sql`);
  return fragment();
}

export type StatementName = keyof typeof FILES;

/** A statement ready for node-postgres: `:name` parameters became `$1…$n`, in order of first use. */
export type CompiledStatement = { name: StatementName; text: string; params: readonly string[] };

/** A `:name` parameter: not part of a `::type` cast, not the tail of a word. */
const PARAMETER = /(?<![:\w]):([A-Za-z_]\w*)/g;

/** Turns a statement file's text into node-postgres's form; whole-line `--` comments are dropped. */
export function compileStatement(name: StatementName, source: string): CompiledStatement {
  const params: string[] = [];
  const text = source
    .split("\n")
    .filter((line) => !line.trim().startsWith("--"))
    .join("\n")
    .trim()
    .replace(PARAMETER, (_, param: string) => {
      let index = params.indexOf(param);
      if (index === -1) index = params.push(param) - 1;
      return `$${index + 1}`;
    });
  return { name, text, params };
}

const globalForStatements = globalThis as unknown as { holdfastStatements?: Map<StatementName, CompiledStatement> };
const compiled = (globalForStatements.holdfastStatements ??= new Map());

/** A hot statement, read and compiled once per process. */
export function loadStatement(name: StatementName): CompiledStatement {
  let statement = compiled.get(name);
  if (!statement) {
    statement = compileStatement(name, expandIncludes(FILES[name]()));
    compiled.set(name, statement);
  }
  return statement;
}

/** The values for a statement's parameters, in its `$n` order; a missing one is a bug, not a null. */
export function bindStatement(statement: CompiledStatement, values: Readonly<Record<string, unknown>>): unknown[] {
  return statement.params.map((param) => {
    if (!(param in values)) throw new Error(`${statement.name}.sql: no value for :${param}`);
    return values[param];
  });
}

/**
 * A hot statement with its parameters bound, as lib/server/db/sql.ts's SqlStatement, named after its file: a file's
 * text never changes in a process, so outside a transaction queryRows prepares it once per pooled connection and
 * Postgres plans it once there, not on every call (planning was 0.63 ms of the submit statement's 1 ms, and 0.36 of
 * the paper read's 0.46 ms: pg_stat_statements over a 3,000-candidate exam day, bench/PROFILE.md).
 */
export function fileStatement(
  name: StatementName,
  values: Readonly<Record<string, unknown>>,
): { text: string; values: unknown[]; name: StatementName } {
  const statement = loadStatement(name);
  return { text: statement.text, values: bindStatement(statement, values), name };
}
