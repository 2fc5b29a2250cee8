import Papa from "papaparse";

/**
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) is kept as text with a
 * leading apostrophe. Every CSV this application writes passes its text cells through here (`csvLines`).
 */
export function inertCsvCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
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
