import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type Client, createUnit, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * Round trip and mass assignment (spec §7 "generic store operations: update"): a fleet,
 * unit, driver, trailer or access list read with GET can be written back with one field changed, and
 * no body can set what a caller may never set (fleet, owner account, acl, su, admin, device, counters
 * the server keeps).
 */
describe('fleets: round trip and mass assignment', () => {
  let t: TestServer;
  let admin: Client;
  let mechanic: Client;
  let base: string;

  beforeAll(async () => {
    t = await startTestServer();
    [admin, mechanic] = await Promise.all([t.login('admin'), t.login('mechanic')]);
    base = `/api/fleets/${t.demo.fleetId}`;
  });
  afterAll(() => t.close());

  const db = () => t.server.ctx.db.kysely;
  const fleet = async () =>
    (await admin.get('/api/fleets')).body.fleets.find((f: { id: number }) => f.id === t.demo.fleetId);
  const units = async () => (await admin.get(`${base}/units`)).body.units as any[];
  const unit = async (id: number) => (await units()).find((u) => u.id === id);
  const people = async (kind: 'drivers' | 'trailers') =>
    (await admin.get(`${base}/${kind}`)).body[kind] as any[];
  const corrections = async (unitId: number) =>
    db().selectFrom('counter_corrections').selectAll().where('unit_id', '=', unitId).execute();

  describe('fleet settings', () => {
    it('takes the fleet as read with one field changed; only that field changes', async () => {
      const before = await fleet();
      const res = await admin.put(base, { ...before, cur: 'CHF' });
      expect(res.status).toBe(200);
      expect(await fleet()).toEqual({ ...before, cur: 'CHF' });
      expect((await admin.put(base, before)).status).toBe(200);
      expect(await fleet()).toEqual(before);
    });

    it('never applies id, acl, aid (owner account), s, or other fields', async () => {
      const before = await fleet();
      // The owner account is stored and never moved here: another `aid` is refused, naming it.
      const moved = await admin.put(base, { ...before, aid: await accountOf(t, 'outsider') });
      expect(moved.status).toBe(400);
      expect(moved.body.details).toEqual([{ field: 'body.aid', message: 'Cannot be changed' }]);
      const res = await admin.put(base, {
        ...before,
        id: t.demo.otherFleetId,
        acl: 0,
        s: 0,
        account_id: await accountOf(t, 'outsider'),
        fid: t.demo.otherFleetId,
        su: 1,
        admin: 1,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(before);
      expect(await fleet()).toEqual(before);
      const row = await db()
        .selectFrom('fleets')
        .selectAll()
        .where('id', '=', t.demo.fleetId)
        .executeTakeFirstOrThrow();
      expect(row.account_id).toBe(before.aid);
      const other = await db()
        .selectFrom('fleets')
        .select('name')
        .where('id', '=', t.demo.otherFleetId)
        .executeTakeFirstOrThrow();
      expect(other.name).not.toBe(before.n);
    });
  });

  describe('access list', () => {
    it('takes the members as read; a body cannot make anyone a super user or account admin', async () => {
      const before = (await admin.get(`${base}/users`)).body;
      const viewerId = t.demo.users.viewer!;
      const users = before.users.map((u: any) =>
        u.id === viewerId ? { ...u, su: 1, admin: 1, account_id: 1 } : u,
      );
      const res = await admin.put(`${base}/users`, { users, fid: t.demo.otherFleetId, su: 1 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(before);
      const row = await db()
        .selectFrom('users')
        .selectAll()
        .where('id', '=', viewerId)
        .executeTakeFirstOrThrow();
      expect([row.su, row.admin]).toEqual([0, 0]);
      const auth = (await t.signIn('viewer')).auth;
      expect([auth.su, auth.admin]).toEqual([0, 0]);
    });
  });

  describe('units', () => {
    it('answers an empty body with 400 "No field to change", changing nothing', async () => {
      const u = (await units())[0];
      const res = await mechanic.put(`${base}/units/${u.id}`, {});
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 4, reason: 'No field to change' });
      expect(await unit(u.id)).toEqual(u);
    });

    it('takes the unit as read with one field changed; counters as read record no correction', async () => {
      // Totals with more than three decimals go out rounded: sending them back is no correction.
      const id = await createUnit(t, {
        accountId: await accountOf(t, 'admin'),
        fleetId: t.demo.fleetId,
        name: 'Round trip van',
        mileage: 1234.56789,
        engineHours: 77.12345,
      });
      const before = await unit(id);
      expect(before).toMatchObject({ cnm: 1234.568, cneh: 77.123, ut: null });
      const res = await admin.put(`${base}/units/${id}`, { ...before, ut: 2 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...before, ut: 2 });
      expect(await unit(id)).toEqual({ ...before, ut: 2 });
      expect(await corrections(id)).toEqual([]);
      const row = await db().selectFrom('units').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect([row.mileage, row.engine_hours]).toEqual([1234.56789, 77.12345]);
      // The same record again is a no-op.
      expect((await admin.put(`${base}/units/${id}`, { ...before, ut: 2 })).body).toEqual({
        ...before,
        ut: 2,
      });
    });

    it('a mechanic writes back a unit as read without its name (renaming is the admin’s)', async () => {
      const { nm: _name, ...u } = (await units())[1];
      const res = await mechanic.put(`${base}/units/${u.id}`, { ...u, cneh: u.cneh + 1 });
      expect(res.status).toBe(200);
      const { aceh, ...after } = await unit(u.id);
      expect(after).toEqual({ ...u, aceh: undefined, nm: _name, cneh: u.cneh + 1 });
      expect(aceh).toBeCloseTo(u.aceh + 1, 3);
      expect(await corrections(u.id)).toHaveLength(1);
    });

    it('never applies fleet, device, actual counters, telematics state or the in-progress marker', async () => {
      const u = (await units())[2];
      // Fleet and device are stored and never changed here: other values are refused, naming them.
      const moved = await admin.put(`${base}/units/${u.id}`, {
        ...u,
        fid: t.demo.otherFleetId,
        uid: 'hijacked-device',
      });
      expect(moved.status).toBe(400);
      expect(moved.body.details.map((d: { field: string }) => d.field)).toEqual(['body.fid', 'body.uid']);
      expect(await unit(u.id)).toEqual(u);
      const res = await admin.put(`${base}/units/${u.id}`, {
        ...u,
        fleet_id: t.demo.otherFleetId,
        account_id: await accountOf(t, 'outsider'),
        acnm: 1,
        aceh: 1,
        prp: { x: 1 },
        prms: { x: 1 },
        lmsg: { t: 1, p: {} },
        pos: { t: 1, y: 1, x: 1, s: 1, c: 1, z: 1 },
        ins: 1,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(u);
      expect(await unit(u.id)).toEqual(u);
      const row = await db().selectFrom('units').selectAll().where('id', '=', u.id).executeTakeFirstOrThrow();
      expect([row.fleet_id, row.device_id]).toEqual([t.demo.fleetId, u.uid]);
    });
  });

  for (const kind of ['drivers', 'trailers'] as const) {
    describe(kind, () => {
      it('answers an empty body with 400 "No field to change", changing nothing', async () => {
        const item = (await people(kind))[0];
        const res = await mechanic.put(`/api/${kind}/${item.id}`, {});
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 4, reason: 'No field to change' });
        expect((await people(kind))[0]).toEqual(item);
      });

      it('takes the record as read with one field changed; only that field changes', async () => {
        const item = (await people(kind))[1];
        const res = await mechanic.put(`/api/${kind}/${item.id}`, { ...item, ds: 'Round trip' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ...item, ds: 'Round trip' });
        expect((await people(kind))[1]).toEqual({ ...item, ds: 'Round trip' });
      });

      it('never applies fleet, owner account or the in-progress marker', async () => {
        const item = (await people(kind))[2];
        const stored = () =>
          db()
            .selectFrom(kind)
            .select(['fleet_id', 'account_id', 'ins'])
            .where('id', '=', item.id)
            .executeTakeFirstOrThrow();
        const before = await stored();
        // The fleet is stored and changed by the binding only: another `fid` is refused, naming it.
        const moved = await admin.put(`/api/${kind}/${item.id}`, { ...item, fid: t.demo.otherFleetId });
        expect(moved.status).toBe(400);
        expect(moved.body.details).toEqual([{ field: 'body.fid', message: 'Cannot be changed' }]);
        expect(await stored()).toEqual(before);
        const res = await admin.put(`/api/${kind}/${item.id}`, {
          ...item,
          fleet_id: t.demo.otherFleetId,
          account_id: await accountOf(t, 'outsider'),
          ins: 1,
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(item);
        expect(await stored()).toEqual(before);
        expect(before.fleet_id).toBe(t.demo.fleetId);
      });
    });
  }

  describe('binding and pulled counters', () => {
    it('a binding body cannot name another fleet', async () => {
      const before = await units();
      const res = await admin.put(`${base}/entities`, {
        units: before.map((u) => u.id),
        fid: t.demo.otherFleetId,
        fleet_id: t.demo.otherFleetId,
      });
      expect(res.body).toEqual({ error: 0, changed: 0 });
      expect(await units()).toEqual(before);
    });

    it('a pull body cannot reach another fleet’s units', async () => {
      const outsider = await t.login('outsider');
      const otherUnits = (await outsider.get(`/api/fleets/${t.demo.otherFleetId}/units`)).body.units;
      const target = otherUnits[0];
      const pulled = () =>
        db()
          .selectFrom('units')
          .select(['pulled_mileage', 'base_mileage'])
          .where('id', '=', target.id)
          .executeTakeFirstOrThrow();
      const before = await pulled();
      expect(before.base_mileage).not.toBe(before.pulled_mileage);
      const res = await admin.post(`${base}/pullcounters`, { units: [target.id], fid: t.demo.otherFleetId });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ units: [] });
      expect(await pulled()).toEqual(before);
    });
  });

  it('the OpenAPI document gives every fleet operation its reply and marks read-only fields', async () => {
    const doc = (await t.anon.get('/api/openapi.json')).body;
    const operations: [string, string][] = [
      ['get', '/api/fleets'],
      ['put', '/api/fleets/{id}'],
      ['get', '/api/fleets/{id}/users'],
      ['put', '/api/fleets/{id}/users'],
      ['put', '/api/fleets/{id}/entities'],
      ['get', '/api/fleets/{id}/units'],
      ['get', '/api/fleets/{id}/drivers'],
      ['get', '/api/fleets/{id}/trailers'],
      ['get', '/api/fleets/{id}/user/drivers'],
      ['get', '/api/fleets/{id}/user/trailers'],
      ['put', '/api/drivers/{id}'],
      ['put', '/api/trailers/{id}'],
      ['put', '/api/fleets/{fid}/units/{id}'],
      ['post', '/api/fleets/{id}/pullcounters'],
    ];
    for (const [method, path] of operations) {
      const schema = doc.paths[path]?.[method]?.responses?.['200']?.content?.['application/json']?.schema;
      expect(schema?.properties, `${method} ${path}`).toBeDefined();
    }
    const unitBody =
      doc.paths['/api/fleets/{fid}/units/{id}'].put.requestBody.content['application/json'].schema;
    expect(unitBody.properties.fid.readOnly).toBe(true);
    expect(unitBody.properties.cnm.readOnly).toBeUndefined();
  });
});
