import { CSV_BOM, csvLine } from '@fleetkeep/core';
import { checkAborted, type ExportTable, type ExportValue } from './table.js';

/**
 * The CSV export (core csv.ts conventions: UTF-8 with BOM, RFC 4180, formulas neutralised). Titles and
 * words in the reader's language; numbers plain (dot decimal, no group separator) so that a spreadsheet
 * reads them as numbers; dates in the reader's date format. A header row, the rows, the totals row.
 */
export function reportCsv(table: ExportTable, signal?: AbortSignal): Buffer {
  const cell = (kind: string, v: ExportValue) =>
    v !== null && kind === 'date' && typeof v === 'string' ? table.f.day(v) : v;
  const lines = [CSV_BOM, csvLine(table.columns.map((c) => c.title))];
  table.rows.forEach((row, i) => {
    if (i % 500 === 0) checkAborted(signal);
    lines.push(csvLine(row.map((v, j) => cell(table.columns[j]!.kind, v))));
  });
  // The first column never holds a total (contracts REPORT_TOTALS): it carries the word.
  if (table.totals) lines.push(csvLine([table.totalLabel, ...table.totals.slice(1)]));
  return Buffer.from(lines.join(''), 'utf8');
}
