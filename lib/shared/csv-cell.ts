import Papa from "papaparse";

/**
 * What a spreadsheet may run as a formula: a cell starting with tab or CR, or with =, +, - or @ — also after
 * leading spaces (some spreadsheets trim them on import) and in their full-width forms ＝ ＋ － ＠, which a
 * Chinese or Japanese input method types and some spreadsheets read as the ASCII signs.
 */
const FORMULA_START = /^(?:[\t\r]|[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;

/**
 * A cell a spreadsheet would run as a formula (FORMULA_START) is kept as text with a leading apostrophe. Every CSV
 * this application writes passes its text cells through here (`csvLines`).
 */
export function inertCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** What every CSV file this application writes starts with: spreadsheets then read UTF-8 (Chinese names) right. */
export const CSV_BYTE_ORDER_MARK = "\uFEFF";

/**
 * Rows as CSV lines the way every file this application writes them: each cell made inert (`inertCsvCell`),
 * quoted where RFC 4180 needs it, each line ending in CRLF. "" for no rows.
 */
export function csvLines(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return "";
  return `${Papa.unparse(
    rows.map((row) => row.map(inertCsvCell)),
    { newline: "\r\n" },
  )}\r\n`;
}
