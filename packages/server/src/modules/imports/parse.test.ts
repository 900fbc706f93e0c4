import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  detectDelimiter,
  detectEncoding,
  FileError,
  FileRefused,
  parseCsv,
  parseImportFile,
} from './parse.js';

/** Reading import files (issue 12 item 5): every input ends in cells or a FileRefused, never anything else. */
describe('import file parsing', () => {
  it('reads RFC 4180 CSV', () => {
    expect(parseCsv('a,"b ""c""",d\r\n"x\ny",,\n', ',')).toEqual([
      ['a', 'b "c"', 'd'],
      ['x\ny', '', ''],
    ]);
  });
  it('detects delimiters and encodings', () => {
    expect(detectDelimiter('a;b;c\n1;2;3\n')).toBe(';');
    expect(detectDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(detectDelimiter('"x,y";b\n1;2\n')).toBe(';');
    expect(detectEncoding(Buffer.from('Öl,1', 'utf8'))).toBe('utf-8');
    expect(detectEncoding(Buffer.from('Ölwechsel für Straße,12\n', 'latin1'))).toBe('windows-1252');
    expect(detectEncoding(Buffer.from([0xff, 0xfe, 0x41, 0x00]))).toBe('utf-16le');
  });
  it('stops at the caps', () => {
    expect(() => parseCsv('x,'.repeat(300), ',')).toThrow(FileError.tooManyColumns);
    expect(() => parseCsv('y'.repeat(5000), ',')).toThrow(FileError.cellTooLong);
  });

  const outcome = async (bytes: Buffer, name?: string) => {
    try {
      const r = await parseImportFile(bytes, { name });
      expect(Array.isArray(r.rows)).toBe(true);
      return 'ok';
    } catch (e) {
      expect(e).toBeInstanceOf(FileRefused);
      return (e as FileRefused).key;
    }
  };
  it('fuzzed CSV bytes give cells or a reason (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), async (b) => {
        await outcome(Buffer.from(b));
      }),
      { numRuns: 300 },
    );
  });
  it('fuzzed XLSX files give cells or a reason (fast-check)', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('S');
    sheet.addRow(['unit', 'name', 'cost']);
    for (let i = 0; i < 20; i++) sheet.addRow([`U${i}`, `Service ${i}`, i * 1.5]);
    const valid = Buffer.from(await book.xlsx.writeBuffer());
    expect(await outcome(valid, 'a.xlsx')).toBe('ok');
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ at: fc.nat({ max: valid.length - 1 }), byte: fc.integer({ min: 0, max: 255 }) }),
          {
            minLength: 1,
            maxLength: 20,
          },
        ),
        fc.nat({ max: valid.length }),
        async (flips, cut) => {
          const bytes = Buffer.from(valid);
          for (const f of flips) bytes[f.at] = f.byte;
          await outcome(cut > 100 ? bytes : bytes.subarray(0, cut + 4), 'a.xlsx');
        },
      ),
      { numRuns: 80 },
    );
  }, 60_000);
});
