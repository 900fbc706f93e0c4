import { toThousandths } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { eventsSince, outboxMark } from '../../test/domain-events.js';
import { EventsClient } from '../../test/events-client.js';
import { fuelFixture, issueFields } from '../../test/fuel-fixture.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * Fuel fillings (spec §7 "Fuel fillings", §6, PRODUCT.md "Fuel fillings"): fields, totals, exact
 * decimals, periods in the fleet zone, consumption, fleet units, fleets apart, rights, events.
 */
describe('fuel fillings', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof fuelFixture>>;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let outsider: Client;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await fuelFixture(t);
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
    outsider = await t.login('outsider');
  });
  afterAll(() => t?.close());

  const create = (body: object, client: Client = manager, base = fx.base) => client.post(base, body);
  const created = async (body: object, client: Client = manager, base = fx.base) => {
    const res = await create(body, client, base);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const ids = (res: { body: { fuel_fillings: { id: number }[] } }) => res.body.fuel_fillings.map((f) => f.id);

  describe('create, read, update, delete', () => {
    it('computes total = volume × price, takes the unit counter as mileage, full tank by default', async () => {
      const uid = await fx.unit(12_345.6);
      const res = await create({
        uid,
        date: '2024-05-01 08:30',
        volume: '40.5',
        price: 1.499,
        fuel_type: 'Diesel Fuelfix',
        station: 'Shell Ring',
        description: 'after the trip',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // 40.5 × 1.499 = 60.7095, rounded half up to the third decimal.
      expect(res.body).toEqual({
        id: expect.any(Number),
        uid,
        date: fx.at('2024-05-01 08:30'),
        fuel_type: 'Diesel Fuelfix',
        volume: 40.5,
        price: 1.499,
        manual_cost: null,
        total_cost: 60.71,
        mileage: 12_345.6,
        full: 1,
        station: 'Shell Ring',
        description: 'after the trip',
        consumption: null,
        fm: 1,
        ats: 0,
        cid: t.demo.users.manager,
        tm: expect.any(Number),
        updated: expect.any(Number),
        cf: [],
      });
      expect((await viewer.get(`${fx.base}/${res.body.id}`)).body).toEqual(res.body);
      // The fuel type joined the library's fuel tab with its price (PRODUCT.md "Line-items library").
      const library = await viewer.get(`/api/fleets/${fx.fleetId}/line_items`);
      expect(library.body.line_items).toContainEqual({
        id: expect.any(Number),
        n: 'Diesel Fuelfix',
        t: 4,
        c: 1.499,
      });
      const stored = await fx.db
        .selectFrom('fuel_fillings')
        .selectAll()
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ volume: 40_500, volume_unit: 1, price: 1_499, total_cost: 60_710 });
    });

    it('keeps an entered total; volume × price again once it is cleared', async () => {
      const uid = await fx.unit();
      const entered = await created({ uid, date: '2024-05-02', volume: 30, price: 1.5, manual_cost: 50 });
      expect(entered).toMatchObject({ total_cost: 50, manual_cost: 50 });
      const url = `${fx.base}/${entered.id}`;
      expect((await manager.put(url, { volume: 10 })).body).toMatchObject({ volume: 10, total_cost: 50 });
      expect((await manager.put(url, { manual_cost: null })).body).toMatchObject({ total_cost: 15 });
      expect((await manager.put(url, { volume: '20.25' })).body).toMatchObject({ total_cost: 30.375 });
      // A total alone (no price) is kept too.
      const totalOnly = await created({ uid, date: '2024-05-03', volume: 12, manual_cost: '19.99' });
      expect(totalOnly).toMatchObject({ price: null, total_cost: 19.99 });
      const neither = await create({ uid, volume: 12 });
      expect(neither.status).toBe(400);
      expect(issueFields(neither.body)).toEqual(['body.price']);
      const cleared = await manager.put(`${fx.base}/${totalOnly.id}`, { manual_cost: null });
      expect(cleared.status).toBe(400);
      expect(issueFields(cleared.body)).toEqual(['body.price']);
    });

    it('keeps decimals exact to 3 places (0.1 + 0.2 is 0.3) and refuses a fourth', async () => {
      const uid = await fx.unit();
      const a = await created({ uid, date: '2024-06-01 10:00', volume: 0.1 + 0.2, price: '0.1' });
      expect(a).toMatchObject({ volume: 0.3, total_cost: 0.03 });
      const b = await created({ uid, date: '2024-06-01 11:00', volume: '0.1', price: 1.001 });
      const c = await created({ uid, date: '2024-06-01 12:00', volume: 3, price: 1.001 });
      expect(c.total_cost).toBe(3.003);
      const list = await viewer.get(`${fx.unitBase(uid)}?from=2024-06-01&to=2024-06-01`);
      const sum = (key: 'volume' | 'total_cost') =>
        list.body.fuel_fillings.reduce((s: number, f: any) => s + toThousandths(f[key])!, 0);
      expect(ids(list)).toEqual([a.id, b.id, c.id]);
      expect(sum('volume')).toBe(3_400);
      // 0.03 + 0.1 (0.1001 rounded) + 3.003
      expect(sum('total_cost')).toBe(3_133);
      const bad = await create({ uid, volume: '1.2345', price: 1.23456, manual_cost: -1 });
      expect(bad.status).toBe(400);
      expect(issueFields(bad.body)).toEqual(['body.manual_cost', 'body.price', 'body.volume']);
      expect(issueFields((await create({ uid, volume: 0, price: 1 })).body)).toEqual(['body.volume']);
    });

    it('updates every field, moves to another unit of the fleet, and round-trips the record as read', async () => {
      const [uid, other] = [await fx.unit(), await fx.unit()];
      const f = await created({ uid, date: '2024-07-01 09:00', volume: 20, price: 2, full: 0, mileage: 900 });
      const moved = await manager.put(`${fx.base}/${f.id}`, {
        uid: other,
        date: '2024-07-02 10:15:30',
        full: 1,
        mileage: 1000.5,
        station: 'Aral',
        fuel_type: 'LPG Fuelfix',
        description: 'corrected',
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body).toMatchObject({
        uid: other,
        date: fx.at('2024-07-02 10:15:30'),
        full: 1,
        mileage: 1000.5,
        station: 'Aral',
        fuel_type: 'LPG Fuelfix',
        description: 'corrected',
        total_cost: 40,
      });
      // GET → PUT: the computed fields are accepted and ignored; the creator is stored and never
      // changed, so another `cid` is refused and the one as read accepted.
      const read = (await manager.get(`${fx.base}/${f.id}`)).body;
      const creator = await manager.put(`${fx.base}/${f.id}`, { ...read, cid: read.cid + 1 });
      expect(creator.status).toBe(400);
      expect(creator.body.details).toEqual([{ field: 'body.cid', message: 'Cannot be changed' }]);
      const back = await manager.put(`${fx.base}/${f.id}`, {
        ...read,
        total_cost: 1,
        ats: 9,
        consumption: 3,
        tm: 1,
        fm: 2,
        id: 999_999,
      });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
      expect({ ...back.body, updated: read.updated }).toEqual(read);
    });

    it('refuses a future date, unknown units and units of other fleets, like the services module', async () => {
      const uid = await fx.unit();
      const tomorrow = new Date((now() + 2 * 86400) * 1000).toISOString().slice(0, 10);
      const future = await create({ uid, date: tomorrow, volume: 1, price: 1 });
      expect(future.status).toBe(400);
      expect(issueFields(future.body)).toEqual(['body.date']);
      expect(issueFields((await create({ uid, date: '2024-02-30', volume: 1, price: 1 })).body)).toEqual([
        'body.date',
      ]);
      const foreign = await fx.foreignUnit();
      const refused = await create({ uid: foreign, volume: 1, price: 1 });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([{ field: 'body.uid', message: 'Unknown object in this fleet' }]);
      const service = await manager.post(`/api/fleets/${fx.fleetId}/services`, {
        n: 'x',
        t: 'u',
        uid: foreign,
        f: 1,
      });
      expect(service.body.details).toContainEqual(refused.body.details[0]);
      const f = await created({ uid, date: '2024-07-03', volume: 1, price: 1 });
      const move = await manager.put(`${fx.base}/${f.id}`, { uid: foreign });
      expect(move.status).toBe(400);
      expect(issueFields(move.body)).toEqual(['body.uid']);
    });

    it('deletes with deleteFuelfilling only; the filling is gone afterwards', async () => {
      const f = await created({ uid: await fx.unit(), date: '2024-07-04', volume: 5, price: 1 });
      const url = `${fx.base}/${f.id}`;
      expect((await viewer.post(fx.base, { uid: f.uid, volume: 1, price: 1 })).body).toEqual({
        error: 7,
        reason: 'Access denied',
      });
      expect((await viewer.put(url, { volume: 2 })).status).toBe(403);
      expect((await mechanic.put(url, { volume: 2 })).status).toBe(200);
      expect((await mechanic.delete(url)).status).toBe(403);
      expect((await manager.delete(url)).body).toEqual({ error: 0 });
      expect((await viewer.get(url)).status).toBe(404);
      expect((await manager.delete(url)).status).toBe(404);
    });
  });

  describe('lists', () => {
    it('lists whole fleet-zone days from `from` to `to`, both included, by time; per unit too', async () => {
      const [uid, other] = [await fx.unit(), await fx.unit()];
      const times = ['2021-03-04 23:59:59', '2021-03-05 00:00', '2021-03-06 23:59:59', '2021-03-07 00:00'];
      const made: any[] = [];
      for (const date of times) made.push(await created({ uid, date, volume: 1, price: 1 }));
      const mid = await created({ uid: other, date: '2021-03-06 12:00', volume: 1, price: 1 });
      const inside = [made[1].id, mid.id, made[2].id];
      const mine = (res: any) => ids(res).filter((id) => [...made.map((m) => m.id), mid.id].includes(id));
      expect(mine(await viewer.get(`${fx.base}?from=2021-03-05&to=2021-03-06`))).toEqual(inside);
      // Unix seconds name the fleet day they fall in.
      const noon = fx.at('2021-03-05 12:00');
      const unix = await viewer.get(`${fx.base}?from=${noon}&to=${noon + 86400}`);
      expect(mine(unix)).toEqual(inside);
      expect(ids(await viewer.get(`${fx.unitBase(uid)}?from=2021-03-05&to=2021-03-06`))).toEqual([
        made[1].id,
        made[2].id,
      ]);
      expect(ids(await viewer.get(`${fx.unitBase(uid)}?from=2021-03-04&to=2021-03-07`))).toEqual(
        made.map((m) => m.id),
      );
      const reversed = await viewer.get(`${fx.base}?from=2021-03-06&to=2021-03-05`);
      expect(reversed.status).toBe(400);
      expect(issueFields(reversed.body)).toEqual(['querystring.to']);
      expect((await viewer.get(`${fx.base}?from=2020-01-01&to=2021-03-05`)).status).toBe(400);
      expect(issueFields((await viewer.get(`${fx.base}?from=x&to=2021-03-05`)).body)).toEqual([
        'querystring.from',
      ]);
      expect((await viewer.get(`${fx.base}?from=2021-03-05`)).status).toBe(400);
    });

    it('shows consumption between full tanks, a partial filling adding to the next full one', async () => {
      const uid = await fx.unit();
      const f1 = await created({ uid, date: '2022-01-01 08:00', volume: 40, price: 1, mileage: 10_000 });
      const p2 = await created({ uid, date: '2022-01-10', volume: 10, price: 1, mileage: 10_200, full: 0 });
      const f3 = await created({ uid, date: '2022-01-20', volume: 25, price: 1, mileage: 10_500 });
      // (10 + 25) l over 500 km = 7 l/100 km; the first full tank has none.
      const all = await viewer.get(`${fx.unitBase(uid)}?from=2022-01-01&to=2022-01-31`);
      expect(all.body.fuel_fillings.map((f: any) => f.consumption)).toEqual([null, null, 7]);
      // A period holding only the last filling reads the fillings before it back to the full tank.
      const late = await viewer.get(`${fx.base}?from=2022-01-15&to=2022-01-31`);
      expect(late.body.fuel_fillings.find((f: any) => f.id === f3.id).consumption).toBe(7);
      expect((await viewer.get(`${fx.base}/${f3.id}`)).body.consumption).toBe(7);
      expect((await viewer.get(`${fx.base}/${f1.id}`)).body.consumption).toBeNull();
      // Making the partial a full tank splits the stretch: 10 l / 200 km, then 25 l / 300 km.
      await manager.put(`${fx.base}/${p2.id}`, { full: 1 });
      const split = await viewer.get(`${fx.unitBase(uid)}?from=2022-01-01&to=2022-01-31`);
      expect(split.body.fuel_fillings.map((f: any) => f.consumption)).toEqual([null, 5, 8.333]);
    });

    it('answers a fleet in miles and US gallons in its units: gallons, price per gallon, mpg', async () => {
      const g = await fx.gallonsFleet();
      const uid = await g.unit(1000);
      const mile = 1.609344;
      await created(
        { uid, date: '2024-01-01', volume: 10, price: 3.2, mileage: 1000 * mile },
        g.client,
        g.base,
      );
      const f2 = await created(
        { uid, date: '2024-01-08', volume: 12, price: 3.499, mileage: 1300 * mile },
        g.client,
        g.base,
      );
      // 300 mi on 12 gal = 25 mpg; 12 × 3.499 = 41.988.
      expect(f2).toMatchObject({ fm: 2, volume: 12, price: 3.499, total_cost: 41.988, consumption: 25 });
      const stored = await fx.db
        .selectFrom('fuel_fillings')
        .select(['volume', 'volume_unit', 'price'])
        .where('id', '=', f2.id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ volume: 12_000, volume_unit: 2, price: 3_499 });
      // The fleet switches to litres: older fillings read converted, their money unchanged.
      await fx.db.updateTable('fleets').set({ fm: 1 }).where('id', '=', g.fleetId).execute();
      const litres = (await g.client.get(`${g.base}/${f2.id}`)).body;
      // 12 gal = 45.424 941 l; 3.499 per gal = 0.924 340 per l.
      expect(litres).toMatchObject({ fm: 1, volume: 45.425, price: 0.924, total_cost: 41.988 });
      // Sent back as read, the converted amounts change nothing: no drift of the total or the gallons.
      const back = await g.client.put(`${g.base}/${f2.id}`, litres);
      expect(back.body).toMatchObject({ volume: 45.425, total_cost: 41.988 });
      await fx.db.updateTable('fleets').set({ fm: 2 }).where('id', '=', g.fleetId).execute();
      expect((await g.client.get(`${g.base}/${f2.id}`)).body).toMatchObject({ volume: 12, price: 3.499 });
    });
  });

  describe('fleets apart and rights', () => {
    it("hides another fleet's fillings (404) and refuses its routes (403)", async () => {
      const other = t.demo.otherFleetId;
      const theirs = await created(
        { uid: await fx.foreignUnit(), date: '2024-08-01', volume: 7, price: 1 },
        outsider,
        `/api/fleets/${other}/fuel-fillings`,
      );
      const url = `${fx.base}/${theirs.id}`;
      for (const res of [
        await manager.get(url),
        await manager.put(url, { volume: 1 }),
        await manager.delete(url),
        await manager.get(`${url}/attachments`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error).toBe(5);
      }
      expect(ids(await manager.get(`${fx.base}?from=2024-08-01&to=2024-08-01`))).not.toContain(theirs.id);
      // Another fleet's unit through this fleet's path: not found (http/object-scope.ts).
      expect((await manager.get(`${fx.unitBase(theirs.uid)}?from=2024-08-01&to=2024-08-01`)).body).toEqual({
        error: 5,
        reason: 'Unit not found',
      });
      expect((await manager.get(`/api/fleets/${other}/fuel-fillings/${theirs.id}`)).status).toBe(403);
      expect((await outsider.get(`${fx.base}?from=2024-08-01&to=2024-08-01`)).status).toBe(403);
      expect((await outsider.get(`/api/fleets/${other}/fuel-fillings/${theirs.id}`)).body.volume).toBe(7);
    });
  });

  describe('custom fields of owner type f', () => {
    it('takes values of fuel-filling fields only, checked as for services', async () => {
      const define = async (body: object) =>
        (await manager.post(`/api/fleets/${fx.fleetId}/custom-fields`, body)).body;
      const card = await define({ n: 'Fuel card Fuelfix', tp: 2, t: 'f', s: { options: ['A', 'B'] } });
      const serviceField = await define({ n: 'Service only Fuelfix', tp: 1, t: 's' });
      const uid = await fx.unit();
      const ok = await created({
        uid,
        date: '2024-08-02',
        volume: 1,
        price: 1,
        cf: [{ id: card.id, v: 'B' }],
      });
      expect(ok.cf).toEqual([{ id: card.id, v: 'B' }]);
      const bad = await create({
        uid,
        volume: 1,
        price: 1,
        cf: [
          { id: card.id, v: 'C' },
          { id: serviceField.id, v: 'x' },
        ],
      });
      expect(bad.status).toBe(400);
      expect(issueFields(bad.body)).toEqual(['body.cf.0.v', 'body.cf.1.id']);
      const put = await manager.put(`${fx.base}/${ok.id}`, { cf: [{ id: card.id, v: 'C' }] });
      expect(issueFields(put.body)).toEqual(['body.cf.0.v']);
    });

    it("counts fillings' values when a field is deleted, and removes them with safe=0", async () => {
      const field = (
        await manager.post(`/api/fleets/${fx.fleetId}/custom-fields`, {
          n: 'Driver note Fuelfix',
          tp: 1,
          t: 'f',
        })
      ).body;
      const f = await created({
        uid: await fx.unit(),
        volume: 1,
        price: 1,
        cf: [{ id: field.id, v: 'note' }],
      });
      const safe = await manager.delete(`/api/custom-fields/${field.id}`);
      expect(safe.status).toBe(409);
      expect(safe.body.details).toEqual([{ id: field.id, reason: expect.any(String), values: 1 }]);
      const events = await EventsClient.connect(t.url, viewer.ssid);
      try {
        expect((await manager.delete(`/api/custom-fields/${field.id}?safe=0`)).body).toEqual({
          error: 0,
          values: 1,
        });
        await events.next((e) => e.s === 'fuelfilling' && e.t === 'u' && (e.d as any).id === f.id);
      } finally {
        events.close();
      }
      expect((await viewer.get(`${fx.base}/${f.id}`)).body.cf).toEqual([]);
    });
  });

  describe('events', () => {
    it('records fuel.created, fuel.updated (with the figures before) and fuel.deleted in the outbox', async () => {
      const uid = await fx.unit(500);
      const mark = await outboxMark(fx.db);
      const f = await created({ uid, date: '2024-09-01 07:00', volume: '12.5', price: 2, full: 0 });
      await manager.put(`${fx.base}/${f.id}`, { volume: 20, manual_cost: '33.333', mileage: 600 });
      const refused = await manager.put(`${fx.base}/${f.id}`, { volume: -1 });
      expect(refused.status).toBe(400);
      await manager.delete(`${fx.base}/${f.id}`);
      const events = await eventsSince(fx.db, mark, ['fuel.created', 'fuel.updated', 'fuel.deleted']);
      const figures = { unitId: uid, filledAt: fx.at('2024-09-01 07:00'), volumeUnit: 1, full: false };
      const by = t.demo.users.manager;
      expect(events).toEqual([
        {
          id: expect.any(String),
          type: 'fuel.created',
          fid: fx.fleetId,
          at: expect.any(Number),
          by,
          fillingId: f.id,
          ...figures,
          volume: 12_500,
          cost: 25_000,
          mileage: 500,
        },
        {
          id: expect.any(String),
          type: 'fuel.updated',
          fid: fx.fleetId,
          at: expect.any(Number),
          by,
          fillingId: f.id,
          ...figures,
          volume: 20_000,
          cost: 33_333,
          mileage: 600,
          before: { ...figures, volume: 12_500, cost: 25_000, mileage: 500 },
        },
        {
          id: expect.any(String),
          type: 'fuel.deleted',
          fid: fx.fleetId,
          at: expect.any(Number),
          by,
          fillingId: f.id,
          ...figures,
          volume: 20_000,
          cost: 33_333,
          mileage: 600,
        },
      ]);
    });

    it('publishes live fuelfilling events to those who may view fillings', async () => {
      const events = await EventsClient.connect(t.url, viewer.ssid);
      try {
        const f = await created({ uid: await fx.unit(), date: '2024-09-02', volume: 3, price: 1 });
        const c = await events.next((e) => e.s === 'fuelfilling' && e.t === 'c' && (e.d as any).id === f.id);
        expect(c).toMatchObject({ fid: fx.fleetId, d: { volume: 3, total_cost: 3 } });
        await manager.put(`${fx.base}/${f.id}`, { volume: 4 });
        await events.next((e) => e.s === 'fuelfilling' && e.t === 'u' && (e.d as any).volume === 4);
        await manager.delete(`${fx.base}/${f.id}`);
        await events.next((e) => e.s === 'fuelfilling' && e.t === 'd' && (e.d as any).id === f.id);
      } finally {
        events.close();
      }
    });
  });
});
