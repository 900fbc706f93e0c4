import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type Client, createUnit, startTestServer, type TestServer } from '../../test/harness.js';

/** The import flow (spec §5 "Import: …", §7 `/fleets/{id}/import`). */
describe('imports', () => {
  let t: TestServer;
  let manager: Client;
  let mechanic: Client;
  let outsider: Client;
  let fid: number;
  let base: string;
  let unitA: number;
  let twins: number[];

  beforeAll(async () => {
    t = await startTestServer();
    [manager, mechanic, outsider] = await Promise.all([
      t.login('manager'),
      t.login('mechanic'),
      t.login('outsider'),
    ]);
    fid = t.demo.fleetId;
    base = `/api/fleets/${fid}/import`;
    const accountId = await accountOf(t, 'manager');
    unitA = await createUnit(t, { accountId, fleetId: fid, name: 'Import A' });
    twins = [
      await createUnit(t, { accountId, fleetId: fid, name: 'Import Twin' }),
      await createUnit(t, { accountId, fleetId: fid, name: 'Import Twin' }),
    ];
    // A unit of another fleet: its name must not match (other fleets' data is invisible).
    const other = await accountOf(t, 'outsider');
    await createUnit(t, { accountId: other, fleetId: t.demo.otherFleetId, name: 'Import Foreign' });
  });
  afterAll(() => t.close());

  const upload = (client: Client, kind: string, bytes: Buffer, query = '') =>
    fetch(`${t.url}${base}/${kind}/parse${query}`, {
      method: 'POST',
      headers: {
        authorization: `SSID ${(client as unknown as { ssid: string }).ssid}`,
        'content-type': 'application/octet-stream',
      },
      body: bytes,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const services = async (name: string) =>
    t.server.ctx.db.kysely
      .selectFrom('services')
      .select(['id', 'object_id', 'name'])
      .where('fleet_id', '=', fid)
      .where('name', 'like', `${name}%`)
      .execute();

  describe('parse', () => {
    it('detects the delimiter and reads quoted cells', async () => {
      const r = await upload(
        manager,
        'services',
        Buffer.from('unit;name;cost\n"Import A";"Oil; ""5W30""";12.5\r\n'),
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ format: 'csv', delimiter: ';', encoding: 'utf-8' });
      expect(r.body.rows).toEqual([
        ['unit', 'name', 'cost'],
        ['Import A', 'Oil; "5W30"', '12.5'],
      ]);
    });
    it('detects windows-1251 and takes a manual override', async () => {
      const cp1251 = Buffer.from([0xcc, 0xe0, 0xf1, 0xeb, 0xee, 0x2c, 0x31, 0x0a]); // "Масло,1"
      const r = await upload(manager, 'services', cp1251);
      expect(r.body).toMatchObject({ encoding: 'windows-1251', rows: [['Масло', '1']] });
      const forced = await upload(
        manager,
        'services',
        Buffer.from('a,b|c\n'),
        '?delimiter=%7C&encoding=utf-8',
      );
      expect(forced.body.rows).toEqual([['a,b', 'c']]);
    });
    it('reads an XLSX: sheets, dates, formulas with their stored result', async () => {
      const book = new ExcelJS.Workbook();
      const first = book.addWorksheet('Services');
      first.addRow(['unit', 'name', 'start', 'cost']);
      first.addRow(['Import A', 'Brakes', new Date(Date.UTC(2024, 2, 5)), { formula: '2+3', result: 5 }]);
      book.addWorksheet('Other').addRow(['x']);
      const bytes = Buffer.from(await book.xlsx.writeBuffer());
      const r = await upload(manager, 'services', bytes);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ format: 'xlsx', sheets: ['Services', 'Other'], sheet: 'Services' });
      expect(r.body.rows[1]).toEqual(['Import A', 'Brakes', '2024-03-05', '5']);
      expect((await upload(manager, 'services', bytes, '?sheet=Other')).body.rows).toEqual([['x']]);
      expect((await upload(manager, 'services', bytes, '?sheet=Nope')).body.reason).toBe(
        'imports.file.sheet',
      );
    });

    const refused = async (bytes: Buffer, key: string) => {
      const r = await upload(manager, 'services', bytes);
      expect(r.status, key).toBe(400);
      expect(r.body).toEqual({ error: 4, reason: key, details: [{ field: 'body', message: key }] });
    };
    it('refuses hostile files with a clear reason', async () => {
      await refused(Buffer.alloc(0), 'imports.file.empty');
      await refused(Buffer.from('\n\r\n  \n'), 'imports.file.empty');
      await refused(
        Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 256)),
        'imports.file.binary',
      );
      await refused(Buffer.from(`${'x,'.repeat(100_000)}x\n`), 'imports.file.tooManyColumns');
      await refused(Buffer.from(`a,${'y'.repeat(5_000_000)}\n`), 'imports.file.cellTooLong');
      await refused(Buffer.from('a\n'.repeat(10_002)), 'imports.file.tooManyRows');
      const book = new ExcelJS.Workbook();
      book.addWorksheet('S').addRow(['a', { formula: 'A1*2' }]);
      await refused(Buffer.from(await book.xlsx.writeBuffer()), 'imports.file.formula');
      await refused(Buffer.from('PK\u0003\u0004 not really a zip'), 'imports.file.badXlsx');
    });
    it('refuses a zip bomb from its directory, and one whose directory lies', async () => {
      const zeros = Buffer.alloc(80 * 1024 * 1024);
      await refused(zipOf('xl/worksheets/sheet1.xml', zeros), 'imports.file.zipBomb');
      await refused(zipOf('xl/worksheets/sheet1.xml', zeros, 1000), 'imports.file.zipBomb');
    });
    it('answers 413 error 2 for a file over 10 MB', async () => {
      const r = await upload(manager, 'services', Buffer.alloc(11 * 1024 * 1024, 0x61));
      expect(r.status).toBe(413);
      expect(r.body.error).toBe(2);
    });
    it('needs the kind’s manage right', async () => {
      expect((await upload(mechanic, 'intervals', Buffer.from('a\n'))).status).toBe(403);
      expect((await upload(outsider, 'services', Buffer.from('a\n'))).status).toBe(403);
    });
    it('never crashes on fuzzed bytes and text (fast-check)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.uint8Array({ maxLength: 2000 }),
            fc.string({ maxLength: 500 }).map((s) => new TextEncoder().encode(s)),
            fc
              .array(fc.array(fc.string({ maxLength: 8 }), { maxLength: 6 }), { maxLength: 8 })
              .map((rows) =>
                new TextEncoder().encode(
                  rows.map((r) => r.join(fc.sample(fc.constantFrom(',', ';', '\t'), 1)[0])).join('\n'),
                ),
              ),
          ),
          async (bytes) => {
            const r = await upload(manager, 'services', Buffer.from(bytes));
            expect([200, 400]).toContain(r.status);
            if (r.status === 400) expect(r.body.reason).toMatch(/^imports\.file\./);
          },
        ),
        { numRuns: 60 },
      );
    });
  });

  describe('import', () => {
    const good = (n: number) => ({
      unit: 'Import A',
      name: `Imp ${n}`,
      end_date: '01.02.2024',
      total_cost: '10.5',
    });

    it('imports services atomically: one bad row stores nothing, with every issue named', async () => {
      const rows = [
        good(1),
        { ...good(2), unit: 'import a', mileage: '1.5' },
        { ...good(3), start_date: '02.02.2024' },
      ];
      const r = await manager.post(`${base}/services`, { date_format: 'DD.MM.YYYY', rows });
      expect(r.status).toBe(400);
      expect(r.body.details).toEqual([
        { row: 1, field: 'body.rows.1.unit', message: 'imports.err.unit' },
        { row: 1, field: 'body.rows.1.mileage', message: 'imports.err.integer' },
        { row: 2, field: 'body.rows.2.end_date', message: 'imports.err.endBeforeStart' },
      ]);
      expect(await services('Imp ')).toEqual([]);

      const ok = await manager.post(`${base}/services`, {
        date_format: 'DD.MM.YYYY',
        rows: [good(1), { ...good(2), unit: 'Import Twin' }],
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ kind: 'services', created: 3, rows: 2 });
      const stored = await services('Imp ');
      expect(stored.map((s) => s.object_id).sort()).toEqual([unitA, ...twins].sort());
      const listed = await manager.get(`/api/fleets/${fid}/services/archived?from=2024-01-01&to=2024-12-31`);
      expect(JSON.stringify(listed.body)).toContain('Imp 1');
    });
    it('does not see units of other fleets', async () => {
      const r = await manager.post(`${base}/services`, {
        date_format: 'YYYY-MM-DD',
        rows: [{ unit: 'Import Foreign', name: 'X' }],
      });
      expect(r.body.details).toEqual([{ row: 0, field: 'body.rows.0.unit', message: 'imports.err.unit' }]);
    });
    it('imports fuel fillings and line items; refuses library duplicates', async () => {
      const fuel = await mechanic.post(`${base}/fuelfillings`, {
        date_format: 'DD.MM.YYYY',
        rows: [
          {
            unit: 'Import A',
            date: '03.02.2024 08:15',
            volume: '40.5',
            price: '1.5',
            station: 'Imp station',
          },
        ],
      });
      expect(fuel.body).toMatchObject({ created: 1 });
      const items = { date_format: 'YYYY-MM-DD', rows: [{ name: 'Imp belt', type: 'Part', cost: '3' }] };
      expect((await mechanic.post(`${base}/lineitems`, items)).body).toMatchObject({ created: 1 });
      const again = await mechanic.post(`${base}/lineitems`, items);
      expect(again.body.details).toEqual([
        { row: 0, field: 'body.rows.0.name', message: 'imports.err.duplicate' },
      ]);
    });
    it('imports a windows-1251 fuel file with Cyrillic names stored as written', async () => {
      const accountId = await accountOf(t, 'manager');
      const truck = await createUnit(t, { accountId, fleetId: fid, name: 'Грузовик 1251' });
      // English column titles, as a template gives them: few Cyrillic letters among many Latin ones.
      const csv =
        'unit,date,volume,price,total_cost,mileage,fuel_type,station,description\r\n' +
        'Грузовик 1251,2024-05-01 10:00,50,1.5,75,1200,ДТ,Лукойл,\r\n';
      const parsed = await upload(mechanic, 'fuelfillings', iconv.encode(csv, 'win1251'), '?name=fuel.csv');
      expect(parsed.status).toBe(200);
      expect(parsed.body.encoding).toBe('windows-1251');
      const [titles, cells] = parsed.body.rows as string[][];
      const row = Object.fromEntries(titles!.map((title, i) => [title, cells![i] ?? '']));
      expect(row).toMatchObject({ unit: 'Грузовик 1251', fuel_type: 'ДТ', station: 'Лукойл' });
      const made = await mechanic.post(`${base}/fuelfillings`, { date_format: 'YYYY-MM-DD', rows: [row] });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const stored = await t.server.ctx.db.kysely
        .selectFrom('fuel_fillings')
        .select(['unit_id', 'fuel_type', 'station'])
        .where('id', '=', made.body.ids[0])
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ unit_id: truck, fuel_type: 'ДТ', station: 'Лукойл' });
    });
    it('GET and POST /fleets/{id}/import: the interval import list and the import (spec §7)', async () => {
      const made = await manager.post(base, {
        intervals: [{ n: 'Imp interval', de: 1, dd: 6, du: 'm', u: [{ id: unitA }] }],
      });
      expect(made.status).toBe(200);
      expect(made.body.intervals[0]).toMatchObject({ n: 'Imp interval', dd: 6, u: [{ id: unitA, t: 'u' }] });
      const list = await manager.get(base);
      expect(list.body.intervals.find((i: any) => i.n === 'Imp interval')).toMatchObject({
        dd: 6,
        u: [{ id: unitA }],
      });
      const rows = await manager.post(`${base}/intervals`, {
        date_format: 'YYYY-MM-DD',
        rows: [{ name: 'Imp tyres', unit: 'Import Twin', mileage_frequency: '10000', last_mileage: '500' }],
      });
      expect(rows.body).toMatchObject({ created: 1, rows: 1 });
      const dup = await manager.post(`${base}/intervals`, {
        date_format: 'YYYY-MM-DD',
        rows: [{ name: 'imp TYRES', time_frequency: '2' }],
      });
      expect(dup.body.details).toEqual([
        { row: 0, field: 'body.rows.0.name', message: 'imports.err.duplicate' },
      ]);
    });
    it('fuzzed rows never crash and never import a part (fast-check)', async () => {
      const cell = fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom('Import A', '2024-01-02', '12', '-1', '1e5', ''),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              unit: cell,
              name: cell,
              start_date: cell,
              end_date: cell,
              mileage: cell,
              total_cost: cell,
            }),
            {
              minLength: 1,
              maxLength: 5,
            },
          ),
          async (rows) => {
            const before = (await services('')).length;
            const tagged = rows.map((r, i) => ({ ...r, name: i === rows.length - 1 ? '' : `fz${r.name}` }));
            const r = await manager.post(`${base}/services`, { date_format: 'YYYY-MM-DD', rows: tagged });
            expect(r.status).toBe(400);
            expect((await services('')).length).toBe(before);
          },
        ),
        { numRuns: 25 },
      );
    });
    it('imports 10,000 rows in one call', async () => {
      const rows = Array.from({ length: 10_000 }, (_, i) => ({ name: `Bulk ${i}`, type: 'part', cost: '1' }));
      const started = Date.now();
      const r = await manager.post(`${base}/lineitems`, { date_format: 'YYYY-MM-DD', rows });
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      expect(r.body.created).toBe(10_000);
      expect(Date.now() - started).toBeLessThan(60_000);
    }, 90_000);
  });
});

/** A one-part zip (deflated); `declared` overrides the uncompressed size its directory states. */
function zipOf(name: string, data: Buffer, declared = data.length): Buffer {
  const packed = deflateRawSync(data);
  const n = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(n.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(n.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + n.length + packed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + n.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, n, packed, central, n, end]);
}
