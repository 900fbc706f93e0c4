import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, TEST_DB, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * The lists read each service and line item as one JSON array text built by the database (list.ts):
 * every value must come back exactly as the drivers return it to the single read (load.ts
 * `loadOneWire`, row objects), whatever a writer stored: doubles that need 17 digits, text with quotes,
 * escapes, line separators and characters outside the BMP, custom values, large integers, negative zero.
 */
describe(`services lists read through JSON rows on ${TEST_DB}`, () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
  });
  afterAll(async () => {
    await t?.close();
  });

  const odd = {
    name: 'Quote " backslash \\ tab \t nl \n sep \u2028 nul-less ✓ 🚚 ü',
    description: '</script> {"json": [1, 2]} \u0001 \u007f',
    mileage: 0.1 + 0.2,
    engine_hours: 1234.5678901234567,
    limit_mileage: 412300.1 + 0.2,
    limit_engine_hours: 1e-7,
    last_mileage: -0,
    last_engine_hours: 2 ** 52 + 0.5,
    manual_cost: 2 ** 40 + 7,
    notify_days: 3,
    cf: JSON.stringify([{ id: 1, v: 'ä "x" \\ 🚚' }]),
  };

  /** The entry of a service in a list, or undefined. */
  async function inList(path: string, id: number) {
    const res = await manager.get(path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.services as { id: number }[]).find((s) => s.id === id);
  }

  it('open lists (all, per object) answer every stored value exactly as the single read', async () => {
    const uid = await fx.unit(4321.123456789012, 0.30000000000000004);
    const { body: s } = await manager.post(fx.base, {
      n: 'Odd',
      t: 'u',
      uid,
      f: 1,
      li: [
        { n: 'Ünïcode "li" 🚚', t: 2, q: 1.5, c: 3.333 },
        { n: 'Second', t: 1, q: 0.001, c: 99999.999 },
      ],
    });
    expect(s.id).toBeTypeOf('number');
    await fx.db.updateTable('services').set(odd).where('id', '=', s.id).execute();
    const one = await manager.get(`${fx.base}/${s.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      n: odd.name,
      description: odd.description,
      mileage: odd.mileage,
      engine_hours: odd.engine_hours,
      limit_mileage: odd.limit_mileage,
      limit_engine_hours: odd.limit_engine_hours,
      last_engine_hours: odd.last_engine_hours,
      cf: JSON.parse(odd.cf),
      li: [{ n: 'Ünïcode "li" 🚚', q: 1.5, c: 3.333 }, { n: 'Second' }],
    });
    expect(await inList(fx.base, s.id)).toEqual(one.body);
    expect(await inList(`${fx.base}?object_type=u&object_id=${uid}`, s.id)).toEqual(one.body);
  });

  it('the archive answers them exactly too', async () => {
    const uid = await fx.unit();
    const { body: s } = await manager.post(fx.base, {
      n: 'Odd closed',
      t: 'u',
      uid,
      f: 8,
      start_date: fx.iso(-1),
      end_date: fx.iso(-1),
      li: [{ n: 'Part', t: 2, q: 2, c: 0.005 }],
    });
    expect(s.id, JSON.stringify(s)).toBeTypeOf('number');
    await fx.db
      .updateTable('services')
      .set({ name: odd.name, description: odd.description, mileage: odd.mileage, cf: odd.cf })
      .where('id', '=', s.id)
      .execute();
    const one = await manager.get(`${fx.base}/${s.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ n: odd.name, mileage: odd.mileage, f: 8 });
    expect(await inList(`${fx.base}/archived?from=${fx.iso(-2)}&to=${fx.iso(0)}`, s.id)).toEqual(one.body);
  });

  /**
   * The tagged lists keep their rows per `services` revision and read their objects' live state on
   * every build (kept.ts): a change of either, written by another path than the lists (straight into
   * the database, as ingestion or another instance would), shows in the very next read.
   */
  describe('rows kept per services revision', () => {
    const lists = (uid: number) => [fx.base, `${fx.base}?object_type=u&object_id=${uid}`];
    async function entries(uid: number, id: number) {
      return Promise.all(lists(uid).map((path) => inList(path, id)));
    }

    it('objects’ counters and in-service marks show at once; so does an object that left the fleet', async () => {
      const uid = await fx.unit(1000, 10);
      const { body: s } = await manager.post(fx.base, { n: 'Kept', t: 'u', uid, f: 1 });
      for (const e of await entries(uid, s.id)) expect(e).toMatchObject({ current_mileage: 1000, ins: 0 });
      await fx.db
        .updateTable('units')
        .set({ mileage: 1234.5, engine_hours: 12.25 })
        .where('id', '=', uid)
        .execute();
      for (const e of await entries(uid, s.id))
        expect(e).toMatchObject({ current_mileage: 1234.5, current_engine_hours: 12.25, ins: 0 });
      await fx.db.updateTable('units').set({ ins: 1 }).where('id', '=', uid).execute();
      for (const e of await entries(uid, s.id)) expect(e).toMatchObject({ ins: 1 });
      // Another fleet's object shows no live data (spec §4 "-"), as the single read.
      await fx.db.updateTable('units').set({ fleet_id: t.demo.otherFleetId }).where('id', '=', uid).execute();
      try {
        const one = (await manager.get(`${fx.base}/${s.id}`)).body;
        expect(one).toMatchObject({ current_mileage: null, current_engine_hours: null, ins: 0 });
        expect(await inList(fx.base, s.id)).toEqual(one);
      } finally {
        await fx.db.updateTable('units').set({ fleet_id: fx.fleetId }).where('id', '=', uid).execute();
      }
      expect(await inList(fx.base, s.id)).toMatchObject({ current_mileage: 1234.5, ins: 1 });
    });

    it('drivers’ and trailers’ marks show at once', async () => {
      for (const table of ['drivers', 'trailers'] as const) {
        const { id: uid } = await fx.db
          .selectFrom(table)
          .select('id')
          .where('fleet_id', '=', fx.fleetId)
          .orderBy('id')
          .executeTakeFirstOrThrow();
        const type = table === 'drivers' ? 'd' : 't';
        const { body: s } = await manager.post(fx.base, { n: 'Kept', t: type, uid, f: 1 });
        const path = `${fx.base}?object_type=${type}&object_id=${uid}`;
        await fx.db.updateTable(table).set({ ins: 0 }).where('id', '=', uid).execute();
        expect(await inList(path, s.id)).toMatchObject({ ins: 0, current_mileage: null });
        await fx.db.updateTable(table).set({ ins: 1 }).where('id', '=', uid).execute();
        expect(await inList(path, s.id)).toMatchObject({ ins: 1, current_mileage: null });
        expect(await inList(fx.base, s.id)).toMatchObject({ ins: 1 });
        await fx.db.updateTable(table).set({ ins: 0 }).where('id', '=', uid).execute();
      }
    });

    it('services, line items and attachments changed after the rows were kept show at once', async () => {
      const uid = await fx.unit();
      const { body: s } = await manager.post(fx.base, { n: 'Before', t: 'u', uid, f: 1 });
      for (const e of await entries(uid, s.id)) expect(e).toMatchObject({ n: 'Before', ats: 0, li: [] });
      await fx.db.updateTable('services').set({ name: 'After' }).where('id', '=', s.id).execute();
      for (const e of await entries(uid, s.id)) expect(e).toMatchObject({ n: 'After' });
      const changed = await manager.put(`${fx.base}/${s.id}`, { li: [{ n: 'Line', t: 2, q: 2, c: 1.5 }] });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      for (const e of await entries(uid, s.id))
        expect(e).toMatchObject({ total_cost: 3, li: [{ n: 'Line' }] });
      await fx.attach(s.id);
      for (const e of await entries(uid, s.id)) expect(e).toMatchObject({ ats: 1 });
      await fx.db.deleteFrom('services').where('id', '=', s.id).execute();
      for (const e of await entries(uid, s.id)) expect(e).toBeUndefined();
    });
  });
});
