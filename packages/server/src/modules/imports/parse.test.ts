import ExcelJS from 'exceljs';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import {
  detectDelimiter,
  detectEncoding,
  FileError,
  FileRefused,
  parseCsv,
  parseImportFile,
} from './parse.js';

/** Reading import files: every input ends in cells or a FileRefused, never anything else. */
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
  it('tells windows-1251 Cyrillic from windows-1252 Western text and UTF-8, with or without a BOM', () => {
    // A fuel file of a Russian fleet with English column titles: few Cyrillic letters among Latin ones.
    const fuel =
      'unit,date,volume,price,total_cost,mileage,fuel_type,station,description\n' +
      'Грузовик 1,2024-05-01 10:00,50,1.5,75,1200,ДТ,Лукойл,\n';
    expect(detectEncoding(iconv.encode(fuel, 'win1251'))).toBe('windows-1251');
    expect(detectEncoding(iconv.encode('Unit;Name\nГрузовик;Замена масла\n', 'win1251'))).toBe(
      'windows-1251',
    );
    expect(detectEncoding(iconv.encode('Одиниця;Назва\nВантажівка;Заміна оливи\n', 'win1251'))).toBe(
      'windows-1251',
    );
    expect(detectEncoding(iconv.encode('name,type,cost\nМаслен филтър,2,12.50\n', 'win1251'))).toBe(
      'windows-1251',
    );
    expect(
      detectEncoding(iconv.encode('name,type,cost\nФилтер уља,2,12.50\nЗамена кочница,1,40\n', 'win1251')),
    ).toBe('windows-1251');
    const western =
      'name,type,cost\nVidange moteur,1,50\nRéparation pare-brise,1,120\nÖlwechsel für Straße,2,12\n';
    expect(detectEncoding(iconv.encode(western, 'win1252'))).toBe('windows-1252');
    expect(detectEncoding(iconv.encode('Revisión de frenos y dirección,2,80\n', 'win1252'))).toBe(
      'windows-1252',
    );
    expect(detectEncoding(Buffer.from(fuel, 'utf8'))).toBe('utf-8');
    expect(detectEncoding(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(fuel, 'utf8')]))).toBe(
      'utf-8',
    );
    expect(detectEncoding(Buffer.from('plain,ascii\n1,2\n'))).toBe('utf-8');
  });
  it('decodes a windows-1251 file into its Cyrillic cells', async () => {
    const reply = await parseImportFile(iconv.encode('unit;name\nГрузовик 1;Замена масла\n', 'win1251'), {});
    expect(reply.encoding).toBe('windows-1251');
    expect(reply.rows).toEqual([
      ['unit', 'name'],
      ['Грузовик 1', 'Замена масла'],
    ]);
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
