import { FUEL_BATCH_MAX } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsSince, outboxMark } from '../../test/domain-events.js';
import { fuelFixture } from '../../test/fuel-fixture.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/** POST .../fuel-fillings/batch (spec §7 `fuel_fillings`; DESIGN §5: atomic, per-row errors). */
describe('fuel filling batch', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof fuelFixture>>;
  let manager: Client;
  let viewer: Client;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await fuelFixture(t);
    manager = await t.login('manager');
    viewer = await t.login('viewer');
  });
  afterAll(() => t?.close());

  const batch = (rows: unknown, client: Client = manager) =>
    client.post(`${fx.base}/batch`, { fuel_fillings: rows });
  const count = async (uid: number) =>
    Number(
      (
        await fx.db
          .selectFrom('fuel_fillings')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('unit_id', '=', uid)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('imports every row at once, the total as `total_cost` or volume × price', async () => {
    const uid = await fx.unit(2_000);
    const mark = await outboxMark(fx.db);
    const res = await batch([
      { uid, date: '2023-04-01 06:00', volume: '50', price: '1.25' },
      { uid, date: '2023-04-02 06:00', volume: 10.5, total_cost: '14.7', full: 0, mileage: 2_100 },
      { uid, date: 1_680_500_000, volume: 20, price: 1, manual_cost: 21, station: 'Esso' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.fuel_fillings.map((f: any) => [f.volume, f.total_cost, f.manual_cost, f.full])).toEqual([
      [50, 62.5, null, 1],
      [10.5, 14.7, 14.7, 0],
      [20, 21, 21, 1],
    ]);
    expect(res.body.fuel_fillings[0].mileage).toBe(2_000);
    expect(await count(uid)).toBe(3);
    const events = await eventsSince(fx.db, mark, ['fuel.created']);
    expect(events.map((e: any) => e.cost)).toEqual([62_500, 14_700, 21_000]);
  });

  it('stores nothing when any row fails, listing every failure with its row', async () => {
    const uid = await fx.unit();
    const foreign = await fx.foreignUnit();
    const mark = await outboxMark(fx.db);
    const res = await batch([
      { uid, volume: 5, price: 1 },
      { uid, volume: '1.2345', price: 1 },
      { uid: foreign, volume: 5, price: 1 },
      'not a row',
      { uid, volume: 5 },
      { uid, volume: 5, price: 1, date: '2023-02-30' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(4);
    expect(res.body.details.map((d: any) => [d.row, d.field])).toEqual([
      [1, 'body.fuel_fillings.1.volume'],
      [2, 'body.fuel_fillings.2.uid'],
      [3, 'body.fuel_fillings.3'],
      [4, 'body.fuel_fillings.4.price'],
      [5, 'body.fuel_fillings.5.date'],
    ]);
    expect(await count(uid)).toBe(0);
    expect(await eventsSince(fx.db, mark, ['fuel.created'])).toEqual([]);
  });

  it('checks custom values per row, refuses empty and oversized batches, and needs manageFuelFilling', async () => {
    const uid = await fx.unit();
    const field = (
      await manager.post(`/api/fleets/${fx.fleetId}/custom-fields`, {
        n: 'Batch card Fuelfix',
        tp: 1,
        t: 'f',
      })
    ).body;
    const res = await batch([
      { uid, volume: 1, price: 1, cf: [{ id: field.id, v: 'ok' }] },
      { uid, volume: 1, price: 1, cf: [{ id: 999_999, v: 'x' }] },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { row: 1, field: 'body.fuel_fillings.1.cf.0.id', message: 'Unknown custom field for this object' },
    ]);
    expect(await count(uid)).toBe(0);
    expect((await batch([])).status).toBe(400);
    const tooMany = Array.from({ length: FUEL_BATCH_MAX + 1 }, () => ({ uid, volume: 1, price: 1 }));
    expect((await batch(tooMany)).status).toBe(400);
    expect((await batch([{ uid, volume: 1, price: 1 }], viewer)).status).toBe(403);
    expect(await count(uid)).toBe(0);
  });
});
