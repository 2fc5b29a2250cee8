// The baseline server runs the app's own SQL, copied verbatim into bench/lib/sql/*.sql. A copy that
// drifts from its source would quietly compare the app with different work, so every run checks that
// each copy still matches a raw-SQL tagged template in its source file.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const SQL_DIR = join(import.meta.dirname, "sql");
const PROJECT_ROOT = join(import.meta.dirname, "..", "..");

/** Each copy and the file its text comes from. */
export const SQL_COPIES = {
  "apply-answer-delta": "lib/server/answers/apply-answer-delta.ts",
  "lock-attempt-for-submit": "lib/server/attempts/lock-attempt-row.ts",
  "freeze-attempt": "lib/server/attempts/freeze-attempt.ts",
} as const;
export type SqlCopyName = keyof typeof SQL_COPIES;

/** A statement for node-postgres: `${name}` placeholders became `$1…`, in order of first use. */
export type CompiledSql = { text: string; params: string[] };

const PLACEHOLDER = /\$\{([\w.]+)\}/g;
// Prisma's tagged templates, and lib/server/db/sql.ts's `sql` tag (statements that run on the pool directly).
const TAGGED_SQL = /(?:\$(?:queryRaw|executeRaw)|\bsql)(?:<[^`]*?>)?`([\s\S]*?)`/g;

function withoutCommentLines(sql: string): string {
  return sql
    .split("\n")
    .filter((line) => !line.trim().startsWith("--"))
    .join("\n");
}

function normalise(sql: string): string {
  return withoutCommentLines(sql).replace(/\s+/g, " ").trim();
}

function readCopy(name: SqlCopyName): string {
  return readFileSync(join(SQL_DIR, `${name}.sql`), "utf8");
}

export function loadSql(name: SqlCopyName): CompiledSql {
  const params: string[] = [];
  const text = withoutCommentLines(readCopy(name)).replace(PLACEHOLDER, (_, param: string) => {
    let index = params.indexOf(param);
    if (index === -1) index = params.push(param) - 1;
    return `$${index + 1}`;
  });
  return { text: text.trim(), params };
}

export type SqlCopyCheck = { name: SqlCopyName; source: string; isInSync: boolean; reason?: string };

/** Whether every copy still matches a tagged template of its source, whitespace aside. */
export function checkSqlCopies(): SqlCopyCheck[] {
  return (Object.keys(SQL_COPIES) as SqlCopyName[]).map((name) => {
    const source = SQL_COPIES[name];
    const path = join(PROJECT_ROOT, source);
    if (!existsSync(path)) return { name, source, isInSync: false, reason: "the source file is gone" };
    const templates = [...readFileSync(path, "utf8").matchAll(TAGGED_SQL)].map((match) => normalise(match[1] ?? ""));
    const copy = normalise(readCopy(name));
    return templates.includes(copy)
      ? { name, source, isInSync: true }
      : { name, source, isInSync: false, reason: `no $queryRaw/$executeRaw/sql template in ${source} matches bench/lib/sql/${name}.sql any more` };
  });
}
