import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/** Service objects: binding, unit update, drivers and trailers, pulled counters (PRODUCT.md). */
describe('service objects', () => {
  let t: TestServer;
  let admin: Client;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let base: string;

  beforeAll(async () => {
    t = await startTestServer();
    [admin, manager, mechanic, viewer] = await Promise.all([
      t.login('admin'),
      t.login('manager'),
      t.login('mechanic'),
      t.login('viewer'),
    ]);
    base = `/api/fleets/${t.demo.fleetId}`;
  });
  afterAll(() => t.close());

  const units = async (client: Client = admin) => (await client.get(`${base}/units`)).body.units as any[];
  const unitIds = async () => (await units()).map((u) => u.id as number);
  const unit = async (id: number) => (await units()).find((u) => u.id === id);
  /** The n-th unit of the demo fleet; each test takes its own so that none sees another's changes. */
  const nthUnit = async (n: number) => (await units())[n];
  const fieldsOf = (body: any) => body.details.map((d: { field: string }) => d.field).sort();
  /** customfields: a text field of the demo fleet for this owner type (values are checked since 007). */
  const textField = async (t_: 'u' | 'd' | 't', n: string) =>
    (await admin.post(`${base}/custom-fields`, { n, tp: 1, t: t_ })).body.id as number;

  describe('PUT /api/fleets/{id}/entities', () => {
    it('removes a unit from the fleet and adds it back with its actual counters starting anew', async () => {
      const u = await nthUnit(1);
      // Drive the actual counters away from zero first: a correction, then the pulled history.
      await admin.put(`${base}/units/${u.id}`, { cnm: u.cnm + 500, cneh: u.cneh + 12 });
      await admin.post(`${base}/pullcounters`, { units: [u.id] });
      expect(await unit(u.id)).toMatchObject({ acnm: u.cnm + 500, aceh: u.cneh + 12 });

      const all = await unitIds();
      const removed = await admin.put(`${base}/entities`, { units: all.filter((x) => x !== u.id) });
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ error: 0, changed: 1 });
      expect(await unitIds()).not.toContain(u.id);
      // Out of every fleet, the unit stays the account's: its admin still sees it, fleet members do not.
      const adminUnits = (await admin.get('/api/user/units')).body.units;
      expect(adminUnits.find((x: { id: number }) => x.id === u.id)).toMatchObject({ fid: null });
      const managerUnits = (await manager.get('/api/user/units')).body.units;
      expect(managerUnits.map((x: { id: number }) => x.id)).not.toContain(u.id);
      expect((await admin.put(`${base}/units/${u.id}`, { cf: [] })).status).toBe(404);

      const added = await admin.put(`${base}/entities`, { units: all });
      expect(added.status).toBe(200);
      expect(added.body.changed).toBe(1);
      const back = await unit(u.id);
      expect(back).toMatchObject({
        fid: t.demo.fleetId,
        cnm: u.cnm + 500,
        cneh: u.cneh + 12,
        acnm: 0,
        aceh: 0,
      });
    });

    it('leaves kinds that are not given alone, and an identical binding changes nothing', async () => {
      const drivers = (await admin.get(`${base}/drivers`)).body.drivers.map((d: { id: number }) => d.id);
      const before = await unitIds();
      const res = await admin.put(`${base}/entities`, { drivers });
      expect(res.body).toEqual({ error: 0, changed: 0 });
      expect(await unitIds()).toEqual(before);
    });

    it('moves drivers and trailers out and in; unbound ones are offered for binding', async () => {
      const drivers = (await admin.get(`${base}/drivers`)).body.drivers.map((d: { id: number }) => d.id);
      const trailers = (await admin.get(`${base}/trailers`)).body.trailers.map((d: { id: number }) => d.id);
      const [driver, trailer] = [drivers[0], trailers[0]];
      const res = await admin.put(`${base}/entities`, {
        drivers: drivers.slice(1),
        trailers: trailers.slice(1),
      });
      expect(res.body.changed).toBe(2);
      const bindable = (await admin.get(`${base}/user/drivers`)).body.drivers;
      expect(bindable.find((d: { id: number }) => d.id === driver)).toMatchObject({ fid: null });
      expect(bindable).toHaveLength(drivers.length);
      // An object in no fleet answers like a foreign one: not found.
      expect((await admin.put(`/api/drivers/${driver}`, { c: 'x' })).body).toEqual({
        error: 5,
        reason: 'Driver not found',
      });
      expect((await admin.put(`/api/trailers/${trailer}`, { c: 'x' })).body).toEqual({
        error: 5,
        reason: 'Trailer not found',
      });

      await admin.put(`${base}/entities`, { drivers, trailers });
      expect((await admin.get(`${base}/drivers`)).body.drivers).toHaveLength(drivers.length);
      expect((await admin.get(`${base}/user/trailers`)).body.trailers).toHaveLength(trailers.length);
    });

    it('refuses unknown ids with 409 error 10 listing each, and changes nothing', async () => {
      const all = await unitIds();
      const res = await admin.put(`${base}/entities`, {
        units: all.slice(1),
        drivers: [999991],
        trailers: [999992],
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: 10,
        reason: 'Some objects cannot be bound',
        details: [
          { kind: 'drivers', id: 999991, reason: 'Unknown object' },
          { kind: 'trailers', id: 999992, reason: 'Unknown object' },
        ],
      });
      expect(await unitIds()).toEqual(all);
    });

    it('validates ids', async () => {
      const res = await admin.put(`${base}/entities`, { units: [1, 'two', -3] });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(['body.units.1', 'body.units.2']);
    });
  });

  describe('PUT /api/fleets/{fid}/units/{id}', () => {
    it('changes the unit type, also to unknown (null), and custom fields', async () => {
      const u = await nthUnit(2);
      const cf = await textField('u', 'Colour'); // customfields
      const res = await mechanic.put(`${base}/units/${u.id}`, { ut: 1, cf: [{ id: cf, v: 'blue' }] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: u.id, ut: 1, cf: [{ id: cf, v: 'blue' }], nm: u.nm });
      expect((await mechanic.put(`${base}/units/${u.id}`, { ut: null })).body.ut).toBeNull();
      expect(await unit(u.id)).toMatchObject({ ut: null, cf: [{ id: cf, v: 'blue' }] });
    });

    it('refuses an unknown unit type with 400 naming the field', async () => {
      const u = await nthUnit(2);
      const res = await admin.put(`${base}/units/${u.id}`, { ut: 99999 });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(4);
      expect(res.body.details).toEqual([{ field: 'body.ut', message: 'Unknown unit type' }]);
    });

    it('renames for fleet admins only: the mechanic gets 403 on nm and nothing changes', async () => {
      const u = await nthUnit(3);
      const denied = await mechanic.put(`${base}/units/${u.id}`, { nm: 'Mechanic name', ut: 2 });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toBe(7);
      expect(await unit(u.id)).toMatchObject({ nm: u.nm, ut: u.ut });
      const renamed = await admin.put(`${base}/units/${u.id}`, { nm: '  Admin name  ' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.nm).toBe('Admin name');
    });

    it('is refused to the viewer', async () => {
      const u = await nthUnit(3);
      const res = await viewer.put(`${base}/units/${u.id}`, { ut: u.ut });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 7, reason: 'Access denied' });
    });

    it('records counter corrections with who, when, old and new value', async () => {
      const u = await nthUnit(4);
      const res = await mechanic.put(`${base}/units/${u.id}`, { cnm: u.cnm + 100.5, cneh: u.cneh });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ cnm: u.cnm + 100.5, cneh: u.cneh, acnm: 100.5, aceh: 0 });
      const rows = await t.server.ctx.db.kysely
        .selectFrom('counter_corrections')
        .selectAll()
        .where('unit_id', '=', u.id)
        .execute();
      // An unchanged counter is no correction.
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        field: 'mileage',
        old_value: u.cnm,
        new_value: u.cnm + 100.5,
        user_id: t.demo.users.mechanic,
      });
      expect(rows[0]!.tm).toBeGreaterThan(Date.now() / 1000 - 600);

      await admin.put(`${base}/units/${u.id}`, { cneh: u.cneh + 1 });
      const after = await t.server.ctx.db.kysely
        .selectFrom('counter_corrections')
        .select(['field', 'old_value', 'new_value', 'user_id'])
        .where('unit_id', '=', u.id)
        .orderBy('id')
        .execute();
      expect(after[1]).toEqual({
        field: 'engine_hours',
        old_value: u.cneh,
        new_value: u.cneh + 1,
        user_id: t.demo.users.admin,
      });
    });

    it('validates counters and names', async () => {
      const u = await nthUnit(4);
      const res = await admin.put(`${base}/units/${u.id}`, { cnm: -1, cneh: 'x', nm: '' });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(['body.cneh', 'body.cnm', 'body.nm']);
    });

    it('answers 404 for a unit that is not in the fleet', async () => {
      const res = await admin.put(`${base}/units/999999`, { ut: null });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(5);
    });
  });

  describe('PUT /api/drivers/{id} and /api/trailers/{id}', () => {
    for (const kind of ['drivers', 'trailers'] as const) {
      it(`updates a ${kind.slice(0, -1)}: name trimmed, description, contact, custom fields`, async () => {
        const item = (await admin.get(`${base}/${kind}`)).body[kind][2];
        const cf = await textField(kind === 'drivers' ? 'd' : 't', 'Badge'); // customfields
        const res = await mechanic.put(`/api/${kind}/${item.id}`, {
          n: `  New ${kind}  `,
          ds: 'Night shift',
          c: '+370 600 00000',
          cf: [{ id: cf, v: 'x' }],
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          id: item.id,
          fid: t.demo.fleetId,
          n: `New ${kind}`,
          ds: 'Night shift',
          c: '+370 600 00000',
          cf: [{ id: cf, v: 'x' }],
          ins: 0,
        });
        const listed = (await viewer.get(`${base}/${kind}`)).body[kind].find((d: any) => d.id === item.id);
        expect(listed).toEqual(res.body);
      });

      it(`refuses the viewer and bad ${kind} fields`, async () => {
        const item = (await admin.get(`${base}/${kind}`)).body[kind][3];
        const denied = await viewer.put(`/api/${kind}/${item.id}`, { n: 'Viewer was here' });
        expect(denied.status).toBe(403);
        const bad = await admin.put(`/api/${kind}/${item.id}`, { n: ' ', ds: 'd'.repeat(513) });
        expect(bad.status).toBe(400);
        expect(fieldsOf(bad.body)).toEqual(['body.ds', 'body.n']);
        expect((await admin.get(`${base}/${kind}`)).body[kind][3]).toEqual(item);
      });

      it(`answers 404 for an unknown ${kind.slice(0, -1)} id`, async () => {
        const res = await admin.put(`/api/${kind}/999999`, { n: 'Ghost' });
        expect(res.status).toBe(404);
        expect(res.body.error).toBe(5);
      });
    }
  });

  describe('POST /api/fleets/{id}/pullcounters', () => {
    it('makes the actual counters the totals for the units given, and only those', async () => {
      const [a, b] = [await nthUnit(5), await nthUnit(6)];
      // Some distance since joining, so that actual and total differ before the pull.
      await admin.put(`${base}/units/${a.id}`, { cnm: a.cnm + 40, cneh: a.cneh + 2 });
      const res = await admin.post(`${base}/pullcounters`, { units: [a.id] });
      expect(res.status).toBe(200);
      expect(res.body.units).toHaveLength(1);
      expect(res.body.units[0]).toMatchObject({ id: a.id, acnm: a.cnm + 40, aceh: a.cneh + 2 });
      expect(await unit(b.id)).toMatchObject({ acnm: 0, aceh: 0 });
    });

    it('without a list, pulls every unit of the fleet; twice changes nothing more', async () => {
      const res = await manager.post(`${base}/pullcounters`, {});
      expect(res.status).toBe(200);
      expect(res.body.units).toHaveLength((await units()).length);
      for (const u of res.body.units) expect([u.acnm, u.aceh]).toEqual([u.cnm, u.cneh]);
      const again = await manager.post(`${base}/pullcounters`, {});
      expect(again.body.units).toEqual(res.body.units);
    });

    it('is for fleet admins', async () => {
      const res = await mechanic.post(`${base}/pullcounters`, {});
      expect(res.status).toBe(403);
    });
  });
});
