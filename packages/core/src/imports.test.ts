import { describe, expect, it } from 'vitest';
import {
  checkImportRows,
  checkImportRowsInSteps,
  guessImportMapping,
  type ImportCheckContext,
  ImportError,
  intervalImportIssues,
  mapImportRows,
  parseImportDate,
  parseImportDateTime,
} from './imports.js';

const ctx: ImportCheckContext = {
  dateFormat: 'DD.MM.YYYY',
  today: '2026-06-15',
  units: [
    { id: 1, n: 'Truck' },
    { id: 2, n: 'truck' },
    { id: 3, n: 'Van' },
    { id: 4, n: 'Van' },
  ],
  fleetId: 9,
  intervalNames: ['Oil'],
  lineItems: [{ n: 'Filter', t: 2 }],
};
const keys = (r: ReturnType<typeof checkImportRows>) => r.issues.map((i) => `${i.row}.${i.field}:${i.key}`);

describe('dates (spec §5 "Dates and times")', () => {
  it('reads each format and ISO text', () => {
    expect(parseImportDate('05.03.2026', 'DD.MM.YYYY')).toEqual({ day: '2026-03-05' });
    expect(parseImportDate('03-05-2026', 'MM-DD-YYYY')).toEqual({ day: '2026-03-05' });
    expect(parseImportDate('05/03/2026', 'DD/MM/YYYY')).toEqual({ day: '2026-03-05' });
    expect(parseImportDate('5 Mar 2026', 'DD MMM YYYY')).toEqual({ day: '2026-03-05' });
    expect(parseImportDate('2026-03-05', 'DD.MM.YYYY')).toEqual({ day: '2026-03-05' });
  });
  it('month must be 1-12; the day must exist', () => {
    expect(parseImportDate('05.13.2026', 'DD.MM.YYYY')).toEqual({ error: ImportError.month });
    expect(parseImportDate('05.00.2026', 'DD.MM.YYYY')).toEqual({ error: ImportError.month });
    expect(parseImportDate('30.02.2026', 'DD.MM.YYYY')).toEqual({ error: ImportError.date });
    expect(parseImportDate('2026/03/05', 'DD.MM.YYYY')).toEqual({ error: ImportError.date });
  });
  it('reads an optional time', () => {
    expect(parseImportDateTime('05.03.2026 7:30', 'DD.MM.YYYY')).toEqual({
      at: '2026-03-05 07:30:00',
      day: '2026-03-05',
    });
    expect(parseImportDateTime('05.03.2026 25:00', 'DD.MM.YYYY')).toEqual({ error: ImportError.date });
  });
});

describe('import: services (spec §5)', () => {
  const row = { unit: 'Truck', name: 'Brakes', start_date: '01.06.2026', end_date: '02.06.2026' };
  it('builds a closed service from a good row', () => {
    const r = checkImportRows('services', [{ ...row, mileage: '1200', total_cost: '12.5' }], ctx);
    expect(r.issues).toEqual([]);
    expect(r.payloads).toEqual([
      {
        kind: 'services',
        rows: [0],
        data: {
          t: 'u',
          uid: 1,
          f: 8,
          n: 'Brakes',
          start_date: '2026-06-01',
          end_date: '2026-06-02',
          mileage: 1200,
          total_cost: '12.5',
        },
      },
    ]);
  });
  it('the unit must exist; names are case-sensitive; several matches assign all', () => {
    expect(keys(checkImportRows('services', [{ ...row, unit: 'TRUCK' }], ctx))).toEqual([
      `0.unit:${ImportError.unit}`,
    ]);
    const r = checkImportRows('services', [{ ...row, unit: 'Van' }], ctx);
    expect(r.payloads.map((p) => (p.data as { uid: number }).uid)).toEqual([3, 4]);
  });
  it('end not before start, neither after today, month 1-12', () => {
    expect(keys(checkImportRows('services', [{ ...row, end_date: '31.05.2026' }], ctx))).toEqual([
      `0.end_date:${ImportError.endBeforeStart}`,
    ]);
    expect(
      keys(checkImportRows('services', [{ ...row, start_date: '16.06.2026', end_date: '' }], ctx)),
    ).toEqual([`0.start_date:${ImportError.future}`]);
    expect(keys(checkImportRows('services', [{ ...row, end_date: '01.13.2026' }], ctx))).toEqual([
      `0.end_date:${ImportError.month}`,
    ]);
  });
  it('total cost is an integer or a decimal with a dot; counters are integers', () => {
    const bad = checkImportRows(
      'services',
      [{ ...row, total_cost: '12,5', mileage: '1.5', engine_hours: '-3' }],
      ctx,
    );
    expect(keys(bad)).toEqual([
      `0.mileage:${ImportError.integer}`,
      `0.engine_hours:${ImportError.integer}`,
      `0.total_cost:${ImportError.decimal}`,
    ]);
    expect(bad.payloads).toEqual([]);
    expect(keys(checkImportRows('services', [{ ...row, total_cost: '7' }], ctx))).toEqual([]);
    expect(keys(checkImportRows('services', [{ ...row, mileage: '4294967296' }], ctx))).toEqual([
      `0.mileage:${ImportError.integer}`,
    ]);
  });
  it('required columns and the string limit', () => {
    expect(keys(checkImportRows('services', [{ unit: 'Truck', name: 'x'.repeat(129) }], ctx))).toEqual([
      `0.name:${ImportError.tooLong}`,
    ]);
    expect(keys(checkImportRows('services', [{ name: 'A' }], ctx))).toEqual([
      `0.unit:${ImportError.required}`,
    ]);
  });
  it('a row without dates is Due, with a start only In progress', () => {
    const r = checkImportRows(
      'services',
      [
        { unit: 'Truck', name: 'A' },
        { ...row, end_date: '' },
      ],
      ctx,
    );
    expect(r.payloads.map((p) => (p.data as { f: number }).f)).toEqual([1, 2]);
  });
});

describe('import: intervals (spec §5)', () => {
  it('builds one interval per name with every row’s units', () => {
    const r = checkImportRows(
      'intervals',
      [
        { name: 'Tyres', unit: 'Truck', time_frequency: '6', time_unit: 'months', last_date: '01.01.2026' },
        { name: 'tyres', unit: 'Van', time_frequency: '6' },
      ],
      ctx,
    );
    expect(r.issues).toEqual([]);
    expect(r.payloads).toHaveLength(1);
    expect(r.payloads[0]?.rows).toEqual([0, 1]);
    expect(r.payloads[0]?.data).toMatchObject({ n: 'Tyres', de: 1, dd: 6, du: 'm', cnme: 0 });
    const data = r.payloads[0]?.data as { u: { id: number }[] } | undefined;
    expect(data?.u.map((u) => u.id)).toEqual([1, 3, 4]);
  });
  it('time frequency at most three digits; integers; a frequency; last date not after today', () => {
    const r = checkImportRows(
      'intervals',
      [
        { name: 'A', time_frequency: '1000' },
        { name: 'B', mileage_frequency: '10.5' },
        { name: 'C' },
        { name: 'D', mileage_frequency: '5000', unit: 'Truck', last_date: '16.06.2026' },
        { name: 'oil', mileage_frequency: '5000' },
        { name: 'E', time_frequency: '2', time_unit: 'fortnight' },
      ],
      ctx,
    );
    expect(keys(r)).toEqual([
      `0.time_frequency:${ImportError.timeFrequency}`,
      `1.mileage_frequency:${ImportError.integer}`,
      `1.mileage_frequency:${ImportError.noFrequency}`,
      `2.mileage_frequency:${ImportError.noFrequency}`,
      `3.last_date:${ImportError.future}`,
      `4.name:${ImportError.duplicate}`,
      `5.time_unit:${ImportError.timeUnit}`,
    ]);
  });
});

describe('import: intervals, typed rows (spec §5; the §7 route uses the same rules)', () => {
  const rules = { today: '2026-06-15', tz: 0, intervalNames: ['Oil'], objects: new Set(['u:1', 'd:7']) };
  it('accepts a good row, objects by type', () => {
    const rows = [
      {
        n: 'Belts',
        cnme: 1 as const,
        cnmd: 9000,
        u: [
          { id: 1, t: 'u' as const },
          { id: 7, t: 'd' as const },
        ],
      },
    ];
    expect(intervalImportIssues(rows, rules)).toEqual([]);
  });
  it('flags what the preview flags, with the typed path', () => {
    const found = intervalImportIssues(
      [
        { n: 'OIL', de: 1, dd: 3 },
        {
          n: 'Brakes',
          de: 1,
          dd: 3,
          u: [
            { id: 2, t: 'u' },
            { id: 1, t: 'u', ltm: '2026-06-16' },
          ],
        },
        { n: 'Brakes', cnme: 0, cnmd: 100 },
        { n: 'Lights', de: 1, dd: 1, u: [{ id: 1, t: 'u', ltm: '2026-13-01' }] },
        { n: 'Wipers', de: 1, dd: 1, u: [{ id: 1, t: 'u', ltm: 1_781_654_400 }] },
      ],
      rules,
    );
    expect(found.map((i) => `${i.row}.${i.path}.${i.field}:${i.key}`)).toEqual([
      `0.n.name:${ImportError.duplicate}`,
      `1.u.0.id.unit:${ImportError.unit}`,
      `1.u.1.ltm.last_date:${ImportError.future}`,
      `2.n.name:${ImportError.duplicate}`,
      `2.cnmd.mileage_frequency:${ImportError.noFrequency}`,
      `3.u.0.ltm.last_date:${ImportError.month}`,
      `4.u.0.ltm.last_date:${ImportError.future}`,
    ]);
  });
});

describe('checking in steps', () => {
  it('gives the same result and reports every step up to the last row', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ unit: i === 5 ? 'Nope' : 'Truck', name: `S${i}` }));
    const steps: number[] = [];
    const stepped = await checkImportRowsInSteps('services', rows, ctx, (n) => void steps.push(n), 3);
    expect(steps).toEqual([3, 6, 7]);
    expect(stepped).toEqual(checkImportRows('services', rows, ctx));
    expect(keys(stepped)).toEqual([`5.unit:${ImportError.unit}`]);
    const good = rows.map((r) => ({ ...r, unit: 'Van' }));
    const built = await checkImportRowsInSteps('services', good, ctx, () => undefined, 3);
    expect(built).toEqual(checkImportRows('services', good, ctx));
    expect(built.payloads.map((p) => p.rows[0])).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    const fuel = good.map((r) => ({ unit: r.unit, date: '01.06.2026', volume: '10', price: '1.5' }));
    const fuelBuilt = await checkImportRowsInSteps('fuelfillings', fuel, ctx, () => undefined, 2);
    expect(fuelBuilt).toEqual(checkImportRows('fuelfillings', fuel, ctx));
    expect(fuelBuilt.payloads).toHaveLength(14);
  });
});

describe('import: fuel fillings', () => {
  it('needs the price or the total', () => {
    expect(
      keys(checkImportRows('fuelfillings', [{ unit: 'Truck', date: '01.06.2026', volume: '5' }], ctx)),
    ).toEqual([`0.price:${ImportError.priceOrTotal}`]);
  });
  it('reads date and time, positive volume', () => {
    const ok = checkImportRows(
      'fuelfillings',
      [{ unit: 'Truck', date: '01.06.2026 08:00', volume: '40.5', total_cost: '60' }],
      ctx,
    );
    expect(ok.payloads[0]?.data).toMatchObject({ uid: 1, date: '2026-06-01 08:00:00', volume: '40.5' });
    expect(
      keys(
        checkImportRows(
          'fuelfillings',
          [{ unit: 'Truck', date: '01.06.2026', volume: '0', price: '1.5' }],
          ctx,
        ),
      ),
    ).toEqual([`0.volume:${ImportError.positive}`]);
  });
});

describe('import: line items (spec §5)', () => {
  it('type labour or part, case-insensitive; cost a decimal with a dot', () => {
    const r = checkImportRows(
      'lineitems',
      [
        { name: 'Oil', type: 'LABOUR', cost: '10' },
        { name: 'Pads', type: 'Part', cost: '3.25' },
        { name: 'X', type: 'fuel', cost: '1,5' },
      ],
      ctx,
    );
    expect(keys(r)).toEqual([`2.type:${ImportError.lineType}`, `2.cost:${ImportError.decimal}`]);
    const ok = checkImportRows('lineitems', [{ name: 'Oil', type: 'labour', cost: '10' }], ctx);
    expect(ok.payloads[0]?.data).toEqual({ fid: 9, n: 'Oil', t: 1, c: '10' });
  });
  it('no existing item with the same name and type, nor twice in the file', () => {
    const r = checkImportRows(
      'lineitems',
      [
        { name: 'filter', type: 'part', cost: '1' },
        { name: 'Filter', type: 'labour', cost: '1' },
        { name: 'Belt', type: 'part', cost: '1' },
        { name: 'BELT', type: 'part', cost: '2' },
      ],
      ctx,
    );
    expect(keys(r)).toEqual([`0.name:${ImportError.duplicate}`, `3.name:${ImportError.duplicate}`]);
  });
});

describe('mapping', () => {
  it('guesses from remembered titles, keys and English titles', () => {
    const m = guessImportMapping('services', ['Vehicle', 'Service', 'Total cost', 'x'], { unit: 'Vehicle' });
    expect(m).toEqual({ unit: 0, name: 1, total_cost: 2 });
  });
  it("reads a report export's titles: Object is the unit, Cost the total cost, in any language", () => {
    expect(guessImportMapping('services', ['Object', 'Service', 'Date', 'Mileage', 'Cost'])).toEqual({
      unit: 0,
      name: 1,
      start_date: 2,
      mileage: 3,
      total_cost: 4,
    });
    expect(guessImportMapping('services', ['Objekt', 'Bezeichnung', 'Kosten'])).toEqual({
      unit: 0,
      name: 1,
      total_cost: 2,
    });
    expect(guessImportMapping('fuelfillings', ['Объект', 'Дата', 'Стоимость'])).toMatchObject({
      unit: 0,
      date: 1,
    });
  });
  it('reads LubeLogger and Fleetio exports after our own titles, each column once', () => {
    // LubeLogger's fuel records.
    expect(
      guessImportMapping('fuelfillings', [
        'Date',
        'Odometer',
        'FuelConsumed',
        'Cost',
        'FuelEconomy',
        'Notes',
      ]),
    ).toEqual({ date: 0, mileage: 1, volume: 2, total_cost: 3, description: 5 });
    // Fleetio's service entries.
    expect(
      guessImportMapping('services', ['Vehicle', 'Completed At', 'Meter', 'Service Tasks', 'Total']),
    ).toEqual({ unit: 0, start_date: 1, mileage: 2, name: 3, total_cost: 4 });
    // Our own file with both: Name stays the name, Description the description.
    expect(guessImportMapping('services', ['Unit', 'Name', 'Description', 'Notes'])).toEqual({
      unit: 0,
      name: 1,
      description: 2,
    });
  });
  it('maps rows, skipping the header and empty lines', () => {
    expect(
      mapImportRows(
        [
          ['u', 'n'],
          ['A', 'B'],
          ['', ' '],
        ],
        { unit: 0, name: 1 },
        true,
      ),
    ).toEqual([{ unit: 'A', name: 'B' }]);
  });
});
