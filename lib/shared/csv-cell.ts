/**
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) is kept as text with a
 * leading apostrophe. Every CSV this application writes passes its text cells through here.
 */
export function inertCsvCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
