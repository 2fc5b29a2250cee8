import Papa from "papaparse";
import { z } from "@/lib/shared/zod";

import { LIMITS } from "./limits";
import type { CsvColumn, CsvFileError, CsvLineError } from "./schemas/enrollments";
import { isStorableText } from "./text";

/**
 * A candidates CSV read and checked line by line, before any database is asked (docs/admin-api.md,
 * "Candidates CSV"). Pure: the server adds what only the database knows (already enrolled, conflicts).
 */
export type ParsedCandidateLine = {
  line: number;
  name: string;
  /** Lower-cased when valid; as written otherwise. */
  email: string;
  extraSeconds: number | null;
  errors: CsvLineError[];
};

export type ParsedCandidatesCsv = {
  delimiter: "," | ";";
  fileErrors: CsvFileError[];
  lines: ParsedCandidateLine[];
};

const COLUMNS: readonly CsvColumn[] = ["name", "email", "extra_minutes"];
/**
 * Columns read past: the join-links export writes `join_url` after the three it shares with the import, so its
 * file (a resit, the same class in another exam) imports as it is. A link is never taken from a file.
 */
const IGNORED_COLUMNS: readonly string[] = ["join_url"];
const MAX_NAME_CHARS = 200;
const MAX_EXTRA_MINUTES = Math.floor(LIMITS.maxExtraSeconds / 60);
const EmailSchema = z.email().max(320);

/**
 * Stored extra time as the whole minutes the CSV import, the export and the candidates page speak. The JSON
 * API (and a proctor's extension) may store any number of seconds; a part minute is rounded up, so an
 * exported file imported again never shortens an accommodation. `LIMITS.maxExtraSeconds` is whole minutes,
 * so the result stays within what the import accepts.
 */
export function extraMinutesOf(extraSeconds: number): number {
  return Math.ceil(extraSeconds / 60);
}

/**
 * The delimiter is read from the header line, which is known text: whichever of `;` and `,` it has more
 * of. Guessing from the data instead is fooled by names with commas in them.
 */
function delimiterOf(text: string): "," | ";" {
  const firstLine = text.trimStart().split(/\r?\n/, 1)[0] ?? "";
  const count = (char: string) => firstLine.split(char).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

function isBlank(fields: string[]): boolean {
  return fields.every((field) => field.trim() === "");
}

function readHeader(fields: string[]): { columns: (CsvColumn | null)[] } | CsvFileError {
  const names = fields.map((field) =>
    field
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, "_"),
  );
  if (!names.includes("name") && !names.includes("email")) {
    return {
      code: "header_missing",
      message: "The first line must be the header: name,email,extra_minutes.",
    };
  }
  const unknown = names.filter((name) => !COLUMNS.includes(name as CsvColumn) && !IGNORED_COLUMNS.includes(name));
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  const missing = (["name", "email"] as const).filter((name) => !names.includes(name));
  if (unknown.length > 0 || repeated.length > 0 || missing.length > 0) {
    const problem = [...unknown, ...repeated, ...missing.map((name) => `(${name} missing)`)].join(", ");
    return {
      code: "header_invalid",
      message: `The header must name the columns name, email and (optionally) extra_minutes, once each; found: ${problem}.`,
      params: { found: problem },
    };
  }
  return { columns: names.map((name) => (IGNORED_COLUMNS.includes(name) ? null : (name as CsvColumn))) };
}

function checkName(raw: string): CsvLineError | null {
  if (raw === "") return { code: "name_missing", column: "name", message: "The name is missing." };
  if (raw.length > MAX_NAME_CHARS) {
    return {
      code: "name_too_long",
      column: "name",
      message: `The name is longer than ${MAX_NAME_CHARS} characters.`,
      params: { max: MAX_NAME_CHARS },
    };
  }
  if (!isStorableText(raw)) {
    return { code: "name_unstorable", column: "name", message: "The name contains a character that cannot be saved." };
  }
  return null;
}

function checkExtraMinutes(raw: string): { seconds: number } | CsvLineError {
  if (raw === "") return { seconds: 0 };
  if (!/^\d+$/.test(raw)) {
    return {
      code: "extra_minutes_invalid",
      column: "extra_minutes",
      message: `Extra minutes must be a whole number, 0 or more; found "${raw}".`,
      params: { value: raw },
    };
  }
  const minutes = Number(raw);
  if (minutes > MAX_EXTRA_MINUTES) {
    return {
      code: "extra_minutes_too_large",
      column: "extra_minutes",
      message: `Extra minutes can be at most ${MAX_EXTRA_MINUTES}.`,
      params: { max: MAX_EXTRA_MINUTES },
    };
  }
  return { seconds: minutes * 60 };
}

/**
 * Reads `name,email,extra_minutes` (header required, columns in any order, extra_minutes optional)
 * separated by `,` or `;`, quoted fields (RFC 4180) and any line ending. The text has no byte order mark
 * (readCsvBody drops it). Blank lines are skipped but counted, so every line number is the one an editor
 * shows. An email repeated in the file is an error on each later line, naming the first.
 */
export function parseCandidatesCsv(text: string, maxLines: number = LIMITS.maxCsvLines): ParsedCandidatesCsv {
  const delimiter = delimiterOf(text);
  const fileErrors: CsvFileError[] = [];
  const lines: ParsedCandidateLine[] = [];
  let header: (CsvColumn | null)[] | null = null;
  let isStopped = false;

  // Physical line numbers: the newlines before the start of each record, counted once, as the parse goes.
  let rowStart = 0;
  let newlinesBefore = 0;
  const firstLineOfEmail = new Map<string, number>();

  Papa.parse<string[]>(text, {
    delimiter,
    skipEmptyLines: false,
    step: (result, parser) => {
      const lineNumber = 1 + newlinesBefore;
      const end = Math.min(result.meta.cursor, text.length);
      for (let i = rowStart; i < end; i++) if (text.charCodeAt(i) === 10) newlinesBefore++;
      rowStart = end;
      const fields = result.data;
      if (isStopped || isBlank(fields)) return;

      if (header === null) {
        const read = readHeader(fields);
        if ("code" in read) {
          fileErrors.push(read);
          isStopped = true;
          parser.abort();
          return;
        }
        header = read.columns;
        return;
      }

      if (lines.length >= maxLines) {
        fileErrors.push({
          code: "too_many_lines",
          message: `The file has more than ${maxLines} candidates; split it.`,
          params: { max: maxLines },
        });
        isStopped = true;
        parser.abort();
        return;
      }

      const errors: CsvLineError[] = [];
      if (result.errors.length > 0) {
        errors.push({ code: "quotes", message: "A quoted field is not closed or has text after its closing quote." });
      }
      if (fields.length !== header.length) {
        errors.push({
          code: "fields",
          message: `This line has ${fields.length} fields; the header has ${header.length}.`,
          params: { found: fields.length, expected: header.length },
        });
      }
      const value = (column: CsvColumn) => {
        const index = header!.indexOf(column);
        return index === -1 ? "" : (fields[index] ?? "").trim();
      };
      const name = value("name");
      const rawEmail = value("email");
      const nameError = checkName(name);
      if (nameError) errors.push(nameError);

      const isEmailValid = EmailSchema.safeParse(rawEmail).success;
      const email = isEmailValid ? rawEmail.toLowerCase() : rawEmail;
      if (!isEmailValid) {
        errors.push({
          code: "email_invalid",
          column: "email",
          message: rawEmail === "" ? "The email is missing." : `"${rawEmail}" is not an email address.`,
          params: { value: rawEmail },
        });
      }
      const extra = checkExtraMinutes(value("extra_minutes"));
      if ("code" in extra) errors.push(extra);

      if (isEmailValid) {
        const first = firstLineOfEmail.get(email);
        if (first === undefined) firstLineOfEmail.set(email, lineNumber);
        else {
          errors.push({
            code: "duplicate_in_file",
            column: "email",
            message: `The same email is already on line ${first}.`,
            params: { line: first },
          });
        }
      }
      lines.push({ line: lineNumber, name, email, extraSeconds: "code" in extra ? null : extra.seconds, errors });
    },
  });

  if (lines.length === 0 && fileErrors.length === 0) {
    fileErrors.push({
      code: "empty",
      message: "The file is empty: it needs a header line and one line per candidate.",
    });
  }
  return { delimiter, fileErrors, lines };
}
