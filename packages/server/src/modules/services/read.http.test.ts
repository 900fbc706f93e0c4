import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, TEST_DB, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * GET .../services/{id} reads one service in one compiled query (load.ts `loadOneWire`): its reply must be
 * the very wire the lists build (line items in order, cost, attachment count, the owner's live state) for
 * every owner type, and a change written by another path must show in the very next read.
 */
describe(`one service read on ${TEST_DB}`, () => {
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

  const firstOf = async (table: 'drivers' | 'trailers') =>
    (
      await fx.db
        .selectFrom(table)
        .select('id')
        .where('fleet_id', '=', fx.fleetId)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;

  /** The open services list entry of the object, as the list builds it. */
  async function listed(type: string, uid: number, id: number) {
    const list = await manager.get(`${fx.base}?object_type=${type}&object_id=${uid}`);
    expect(list.status).toBe(200);
    return (list.body.services as { id: number }[]).find((s) => s.id === id);
  }

  it('answers the wire the list builds, for units, drivers and trailers, with 0, 1 or 3 line items', async () => {
    const uid = await fx.unit(4321.5, 77.25);
    const driver = await firstOf('drivers');
    const trailer = await firstOf('trailers');
    const cases = [
      { t: 'u', uid, li: [] as object[], manual_cost: 12.5 },
      { t: 'u', uid, li: [{ n: 'Oil', t: 2, q: 1.5, c: 3.333 }] },
      {
        t: 'u',
        uid,
        li: [
          { n: 'Zeta', t: 1, q: 2, c: 40 },
          { n: 'Alpha', t: 2, q: 1, c: 12.5 },
          { n: 'Mid', t: 2, q: 0.5, c: 0.001 },
        ],
      },
      { t: 'd', uid: driver, li: [{ n: 'Check', t: 1, q: 1, c: 20 }] },
      { t: 't', uid: trailer, li: [] },
    ];
    for (const c of cases) {
      const created = await manager.post(fx.base, { n: 'Read', f: 1, ...c });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = created.body.id as number;
      await fx.attach(id);
      await fx.attach(id);
      const one = await manager.get(`${fx.base}/${id}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(await listed(c.t, c.uid, id));
      expect(one.body).toMatchObject({ ats: 2, li: c.li.map((l) => expect.objectContaining(l)) });
      if (c.t === 'u')
        expect(one.body).toMatchObject({ current_mileage: 4321.5, current_engine_hours: 77.25 });
      else expect(one.body).toMatchObject({ current_mileage: null, current_engine_hours: null });
    }
  });

  it('shows changes written by another path at once: counters, line items, status, attachments', async () => {
    const uid = await fx.unit(100, 10);
    const { body: s } = await manager.post(fx.base, {
      n: 'Changing',
      t: 'u',
      uid,
      f: 1,
      li: [{ n: 'A', t: 2, q: 1, c: 1 }],
    });
    expect((await manager.get(`${fx.base}/${s.id}`)).body).toMatchObject({ current_mileage: 100, ats: 0 });
    await fx.db.updateTable('units').set({ mileage: 250.5 }).where('id', '=', uid).execute();
    await fx.attach(s.id);
    expect((await manager.get(`${fx.base}/${s.id}`)).body).toMatchObject({ current_mileage: 250.5, ats: 1 });
    const changed = await manager.put(`${fx.base}/${s.id}`, {
      li: [
        { n: 'B', t: 1, q: 2, c: 5 },
        { n: 'C', t: 2, q: 1, c: 0.5 },
      ],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const read = await manager.get(`${fx.base}/${s.id}`);
    expect(read.body).toEqual(changed.body);
    expect(read.body).toMatchObject({ total_cost: 10.5, li: [{ n: 'B' }, { n: 'C' }] });
    await fx.db.updateTable('services').set({ f: 8, end_date: fx.today() }).where('id', '=', s.id).execute();
    expect((await manager.get(`${fx.base}/${s.id}`)).body).toMatchObject({ f: 8 });
  });

  it('reads only the fleet of the path: another fleet’s service, a removed one and an unknown id are 404', async () => {
    const uid = await fx.unit();
    const { body: s } = await manager.post(fx.base, { n: 'Gone', t: 'u', uid, f: 8 });
    const outsider = await t.login('outsider');
    const otherBase = `/api/fleets/${t.demo.otherFleetId}/services`;
    expect((await outsider.get(`${otherBase}/${s.id}`)).status).toBe(404);
    expect((await manager.get(`${fx.base}/${s.id}`)).status).toBe(200);
    await manager.request('DELETE', `${fx.base}/archived/${s.id}`);
    expect((await manager.get(`${fx.base}/${s.id}`)).status).toBe(404);
    expect((await manager.get(`${fx.base}/999999999`)).status).toBe(404);
  });
});
