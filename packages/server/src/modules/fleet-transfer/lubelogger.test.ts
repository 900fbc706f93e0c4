import { describe, expect, it } from 'vitest';
import { LUBE_FUEL, LUBE_SERVICE } from './fixtures/lubelogger.js';
import { parseAmount, parseCsv, parseDate, readFile, toDocument } from './lubelogger.js';

describe('LubeLogger CSV reading', () => {
  it('parses RFC 4180 records with quotes, CRLF, a BOM and semicolons', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, ""y""",2\n\n')).toEqual([
      ['a', 'b'],
      ['x, "y"', '2'],
    ]);
    expect(parseCsv('a;b\n1;2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseCsv('"multi\nline",1')).toEqual([['multi\nline', '1']]);
  });
  it('reads amounts in thousandths', () => {
    expect(parseAmount('20.60')).toBe(20_600);
    expect(parseAmount('$1,234.50')).toBe(1_234_500);
    expect(parseAmount('1.234,5')).toBe(1_234_500);
    expect(parseAmount('20,6')).toBe(20_600);
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('abc')).toBeNull();
    expect(parseAmount('1.2.3')).toBeUndefined();
  });
  it('reads dates by the chosen order, ISO always', () => {
    expect(parseDate('5/8/2020', 'MDY')).toBe('2020-05-08');
    expect(parseDate('5/8/2020', 'DMY')).toBe('2020-08-05');
    expect(parseDate('2020-05-08', 'DMY')).toBe('2020-05-08');
    expect(parseDate('31/02/2020', 'DMY')).toBeUndefined();
    expect(parseDate('13/13/2020', 'MDY')).toBeUndefined();
    expect(parseDate('', 'MDY')).toBeNull();
  });
  it('maps records and reports bad rows and missing columns', () => {
    const ok = readFile({ name: 's.csv', kind: 'service', vehicle: 'Car', content: LUBE_SERVICE }, 'MDY');
    expect(ok.map((r) => [r.date, r.odometer, r.name, r.cost, r.error])).toEqual([
      ['2024-01-15', 45000, 'Oil change', 89_900, null],
      ['2024-06-02', 52000, 'Brake pads', 1_234_500, null],
    ]);
    expect(ok[0]!.notes).toBe('Synthetic, 5 l\nTags: engine');
    const bad = readFile(
      { name: 'f.csv', kind: 'fuel', vehicle: 'Car', content: 'Date,FuelConsumed\n99/99/2024,x' },
      'MDY',
    );
    expect(bad[0]!.error).toMatch(/Invalid date/);
    expect(bad[0]!.error).toMatch(/Invalid fuel volume/);
    const missing = readFile(
      { name: 'f.csv', kind: 'fuel', vehicle: 'Car', content: 'Date,Odometer\n1/1/2024,5' },
      'MDY',
    );
    expect(missing).toEqual([expect.objectContaining({ line: 1, error: 'Missing columns: fuelconsumed' })]);
    const empty = readFile({ name: 'e.csv', kind: 'odometer', vehicle: 'Car', content: '' }, 'MDY');
    expect(empty[0]!.error).toBe('The file is empty');
  });
  it('builds a document: closed services, fillings, units at the highest odometer, miles converted', () => {
    const records = [
      ...readFile({ name: 's.csv', kind: 'service', vehicle: 'Car', content: LUBE_SERVICE }, 'MDY'),
      ...readFile({ name: 'f.csv', kind: 'fuel', vehicle: 'Car', content: LUBE_FUEL }, 'MDY'),
    ];
    const doc = toDocument(records, ['Car'], { tz: 0, ms: 1, fm: 2 }, () => 1_700_000_000, 1_700_000_000);
    expect(doc.archive).toHaveLength(2);
    expect(doc.archive[0]).toMatchObject({ f: 8, object_type: 'u', object_id: 1, manual_cost: 89_900 });
    expect(doc.fuel_fillings[0]).toMatchObject({
      volume: 48_331,
      volume_unit: 2,
      total_cost: 76_240,
      full_tank: 1,
    });
    expect(doc.units[0]!.mileage).toBeCloseTo(52000 * 1.609344, 3);
  });
});
