/**
 * CSV conventions of every export (the data table's CSV, the reports' CSV export):
 * RFC 4180 (comma, CRLF, fields with a comma, quote or line break quoted, quotes doubled), UTF-8 with
 * a byte order mark so that spreadsheets read the text as UTF-8, and cells a spreadsheet would run as
 * formulas neutralised (CSV injection).
 */

/** The byte order mark a CSV file starts with. */
export const CSV_BOM = '\ufeff';

/** A plain number as a table shows it ('-12', '1 234.5'): safe in a spreadsheet, left as it is. */
const PLAIN_NUMBER = /^[+-]?[\d ]+(?:\.\d+)?$/;

/**
 * A cell a spreadsheet would run as a formula (text from users starting with =, +, -, @, a tab or a
 * carriage return) gets a leading apostrophe, so that it opens as the text it is; plain numbers stay
 * as they are.
 */
export function csvSafe(text: string): string {
  if (!/^[=+\-@\t\r]/.test(text) || PLAIN_NUMBER.test(text)) return text;
  return `'${text}`;
}

/** One field, RFC 4180: quoted when it holds a comma, a quote or a line break (quotes doubled). */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record: each cell neutralised and quoted as needed, CRLF at the end. */
export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map((c) => (c === null || c === undefined ? '' : csvField(csvSafe(String(c))))).join(',')}\r\n`;
}
