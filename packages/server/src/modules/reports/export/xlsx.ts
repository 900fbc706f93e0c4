import type { ReportColumnKind } from '@fleetkeep/core';
import ExcelJS from 'exceljs';
import { checkAborted, type ExportTable } from './table.js';

/**
 * The XLSX export (exceljs): one sheet named by the report type in the reader's language, the title and
 * the fleet, period and generation lines above a header row, the rows with numeric cells under number
 * formats and dates as dates (in the reader's date format), a bold totals row, column widths from the
 * content, the header row frozen and filterable.
 */

/** Excel number formats per kind (spec §9: at most 3 decimals; money at least 2). */
const NUM_FMT: Partial<Record<ReportColumnKind, string>> = {
  money: '#,##0.00#',
  number: '#,##0.###',
  count: '#,##0',
  distance: '#,##0.###',
  hours: '#,##0.###',
  volume: '#,##0.###',
  consumption: '#,##0.###',
  consumption_per_hour: '#,##0.###',
  cost_per_distance: '#,##0.00#',
};

/** The reader's date format (core SETTINGS_DATE_FORMATS, dayjs tokens) as an Excel date format. */
export function excelDateFormat(dayjsFormat: string): string {
  return dayjsFormat
    .replace(/YYYY/g, 'yyyy')
    .replace(/MMM/g, 'mmm')
    .replace(/MM/g, 'mm')
    .replace(/DD/g, 'dd');
}

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\. */
export function sheetName(title: string): string {
  return (
    title
      .replace(/[[\]:*?/\\]/g, ' ')
      .slice(0, 31)
      .trim() || 'Report'
  );
}

const asDate = (text: string) => new Date(`${text}T00:00:00Z`);

export async function reportXlsx(
  table: ExportTable,
  dateFormat: string,
  signal?: AbortSignal,
): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'Fleetkeep';
  const sheet = book.addWorksheet(sheetName(table.title));
  const dateFmt = excelDateFormat(dateFormat);
  sheet.addRow([table.title]).font = { bold: true, size: 14 };
  for (const [label, text] of table.meta) sheet.addRow([label, text]);
  sheet.addRow([]);
  const header = sheet.addRow(table.columns.map((c) => c.title));
  header.font = { bold: true };
  const headerRow = header.number;
  const widths = table.columns.map((c) => Math.min(Math.max(c.title.length, 8), 40));
  const put = (values: (string | number | null)[], total: boolean) => {
    const row = sheet.addRow(
      values.map((v, j) => {
        // The first column never holds a total (contracts REPORT_TOTALS): it carries the word.
        if (total && j === 0) return table.totalLabel;
        return v !== null && table.columns[j]!.kind === 'date' && typeof v === 'string' ? asDate(v) : v;
      }),
    );
    table.columns.forEach((c, j) => {
      const cell = row.getCell(j + 1);
      if (total && j === 0) return;
      if (c.kind === 'date') cell.numFmt = dateFmt;
      else if (NUM_FMT[c.kind]) cell.numFmt = NUM_FMT[c.kind]!;
      if (c.numeric) cell.alignment = { horizontal: 'right' };
      const v = values[j];
      const len = v === null ? 0 : c.kind === 'date' ? dateFmt.length : String(v).length + 2;
      widths[j] = Math.min(Math.max(widths[j]!, len), 60);
    });
    if (total) row.font = { bold: true };
  };
  table.rows.forEach((r, i) => {
    if (i % 500 === 0) checkAborted(signal);
    put(r, false);
  });
  if (table.totals) put(table.totals, true);
  if (table.note) sheet.addRow([table.note]);
  table.columns.forEach((_, j) => {
    sheet.getColumn(j + 1).width = widths[j]! + 2;
  });
  sheet.views = [{ state: 'frozen', ySplit: headerRow }];
  sheet.autoFilter = {
    from: { row: headerRow, column: 1 },
    to: { row: headerRow, column: table.columns.length },
  };
  checkAborted(signal);
  return Buffer.from(await book.xlsx.writeBuffer());
}
