import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../../test/events-client.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { isUniqueViolation } from './library.js';

/** The line-items library (spec §7 "Line items", §5 "Import: line items"; PRODUCT.md). */
describe('line items', () => {
  let t: TestServer;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let outsider: Client;
  let admin: Client;
  let base: string;

  beforeAll(async () => {
    t = await startTestServer();
    [manager, mechanic, viewer, outsider, admin] = await Promise.all([
      t.login('manager'),
      t.login('mechanic'),
      t.login('viewer'),
      t.login('outsider'),
      t.login('admin'),
    ]);
    base = `/api/fleets/${t.demo.fleetId}/line_items`;
  });
  afterAll(() => t.close());

  const list = async (client: Client = viewer) => (await client.get(base)).body.line_items as any[];
  const fields = (body: any) => body.details.map((d: { field: string }) => d.field).sort();

  it('creates, lists sorted naturally and case-insensitively, updates and deletes', async () => {
    for (const n of ['Filter 10', 'filter 9', 'Brake pads', 'alignment'])
      expect((await manager.post(base, { n, t: 2, c: 12.5 })).status).toBe(200);
    const names = (await list()).map((i) => i.n);
    expect(names).toEqual(['alignment', 'Brake pads', 'filter 9', 'Filter 10']);

    const created = await manager.post(base, { n: '  Oil change  ', t: 1, c: '30.125' });
    expect(created.body).toMatchObject({ n: 'Oil change', t: 1, c: 30.125 });
    const id = created.body.id;
    const changed = await mechanic.put(`${base}/${id}`, { c: 31 });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ id, n: 'Oil change', t: 1, c: 31 });
    expect((await list()).find((i) => i.id === id)).toEqual({ id, n: 'Oil change', t: 1, c: 31 });
    expect((await manager.delete(`${base}/${id}`)).body).toEqual({ error: 0 });
    expect((await list()).some((i) => i.id === id)).toBe(false);
    expect((await manager.delete(`${base}/${id}`)).status).toBe(404);
    expect((await manager.put(`${base}/${id}`, { c: 1 })).status).toBe(404);
  });

  it('refuses the same name and kind, case-insensitively, with error 10; other kinds may share it', async () => {
    expect((await manager.post(base, { n: 'Coolant', t: 2, c: 5 })).status).toBe(200);
    const dup = await manager.post(base, { n: 'COOLANT', t: 2, c: 6 });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 10, details: [{ field: 'body.n' }] });
    const labour = await manager.post(base, { n: 'coolant', t: 1, c: 6 });
    expect(labour.status).toBe(200);
    const renamed = await manager.put(`${base}/${labour.body.id}`, { t: 2 });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error).toBe(10);
  });

  it('recognises the unique index violation of this dialect (mapped to error 10)', async () => {
    const row = { fleet_id: t.demo.fleetId, name: 'Race item', kind: 2, cost: 0, created_at: 0 };
    const db = t.server.ctx.db.kysely;
    await db.insertInto('line_items').values(row).execute();
    const err = await db
      .insertInto('line_items')
      .values({ ...row, name: 'RACE ITEM' })
      .execute()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('validates every field and lists each bad one', async () => {
    const res = await manager.post(base, { n: '   ', t: 3, c: 1.2345 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(4);
    expect(fields(res.body)).toEqual(['body.c', 'body.n', 'body.t']);
    expect((await manager.post(base, { n: 'x'.repeat(129), t: 1, c: 1 })).status).toBe(400);
    expect((await manager.post(base, { n: 'x'.repeat(128), t: 1, c: 1 })).status).toBe(200);
    const negative = await manager.post(base, { n: 'Negative', t: 1, c: -1 });
    expect(fields(negative.body)).toEqual(['body.c']);
    expect((await manager.post(base, { n: 'Free', t: 1, c: 0 })).status).toBe(200);
  });

  it('keeps fuel types with their price per unit and offers presets', async () => {
    const fuel = await manager.post(base, { n: 'Diesel', t: 4, c: 1.659 });
    expect(fuel.body).toMatchObject({ n: 'Diesel', t: 4, c: 1.659 });
    expect((await manager.post(base, { n: 'diesel', t: 4, c: 1.7 })).status).toBe(409);
    const presets = await viewer.get(`${base}/fuel_presets`);
    expect(presets.status).toBe(200);
    expect(presets.body.fuel_presets.map((p: { n: string }) => p.n)).toEqual([
      'Diesel',
      'Petrol 95',
      'Petrol 98',
      'LPG',
      'CNG',
      'AdBlue',
      'Electricity kWh',
    ]);
    expect(presets.body.fuel_presets.every((p: { t: number }) => p.t === 4)).toBe(true);
  });

  describe('POST /api/line_items/batch', () => {
    it('imports rows of the fleet named in each row, with text types and decimal text costs', async () => {
      const res = await manager.post('/api/line_items/batch', {
        lineitems: [
          { fid: t.demo.fleetId, n: 'Imported part', t: 'PART', c: '10.5' },
          { fid: t.demo.fleetId, n: 'Imported labour', t: 'Labour', c: 20 },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.line_items).toEqual([
        expect.objectContaining({ n: 'Imported labour', t: 1, c: 20 }),
        expect.objectContaining({ n: 'Imported part', t: 2, c: 10.5 }),
      ]);
    });

    it('stores nothing when one row is bad, and names the row', async () => {
      const before = (await list()).length;
      const bad = await manager.post('/api/line_items/batch', {
        lineitems: [
          { fid: t.demo.fleetId, n: 'Batch ok', t: 1, c: 1 },
          { fid: t.demo.fleetId, n: 'Batch bad', t: 'tyre', c: '1,5' },
        ],
      });
      expect(bad.status).toBe(400);
      expect(fields(bad.body)).toEqual(['body.lineitems.1.c', 'body.lineitems.1.t']);
      const dup = await manager.post('/api/line_items/batch', {
        lineitems: [
          { fid: t.demo.fleetId, n: 'Batch twice', t: 1, c: 1 },
          { fid: t.demo.fleetId, n: 'batch TWICE', t: 1, c: 1 },
          { fid: t.demo.fleetId, n: 'Coolant', t: 2, c: 1 },
        ],
      });
      expect(dup.status).toBe(409);
      expect(dup.body.error).toBe(10);
      expect(dup.body.details.map((d: { row: number }) => d.row)).toEqual([1, 2]);
      expect((await list()).length).toBe(before);
    });

    it('refuses the whole batch when one row names a fleet the actor may not write', async () => {
      const before = (await list()).length;
      const res = await manager.post('/api/line_items/batch', {
        lineitems: [
          { fid: t.demo.fleetId, n: 'Mine', t: 1, c: 1 },
          { fid: t.demo.otherFleetId, n: 'Theirs', t: 1, c: 1 },
        ],
      });
      expect(res.status).toBe(403);
      expect((await list()).length).toBe(before);
      const viewerRes = await viewer.post('/api/line_items/batch', {
        lineitems: [{ fid: t.demo.fleetId, n: 'Viewer row', t: 1, c: 1 }],
      });
      expect(viewerRes.status).toBe(403);
    });
  });

  it('lets viewers read but not write, and keeps outsiders and admin-only users out', async () => {
    const item = (await manager.post(base, { n: 'Guarded', t: 2, c: 1 })).body;
    expect((await viewer.get(base)).status).toBe(200);
    for (const res of [
      await viewer.post(base, { n: 'Nope', t: 2, c: 1 }),
      await viewer.put(`${base}/${item.id}`, { c: 2 }),
      await viewer.delete(`${base}/${item.id}`),
      await outsider.get(base),
      await outsider.put(`${base}/${item.id}`, { c: 2 }),
      await outsider.delete(`${base}/${item.id}`),
      await admin.get(base),
    ])
      expect(res.body).toEqual({ error: 7, reason: 'Access denied' });
    // Through the outsider's own fleet, the demo item simply does not exist.
    const own = `/api/fleets/${t.demo.otherFleetId}/line_items/${item.id}`;
    expect((await outsider.put(own, { c: 2 })).status).toBe(404);
    expect((await outsider.delete(own)).status).toBe(404);
    expect((await list()).find((i) => i.id === item.id)).toMatchObject({ c: 1 });
  });

  it('publishes lineitem events to a manager', async () => {
    const sessionOf = (c: Client) => c.ssid!;
    const events = await EventsClient.connect(t.url, sessionOf(manager));
    try {
      const created = (await mechanic.post(base, { n: 'Evented', t: 2, c: 3 })).body;
      const c = await events.next((e) => e.s === 'lineitem' && e.t === 'c' && (e.d as any).id === created.id);
      expect(c).toMatchObject({ fid: t.demo.fleetId, d: { n: 'Evented', t: 2, c: 3 } });
      await mechanic.put(`${base}/${created.id}`, { c: 4 });
      await events.next((e) => e.s === 'lineitem' && e.t === 'u' && (e.d as any).c === 4);
      await mechanic.delete(`${base}/${created.id}`);
      await events.next((e) => e.s === 'lineitem' && e.t === 'd' && (e.d as any).id === created.id);
    } finally {
      events.close();
    }
  });
});
