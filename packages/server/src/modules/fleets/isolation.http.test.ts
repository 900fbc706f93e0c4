import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountOf,
  type Client,
  createFleet,
  createUnit,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/**
 * DESIGN §5: a user never reads or changes another fleet's data, whatever ids it sends. Every refused
 * write is followed by a look at the database to prove that nothing changed.
 */
describe('other fleets stay invisible', () => {
  let t: TestServer;
  let sessions: Record<string, Client>;
  let demo: { fleet: number; units: number[]; drivers: number[]; trailers: number[] };
  let north: { fleet: number; units: number[]; drivers: number[]; trailers: number[] };

  const ids = async (table: 'units' | 'drivers' | 'trailers', fleetId: number) =>
    (
      await t.server.ctx.db.kysely
        .selectFrom(table)
        .select('id')
        .where('fleet_id', '=', fleetId)
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
  const objectsOf = async (fleet: number) => ({
    fleet,
    units: await ids('units', fleet),
    drivers: await ids('drivers', fleet),
    trailers: await ids('trailers', fleet),
  });
  /** Everything a refused call could have changed, for a before/after comparison. */
  const snapshot = async () => {
    const db = t.server.ctx.db.kysely;
    return {
      fleets: await db.selectFrom('fleets').selectAll().orderBy('id').execute(),
      members: await db
        .selectFrom('fleet_users')
        .selectAll()
        .orderBy('fleet_id')
        .orderBy('user_id')
        .execute(),
      units: await db.selectFrom('units').selectAll().orderBy('id').execute(),
      drivers: await db.selectFrom('drivers').selectAll().orderBy('id').execute(),
      trailers: await db.selectFrom('trailers').selectAll().orderBy('id').execute(),
      corrections: await db.selectFrom('counter_corrections').selectAll().execute(),
    };
  };

  beforeAll(async () => {
    t = await startTestServer();
    sessions = {};
    for (const name of ['root', 'admin', 'manager', 'mechanic', 'viewer', 'outsider']) {
      sessions[name] = await t.login(name);
    }
    demo = await objectsOf(t.demo.fleetId);
    north = await objectsOf(t.demo.otherFleetId);
  });
  afterAll(() => t.close());

  /** Reads and writes of `target`'s objects by id, every one of which must be refused (403, or 404). */
  function foreignCalls(target: typeof demo, own: number) {
    const f = target.fleet;
    const [unit, driver, trailer] = [target.units[0]!, target.drivers[0]!, target.trailers[0]!];
    return [
      ['GET', `/api/fleets/${f}/units`],
      ['GET', `/api/fleets/${f}/drivers`],
      ['GET', `/api/fleets/${f}/trailers`],
      ['GET', `/api/fleets/${f}/users`],
      ['GET', `/api/fleets/${f}/user/drivers`],
      ['GET', `/api/fleets/${f}/user/trailers`],
      ['PUT', `/api/fleets/${f}`, { n: 'Taken over' }],
      ['PUT', `/api/fleets/${f}/users`, { users: [] }],
      ['PUT', `/api/fleets/${f}/entities`, { units: target.units, drivers: [], trailers: [] }],
      ['PUT', `/api/fleets/${f}/units/${unit}`, { nm: 'Taken over', cnm: 1 }],
      // Addressed by record alone: a driver or trailer of a fleet the caller cannot see is not found.
      ['PUT', `/api/drivers/${driver}`, { n: 'Taken over' }, 404],
      ['PUT', `/api/trailers/${trailer}`, { n: 'Taken over' }, 404],
      ['POST', `/api/fleets/${f}/pullcounters`, {}],
      // The caller's own fleet in the path, the other fleet's unit as the id: not found there.
      ['PUT', `/api/fleets/${own}/units/${unit}`, { nm: 'Taken over' }, 404],
    ] as [string, string, unknown?, number?][];
  }

  async function expectAllRefused(client: Client, calls: ReturnType<typeof foreignCalls>) {
    const before = await snapshot();
    for (const [method, url, body, status = 403] of calls) {
      const res = await client.request(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(status);
      expect(res.body.error, `${method} ${url}`).toBe(status === 403 ? 7 : 5);
    }
    expect(await snapshot()).toEqual(before);
  }

  it('the outsider cannot read or change anything of the demo fleet by id', async () => {
    await expectAllRefused(sessions.outsider!, foreignCalls(demo, north.fleet));
  });

  it.each(['manager', 'admin'])('the demo %s cannot touch Northwind’s objects', async (name) => {
    await expectAllRefused(sessions[name]!, foreignCalls(north, demo.fleet));
  });

  it('the super user does see Northwind (sanity check of the calls above)', async () => {
    const res = await sessions.root!.get(`/api/fleets/${north.fleet}/units`);
    expect(res.status).toBe(200);
    expect(res.body.units.map((u: { id: number }) => u.id)).toEqual(north.units);
  });

  it('the outsider cannot make the demo fleet its current one: error 3, as for an unknown fleet', async () => {
    const res = await sessions.outsider!.put('/api/user/fleet', { fid: demo.fleet });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(3);
    expect((await sessions.outsider!.get('/api/fleets')).body.fleets.map((f: any) => f.id)).toEqual([
      north.fleet,
    ]);
  });

  it('GET /api/user/units lists only what each user may see', async () => {
    const seen = async (name: string) =>
      (await sessions[name]!.get('/api/user/units')).body.units.map((u: { id: number }) => u.id);
    expect(await seen('root')).toEqual([...demo.units, ...north.units].sort((a, b) => a - b));
    for (const name of ['admin', 'manager', 'mechanic', 'viewer'])
      expect(await seen(name), name).toEqual(demo.units);
    expect(await seen('outsider')).toEqual(north.units);
  });

  it('binding another account’s unit is 409 error 10 with details, and nothing changes', async () => {
    const before = await snapshot();
    const res = await sessions.outsider!.put(`/api/fleets/${north.fleet}/entities`, {
      units: [...north.units, demo.units[0]],
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 10,
      reason: 'Some objects cannot be bound',
      details: [{ kind: 'units', id: demo.units[0], reason: 'Unknown object' }],
    });
    expect(await snapshot()).toEqual(before);
  });

  it('a demo admin binding Northwind objects gets 409 too, and the valid part is not applied', async () => {
    const before = await snapshot();
    // Units: a valid change (one leaves); trailers: a foreign one. All or nothing.
    const res = await sessions.manager!.put(`/api/fleets/${demo.fleet}/entities`, {
      units: demo.units.slice(1),
      trailers: [...demo.trailers, north.trailers[0]],
    });
    expect(res.status).toBe(409);
    expect(res.body.details).toEqual([{ kind: 'trailers', id: north.trailers[0], reason: 'Unknown object' }]);
    expect(await snapshot()).toEqual(before);
  });

  it('a unit of another fleet of the same account is a conflict, not a move', async () => {
    const account = await accountOf(t, 'admin');
    const depot = await createFleet(t, account, 'Depot fleet');
    const parked = await createUnit(t, { accountId: account, fleetId: depot, name: 'Depot loader' });
    const before = await snapshot();
    const res = await sessions.admin!.put(`/api/fleets/${demo.fleet}/entities`, {
      units: [...demo.units, parked],
    });
    expect(res.status).toBe(409);
    expect(res.body.details).toEqual([
      { kind: 'units', id: parked, reason: 'Object belongs to another fleet' },
    ]);
    expect(await snapshot()).toEqual(before);
    // The fleet member without account rights does not see the depot's unit at all.
    const managerUnits = (await sessions.manager!.get('/api/user/units')).body.units;
    expect(managerUnits.map((u: { id: number }) => u.id)).not.toContain(parked);
  });
});
