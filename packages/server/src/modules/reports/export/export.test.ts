import { describe, expect, it } from 'vitest';
import { formatterFor } from '../../../i18n/formatter.js';
import { reportCsv } from './csv.js';
import { reportPdf, scriptRuns } from './pdf.js';
import { ExportAborted, type ExportTable } from './table.js';
import { excelDateFormat, reportXlsx, sheetName } from './xlsx.js';

/** A small table as exportTable makes it (export/table.ts), for the exporters alone. */
function table(rows: number): ExportTable {
  return {
    title: 'Services performed',
    meta: [['Fleet', 'Demo']],
    columns: [
      { key: 'date', kind: 'date', title: 'Date', numeric: false },
      { key: 'object', kind: 'text', title: 'Object', numeric: false },
      { key: 'services_cost', kind: 'money', title: 'Services cost, EUR', numeric: true },
    ],
    rows: Array.from({ length: rows }, (_, i) => ['2025-03-01', `Unit ${i}`, i + 0.5]),
    totals: [null, null, 12.5],
    totalLabel: 'Total',
    note: null,
    f: formatterFor({ lang: 'en' }),
    fileName: (format) => `x.${format}`,
  };
}

describe('report exporters', () => {
  it('splits text into script runs, Thai in runs of its own (NFKC: sara am as nikhahit + sara aa)', () => {
    expect(scriptRuns('Oil น้ำมัน 5 l')).toEqual([
      { text: 'Oil ', thai: false },
      { text: 'น้ํามัน', thai: true },
      { text: ' 5 l', thai: false },
    ]);
    expect(scriptRuns('Пробег Χιλιόμετρα')).toEqual([{ text: 'Пробег Χιλιόμετρα', thai: false }]);
  });

  it('names sheets as Excel allows and turns the reader’s date format into Excel’s', () => {
    expect(sheetName('Costs: a/b [x]?')).toBe('Costs  a b  x');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(excelDateFormat('DD.MM.YYYY')).toBe('dd.mm.yyyy');
    expect(excelDateFormat('DD MMM YYYY')).toBe('dd mmm yyyy');
    expect(excelDateFormat('MM-DD-YYYY')).toBe('mm-dd-yyyy');
  });

  it('writes the totals word in the first cell of the totals row and dates in the reader’s format', () => {
    const text = reportCsv(table(2)).toString('utf8');
    expect(text.split('\r\n')).toEqual([
      '\ufeffDate,Object,"Services cost, EUR"',
      '01.03.2025,Unit 0,0.5',
      '01.03.2025,Unit 1,1.5',
      'Total,,12.5',
      '',
    ]);
  });

  it('stops generating when the request was aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(() => reportCsv(table(10), controller.signal)).toThrow(ExportAborted);
    await expect(reportXlsx(table(10), 'DD.MM.YYYY', controller.signal)).rejects.toThrow(ExportAborted);
    await expect(reportPdf(table(10), controller.signal)).rejects.toThrow(ExportAborted);
    // Not aborted: a file.
    expect((await reportPdf(table(3))).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
