import { startOfDay, TZ_DST_EUROPE } from '@fleetkeep/core';
import ExcelJS from 'exceljs';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountOf,
  type Client,
  createFleet,
  createUnit,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/**
 * The reports (PRODUCT.md "Reports"; core contracts/reports.ts) over hand-computed fixtures in a fleet
 * of its own: Central European time with daylight saving (the period 2025-03-29…31 crosses the switch
 * of 2025-03-30), miles, US gallons, decimals that must add up exactly. Exports are read back.
 */
describe('reports', () => {
  let t: TestServer;
  let user: Client;
  let userId: number;
  let fleetId: number;
  let otherFleetId: number;
  let u1: number;
  let u2: number;
  let foreignUnit: number;
  let driver: number;
  let interval: number;
  const TZ = 60 | TZ_DST_EUROPE;
  const FROM = '2025-03-29';
  const TO = '2025-03-31';
  /** Start of a fleet day. */
  const dayStart = (text: string) => startOfDay(TZ, Date.parse(`${text}T12:00:00Z`) / 1000);
  const report = (type: string, query = '') =>
    user.get(`/api/fleets/${fleetId}/reports/${type}?from=${FROM}&to=${TO}${query}`);
  const exported = (type: string, format: string, query = '') =>
    fetch(
      `${t.url}/api/fleets/${fleetId}/reports/${type}/export?from=${FROM}&to=${TO}&format=${format}${query}`,
      {
        headers: { authorization: `SSID ${user.ssid}` },
      },
    );
  const setLang = (lang: string) =>
    t.server.ctx.db.kysely
      .updateTable('users')
      .set({ settings: JSON.stringify({ lang, dateFormat: 'DD.MM.YYYY' }) })
      .where('id', '=', userId)
      .execute();

  beforeAll(async () => {
    t = await startTestServer();
    const db = t.server.ctx.db.kysely;
    const accountId = await accountOf(t, 'manager');
    fleetId = await createFleet(t, accountId, 'Reports fleet');
    otherFleetId = t.demo.otherFleetId;
    await db
      .updateTable('fleets')
      .set({ tz: TZ, ms: 1, fm: 2, cur: 'USD' })
      .where('id', '=', fleetId)
      .execute();
    const acl = (
      await db
        .selectFrom('fleet_users')
        .innerJoin('users', 'users.id', 'fleet_users.user_id')
        .select('fleet_users.acl')
        .where('users.name', '=', 'manager')
        .where('fleet_users.fleet_id', '=', t.demo.fleetId)
        .executeTakeFirstOrThrow()
    ).acl;
    userId = await createUser(t, { name: 'reporter', accountId, memberships: [{ fleetId, acl }] });
    user = await t.login('reporter');
    u1 = await createUnit(t, { accountId, fleetId, name: 'Трактор Α' });
    u2 = await createUnit(t, { accountId, fleetId, name: '=SUM(A1)' });
    foreignUnit = await createUnit(t, { accountId, fleetId: otherFleetId, name: 'Foreign' });
    driver = (
      await db
        .insertInto('drivers')
        .values({
          account_id: accountId,
          fleet_id: fleetId,
          name: 'Zoë Driver',
          ds: '',
          c: '',
          cf: '[]',
          ins: 0,
          created_at: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const t0 = Math.floor(Date.now() / 1000);
    interval = (
      await db
        .insertInto('intervals')
        .values({
          fleet_id: fleetId,
          name: 'Oil change',
          description: '',
          cnme: 1,
          cnmd: 1_000_000,
          cnmo: 0,
          cnehe: 0,
          cnehd: 0,
          cneho: 0,
          de: 0,
          dd: 0,
          du: 'd',
          do: 0,
          creator_id: null,
          created_at: t0,
          updated_at: t0,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('assignments')
      .values({
        fleet_id: fleetId,
        interval_id: interval,
        object_type: 'u',
        object_id: u1,
        lcnm: 0,
        lceh: 0,
        ltm: t0,
        cnt: 0,
        created_at: t0,
      })
      .execute();
    const post = async (body: object) => {
      const res = await user.post(`/api/fleets/${fleetId}/services`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    // 1.5 × 10.101 = 15.1515 → 15.152; + 1 × 0.1: 15.252.
    await post({
      t: 'u',
      uid: u1,
      f: 8,
      n: 'Oil service',
      ivid: interval,
      end_date: '2025-03-29',
      li: [
        { n: 'Oil', t: 2, q: '1.5', c: '10.101' },
        { n: 'Labour', t: 1, q: 1, c: '0.1' },
      ],
    });
    // On the switch day.
    await post({ t: 'u', uid: u1, f: 8, n: 'Wash', end_date: '2025-03-30', manual_cost: '0.2' });
    // 0.5 × 10.101 = 5.0505 → 5.051.
    await post({
      t: 'u',
      uid: u2,
      f: 8,
      n: 'Top-up',
      end_date: '2025-03-31',
      li: [{ n: 'Oil', t: 2, q: '0.5', c: '10.101' }],
    });
    await post({ t: 'd', uid: driver, f: 8, n: 'Medical', end_date: '2025-03-30', manual_cost: '0.1' });
    // Outside the period.
    await post({ t: 'u', uid: u1, f: 8, n: 'Later', end_date: '2025-04-05', manual_cost: '100' });
    // Open: planned inside the period (listed), and after it (left out).
    // (A new Due service is planned today or later; the past date is written directly.)
    const tyres = await post({
      t: 'u',
      uid: u2,
      f: 1,
      n: 'Tyres',
      limit_date: '2099-01-01',
      limit_mileage: 8000,
    });
    await db
      .updateTable('services')
      .set({ planned_date: dayStart('2025-03-31') })
      .where('id', '=', tyres.id)
      .execute();
    await post({ t: 'u', uid: u2, f: 1, n: 'Brakes', limit_date: '2099-01-01' });
    // Fuel in US gallons: 00:30 on the switch day (before 02:00) and 00:15 the day after.
    for (const body of [
      { uid: u1, date: '2025-03-30 00:30', volume: '10.5', manual_cost: '0.1' },
      { uid: u1, date: '2025-03-31 00:15', volume: '0.1', manual_cost: '0.2' },
    ]) {
      const res = await user.post(`/api/fleets/${fleetId}/fuel-fillings`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // Counter history: 1000 km before the period, 160.9344 km (100 miles) driven in it.
    await db
      .insertInto('counter_days')
      .values([
        {
          unit_id: u1,
          day: dayStart('2025-03-28'),
          first_mileage: 990,
          last_mileage: 1000,
          first_engine_hours: 0,
          last_engine_hours: 0,
        },
        {
          unit_id: u1,
          day: dayStart('2025-03-29'),
          first_mileage: 1000,
          last_mileage: 1100,
          first_engine_hours: 0,
          last_engine_hours: 0,
        },
        {
          unit_id: u1,
          day: dayStart('2025-03-31'),
          first_mileage: 1100,
          last_mileage: 1160.9344,
          first_engine_hours: 0,
          last_engine_hours: 0,
        },
        {
          unit_id: foreignUnit,
          day: dayStart('2025-03-29'),
          first_mileage: 0,
          last_mileage: 500,
          first_engine_hours: 0,
          last_engine_hours: 0,
        },
      ])
      .execute();
  });
  afterAll(() => t?.close());

  it('sums closed service costs per object and fleet day across the daylight-saving switch', async () => {
    const res = await report('service-costs-by-object', '&group=day');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      type: 'service-costs-by-object',
      from: FROM,
      to: TO,
      group: 'day',
      ms: 1,
      fm: 2,
    });
    expect(res.body.columns.map((c: { key: string }) => c.key)).toEqual([
      'period',
      'object_type',
      'object',
      'services_count',
      'services_cost',
    ]);
    expect(res.body.rows).toEqual([
      {
        period: '2025-03-29',
        object_type: 'u',
        object: 'Трактор Α',
        services_count: 1,
        services_cost: 15.252,
        ot: 'u',
        oid: u1,
      },
      // Within a day by name (Latin before Cyrillic).
      {
        period: '2025-03-30',
        object_type: 'd',
        object: 'Zoë Driver',
        services_count: 1,
        services_cost: 0.1,
        ot: 'd',
        oid: driver,
      },
      {
        period: '2025-03-30',
        object_type: 'u',
        object: 'Трактор Α',
        services_count: 1,
        services_cost: 0.2,
        ot: 'u',
        oid: u1,
      },
      {
        period: '2025-03-31',
        object_type: 'u',
        object: '=SUM(A1)',
        services_count: 1,
        services_cost: 5.051,
        ot: 'u',
        oid: u2,
      },
    ]);
    // 15.252 + 0.2 + 0.1 + 5.051, exactly.
    expect(res.body.totals).toEqual({ services_count: 4, services_cost: 20.603 });
    expect(res.body.chart).toEqual({
      x: 'period',
      series: 'services_cost',
      kind: 'money',
      points: [
        { x: '2025-03-29', y: 15.252 },
        { x: '2025-03-30', y: 0.3 },
        { x: '2025-03-31', y: 5.051 },
      ],
    });
  });

  it('filters on object type and ids, and never shows another fleet’s objects', async () => {
    const units = await report('service-costs-by-object', `&ot=u&ids=${u2},${foreignUnit}`);
    expect(units.body.rows).toEqual([
      { object_type: 'u', object: '=SUM(A1)', services_count: 1, services_cost: 5.051, ot: 'u', oid: u2 },
    ]);
    const drivers = await report('service-costs-by-object', '&ot=d');
    expect(drivers.body.rows.map((r: { oid: number }) => r.oid)).toEqual([driver]);
    const foreign = await report('fuel', `&ot=u&ids=${foreignUnit}`);
    expect(foreign.body.rows).toEqual([]);
  });

  it('groups by ISO week, the first week clipped to the period start', async () => {
    const res = await report('service-costs-by-object', '&group=week');
    // The unit's services of Saturday and Sunday fall in one row.
    expect(
      res.body.rows.map((r: { period: string; object: string; services_cost: number }) => [
        r.period,
        r.object,
        r.services_cost,
      ]),
    ).toEqual([
      ['2025-03-29', 'Zoë Driver', 0.1],
      ['2025-03-29', 'Трактор Α', 15.452],
      ['2025-03-31', '=SUM(A1)', 5.051],
    ]);
    expect(res.body.chart.points).toEqual([
      { x: '2025-03-29', y: 15.552 },
      { x: '2025-03-31', y: 5.051 },
    ]);
  });

  it('adds up line items by name and kind, and services by interval (one-time services together)', async () => {
    const items = await report('service-costs-by-line-item');
    expect(items.body.rows).toEqual([
      { line_item: 'Labour', line_type: 1, quantity: 1, services_count: 1, cost: 0.1 },
      { line_item: 'Oil', line_type: 2, quantity: 2, services_count: 2, cost: 20.203 },
    ]);
    expect(items.body.totals).toEqual({ cost: 20.303 });
    const intervals = await report('service-costs-by-interval');
    expect(intervals.body.rows).toEqual([
      { interval: 'Oil change', services_count: 1, services_cost: 15.252 },
      { interval: null, services_count: 3, services_cost: 5.351 },
    ]);
    expect(intervals.body.chart).toMatchObject({
      x: 'label',
      points: [
        { x: 'Oil change', y: 15.252 },
        { x: '', y: 5.351 },
      ],
    });
  });

  it('lists the services performed with their line items, and the open services planned up to the end', async () => {
    const done = await report('services-performed', '&ot=u');
    expect(done.body.rows.map((r: { service: string }) => r.service)).toEqual([
      'Oil service',
      'Wash',
      'Top-up',
    ]);
    expect(done.body.rows[0]).toMatchObject({
      date: '2025-03-29',
      object: 'Трактор Α',
      interval: 'Oil change',
      line_items: 'Oil × 1.5; Labour × 1',
      services_cost: 15.252,
    });
    expect(done.body.totals).toEqual({ services_cost: 20.503 });
    const open = await report('upcoming-overdue');
    expect(open.body.rows).toHaveLength(1);
    expect(open.body.rows[0]).toMatchObject({
      planned_date: '2025-03-31',
      object: '=SUM(A1)',
      service: 'Tyres',
      status: expect.stringMatching(/^(due|overdue)$/),
      limit_mileage: 8000,
    });
    expect(open.body.totals).toEqual({});
    expect(open.body.chart).toMatchObject({
      series: 'rows',
      kind: 'count',
      points: [{ x: '=SUM(A1)', y: 1 }],
    });
  });

  it('reports fuel per engine hour for a unit whose type counts hours (docs/product.md)', async () => {
    const db = t.server.ctx.db.kysely;
    const accountId = await accountOf(t, 'manager');
    const forklift = await createUnit(t, { accountId, fleetId, name: 'Forklift' });
    const other = await db
      .selectFrom('unit_types')
      .select('id')
      .where('name', '=', 'other')
      .executeTakeFirstOrThrow();
    await db.updateTable('units').set({ unit_type_id: other.id }).where('id', '=', forklift).execute();
    // 4 gallons over 2 km and 8 engine hours in the period (a forklift hardly drives).
    const res = await user.post(`/api/fleets/${fleetId}/fuel-fillings`, {
      uid: forklift,
      date: '2025-03-30 10:00',
      volume: '4',
      manual_cost: '1',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await db
      .insertInto('counter_days')
      .values([
        {
          unit_id: forklift,
          day: dayStart('2025-03-28'),
          first_mileage: 0,
          last_mileage: 10,
          first_engine_hours: 90,
          last_engine_hours: 100,
        },
        {
          unit_id: forklift,
          day: dayStart('2025-03-30'),
          first_mileage: 10,
          last_mileage: 12,
          first_engine_hours: 100,
          last_engine_hours: 108,
        },
      ])
      .execute();
    const fuel = await report('fuel', `&ot=u&ids=${forklift}`);
    expect(fuel.status, JSON.stringify(fuel.body)).toBe(200);
    expect(fuel.body.rows).toEqual([
      {
        object: 'Forklift',
        fuel_count: 1,
        fuel_volume: 4,
        fuel_cost: 1,
        mileage: 2,
        engine_hours: 8,
        // 4 gallons over 8 hours; not 2 km per 4 gallons (the value changes, not only its unit).
        consumption: null,
        consumption_per_hour: 0.5,
        ot: 'u',
        oid: forklift,
      },
    ]);
    expect(fuel.body.totals).toMatchObject({ consumption: null, consumption_per_hour: 0.5, engine_hours: 8 });
    // With the other units: each consumption over the units of its own basis.
    const all = await report('fuel');
    expect(all.body.totals).toMatchObject({ consumption: 9.434, consumption_per_hour: 0.5 });
    // The PDF names the unit of the per-hour column and writes the value in the reader's language.
    await setLang('de');
    const pdfRes = await exported('fuel', 'pdf', `&ot=u&ids=${forklift}`);
    const pdf = await getDocumentProxy(new Uint8Array(await pdfRes.arrayBuffer()));
    const { text } = await extractText(pdf, { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Verbrauch je Motorstunde');
    expect(flat).toContain('gal/h');
    expect(flat).toContain('0,5');
    await setLang('en');
    await db.deleteFrom('counter_days').where('unit_id', '=', forklift).execute();
    // Through the API, so that the day aggregates forget its cost too.
    const gone = await user.delete(`/api/fleets/${fleetId}/fuel-fillings/${res.body.id}`);
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
  });

  it('reports fuel and consumption in the fleet’s units, and cost per distance', async () => {
    const fuel = await report('fuel');
    expect(fuel.body.rows).toEqual([
      {
        object: 'Трактор Α',
        fuel_count: 2,
        fuel_volume: 10.6,
        fuel_cost: 0.3,
        mileage: 160.934,
        engine_hours: 0,
        // 100 miles ÷ 10.6 gallons (mpg in a miles fleet).
        consumption: 9.434,
        consumption_per_hour: null,
        ot: 'u',
        oid: u1,
      },
    ]);
    expect(fuel.body.totals).toEqual({
      fuel_count: 2,
      fuel_volume: 10.6,
      fuel_cost: 0.3,
      mileage: 160.934,
      engine_hours: 0,
      consumption: 9.434,
      consumption_per_hour: null,
    });
    const byDay = await report('fuel', '&group=day');
    expect(
      byDay.body.rows.map((r: { period: string; fuel_volume: number; mileage: number }) => [
        r.period,
        r.fuel_volume,
        r.mileage,
      ]),
    ).toEqual([
      ['2025-03-29', 0, 100],
      ['2025-03-30', 10.5, 0],
      ['2025-03-31', 0.1, 60.934],
    ]);
    const cost = await report('cost-per-distance');
    // U1: services 15.252 + 0.2, fuel 0.3 over 160.9344 km; U2: 5.051 and no distance.
    expect(cost.body.rows).toEqual([
      {
        object: '=SUM(A1)',
        mileage: 0,
        services_cost: 5.051,
        fuel_cost: 0,
        total_cost: 5.051,
        cost_per_distance: null,
        ot: 'u',
        oid: u2,
      },
      {
        object: 'Трактор Α',
        mileage: 160.934,
        services_cost: 15.452,
        fuel_cost: 0.3,
        total_cost: 15.752,
        cost_per_distance: 0.098,
        ot: 'u',
        oid: u1,
      },
    ]);
    expect(cost.body.totals).toMatchObject({ total_cost: 20.803, cost_per_distance: 0.129 });
  });

  it('refuses a bad query with the field named', async () => {
    for (const [query, field] of [
      [`&ids=${u1}`, 'querystring.ids'],
      ['&group=year', 'querystring.group'],
      ['&ot=u&ids=1,x', 'querystring.ids'],
    ] as const) {
      const res = await report('fuel', query);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(4);
      expect(JSON.stringify(res.body.details)).toContain(field);
    }
    const long = await user.get(`/api/fleets/${fleetId}/reports/fuel?from=2024-01-01&to=2025-03-31`);
    expect(long.status).toBe(400);
    const unknown = await user.get(`/api/fleets/${fleetId}/reports/nope?from=${FROM}&to=${TO}`);
    expect(unknown.status).toBe(400);
  });

  it('exports XLSX with numeric cells, number formats, dates and a totals row, miles converted', async () => {
    await setLang('en');
    const res = await exported('fuel', 'xlsx', '&group=day');
    expect(res.status, res.status === 200 ? '' : await res.text()).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="fuel-${FROM}-${TO}.xlsx"`);
    const data = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(data.length);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(data as never);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('Fuel fillings and consumption');
    expect(sheet.getCell('A1').value).toBe('Fuel fillings and consumption');
    expect(sheet.getCell('B2').value).toBe('Reports fleet');
    const header = sheet.getRow(6).values as unknown[];
    expect(header.slice(1)).toEqual([
      'Period',
      'Object',
      'Fillings',
      'Fuel volume, gal',
      'Fuel cost, USD',
      'Mileage, mi',
      'Engine hours, e.h.',
      'Consumption, mi/gal',
      'Consumption per engine hour, gal/h',
    ]);
    const first = sheet.getRow(7);
    expect(first.getCell(1).value).toEqual(new Date('2025-03-29T00:00:00Z'));
    expect(first.getCell(1).numFmt).toBe('dd.mm.yyyy');
    expect(first.getCell(6).value).toBe(62.137); // 100 km in miles
    expect(first.getCell(6).numFmt).toBe('#,##0.###');
    const third = sheet.getRow(9);
    expect(third.getCell(4).value).toBe(0.1);
    expect(third.getCell(5).value).toBe(0.2);
    expect(third.getCell(5).numFmt).toBe('#,##0.00#');
    const totals = sheet.getRow(10);
    expect(totals.getCell(1).value).toBe('Total');
    expect(totals.getCell(3).value).toBe(2);
    expect(totals.getCell(4).value).toBe(10.6);
    expect(totals.getCell(5).value).toBe(0.3);
    expect(totals.getCell(6).value).toBe(100);
    expect(totals.getCell(7).value).toBe(0);
    expect(totals.getCell(8).value).toBe(9.434);
    expect(totals.getCell(9).value).toBe(null);
    expect(totals.font?.bold).toBe(true);
    expect(sheet.getColumn(2).width).toBeGreaterThan(8);
  });

  it('exports CSV with a BOM, RFC 4180 quoting, formulas neutralised and cost per mile', async () => {
    await setLang('en');
    const res = await exported('cost-per-distance', 'csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'Object,"Mileage, mi","Services cost, USD","Fuel cost, USD","Total cost, USD","Cost per distance, USD/mi"',
    );
    // 0.098 per km × 1.609344 = 0.158 per mile.
    expect(lines[1]).toBe("'=SUM(A1),0,5.051,0,5.051,");
    expect(lines[2]).toBe('Трактор Α,100,15.452,0.3,15.752,0.158');
    expect(lines[3]).toBe('Total,100,20.503,0.3,20.803,0.208');
    expect(lines[4]).toBe('');
  });

  it('exports a PDF whose text carries the titles in Russian, Greek and Thai', async () => {
    for (const [lang, words] of [
      ['ru', ['Заправки и расход топлива', 'Заправок', 'Объём топлива', 'Трактор Α', 'Страница 1 из 1']],
      ['el', ['Ανεφοδιασμοί και κατανάλωση', 'Όγκος καυσίμου', 'Κατανάλωση']],
      ['th', ['การเติมน้ำมันและอัตราสิ้นเปลือง', 'ปริมาณน้ำมัน', 'ค่าน้ำมัน']],
    ] as const) {
      await setLang(lang);
      const res = await exported('fuel', 'pdf');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const pdf = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
      const { text } = await extractText(pdf, { mergePages: true });
      // NFKC: the PDF sets Thai sara am as nikhahit + sara aa (export/pdf.ts).
      const flat = text.replace(/\s+/g, ' ').normalize('NFKC');
      for (const word of words) expect(flat, `${lang}: ${word}`).toContain(word.normalize('NFKC'));
    }
    await setLang('en');
  });

  it('repeats the header on every page of a long PDF and numbers the pages', async () => {
    await setLang('en');
    const accountId = await accountOf(t, 'manager');
    const u3 = await createUnit(t, { accountId, fleetId, name: 'Long unit' });
    const services = Array.from({ length: 120 }, (_, i) => ({
      t: 'u',
      uid: u3,
      f: 8,
      n: `Job ${i + 1}`,
      end_date: i % 2 ? '2025-03-29' : '2025-03-31',
      li: [{ n: 'Filter', t: 2, q: 1, c: '0.001' }],
    }));
    const batch = await user.post(`/api/fleets/${fleetId}/services/batch`, { services });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const res = await exported('services-performed', 'pdf', `&ot=u&ids=${u3}&group=day`);
    expect(res.status).toBe(200);
    const pdf = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
    const { totalPages, text } = await extractText(pdf);
    expect(totalPages).toBeGreaterThan(2);
    for (const [i, page] of text.entries()) {
      const flat = page.replace(/\s+/g, ' ');
      expect(flat, `page ${i + 1}`).toContain('Services cost, USD');
      expect(flat, `page ${i + 1}`).toContain(`Page ${i + 1} of ${totalPages}`);
    }
    // The title block is on the first page only; the totals row ends the last: 120 × 0.001.
    expect(text[0]).toContain('Services performed');
    expect(text[totalPages - 1]!.replace(/\s+/g, ' ')).toMatch(/Total .*0\.12\b/);
  });
});
