import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { EventsClient } from '../../test/events-client.js';
import { accountOf, type Client, type TestServer } from '../../test/harness.js';
import * as fixture from '../../test/removal-fixture.js';

/**
 * Creating and removing service objects (PRODUCT.md "Service objects and
 * counters"): units with a unique device identifier and starting counters, drivers, trailers, and the
 * removal rule (assignments and open services go, the archive stays unless asked).
 */
describe('service objects: create and delete', () => {
  let t: TestServer;
  let admin: Client;
  let manager: Client;
  let mechanic: Client;
  let outsider: Client;
  let base: string;
  let demoAccount: number;

  beforeAll(async () => {
    ({ t, admin, manager, mechanic, outsider, base, demoAccount } = await fixture.startObjectsAdmin());
  });
  afterAll(() => t.close());

  const db = () => t.server.ctx.db.kysely;
  const unitIn = async (client: Client, id: number) =>
    ((await client.get(`${base}/units`)).body.units as { id: number }[]).find((u) => u.id === id) as any;
  const makeUnit = async (uid: string, extra: Record<string, unknown> = {}) => {
    const res = await admin.post(`${base}/units`, { nm: `Unit ${uid}`, uid, ut: null, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  const seedService = (type: 'u' | 'd' | 't', objectId: number, f: number, assignmentId: number | null) =>
    fixture.seedService(db(), t.demo.fleetId, type, objectId, f, assignmentId);
  const servicesOf = (type: 'u' | 'd' | 't', objectId: number) => fixture.servicesOf(db(), type, objectId);
  const withMaintenance = (type: 'u' | 'd' | 't', objectId: number, name: string) =>
    fixture.withMaintenance(db(), t.demo.fleetId, type, objectId, name);

  describe('POST /api/fleets/{id}/units', () => {
    it('creates a unit with starting counters recorded as a hand correction', async () => {
      const unit = await makeUnit('new-1', { cnm: 1234.5, cneh: 10 });
      expect(unit).toMatchObject({
        nm: 'Unit new-1',
        fid: t.demo.fleetId,
        uid: 'new-1',
        ut: null,
        cnm: 1234.5,
        cneh: 10,
        acnm: 0,
        aceh: 0,
        lmsg: null,
        pos: null,
        ins: 0,
      });
      expect(await unitIn(manager, unit.id)).toEqual(unit);
      const corrections = await db()
        .selectFrom('counter_corrections')
        .select(['field', 'old_value', 'new_value', 'user_id'])
        .where('unit_id', '=', unit.id)
        .orderBy('field')
        .execute();
      const adminId = (
        await db().selectFrom('users').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow()
      ).id;
      expect(corrections).toEqual([
        { field: 'engine_hours', old_value: 0, new_value: 10, user_id: adminId },
        { field: 'mileage', old_value: 0, new_value: 1234.5, user_id: adminId },
      ]);
      const row = await db()
        .selectFrom('units')
        .selectAll()
        .where('id', '=', unit.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        account_id: demoAccount,
        counter_off_mileage: 1234.5,
        counter_off_engine_hours: 10,
      });
      // The starting counters are the history before joining: pulling it counts them as actual.
      const pulled = await admin.post(`${base}/pullcounters`, { units: [unit.id] });
      expect(pulled.body.units[0]).toMatchObject({ acnm: 1234.5, aceh: 10 });
    });

    it('without starting counters, records no correction', async () => {
      const unit = await makeUnit('new-2');
      expect(unit).toMatchObject({ cnm: 0, cneh: 0, acnm: 0, aceh: 0 });
      const corrections = await db()
        .selectFrom('counter_corrections')
        .select('id')
        .where('unit_id', '=', unit.id)
        .execute();
      expect(corrections).toEqual([]);
    });

    it('an OsmAnd reading for the new device id moves its mileage', async () => {
      const unit = await makeUnit('trk-1', { cnm: 500 });
      const reading = new URLSearchParams({
        deviceid: 'trk-1',
        timestamp: String(now() - 60),
        lat: '53.9',
        lon: '27.56',
        odometer: String(512_500),
      });
      const res = await fetch(`${t.url}/api/ingest/osmand`, { method: 'POST', body: reading });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(await unitIn(manager, unit.id)).toMatchObject({
        cnm: 512.5,
        acnm: 12.5,
        pos: { y: 53.9, x: 27.56 },
      });
    });

    it('refuses a device identifier in use anywhere in the installation (409 error 10)', async () => {
      await makeUnit('dup-1');
      const before = (await admin.get(`${base}/units`)).body.units.length;
      for (const uid of ['dup-1', 'demo-001', 'northwind-1', '  northwind-2  ']) {
        const res = await admin.post(`${base}/units`, { nm: 'Copy', uid, ut: null });
        expect(res.status, uid).toBe(409);
        expect(res.body).toMatchObject({ error: 10, details: [{ field: 'body.uid' }] });
      }
      expect((await admin.get(`${base}/units`)).body.units.length).toBe(before);
    });

    it('a new device identifier takes the readings; the old one is free; a taken one is refused', async () => {
      const unit = await makeUnit('swap-old');
      const url = `${base}/units/${unit.id}/device`;
      expect((await admin.put(url, { uid: 'demo-001' })).status).toBe(409);
      expect((await admin.put(url, { uid: '' })).status).toBe(400);
      expect((await mechanic.put(url, { uid: 'swap-x' })).status).toBe(403);
      const res = await admin.put(url, { uid: '  swap-new ' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: unit.id, uid: 'swap-new' });
      // The same identifier again changes nothing.
      expect((await admin.put(url, { uid: 'swap-new' })).body.uid).toBe('swap-new');
      const reading = new URLSearchParams({
        deviceid: 'swap-new',
        timestamp: String(now() - 30),
        lat: '52.1',
        lon: '21.0',
      });
      const ingest = await fetch(`${t.url}/api/ingest/osmand`, { method: 'POST', body: reading });
      expect(ingest.status).toBe(200);
      expect(await unitIn(manager, unit.id)).toMatchObject({ uid: 'swap-new', pos: { y: 52.1, x: 21 } });
      // The old identifier can be given to another unit at once.
      expect((await makeUnit('swap-old')).uid).toBe('swap-old');
      // Another fleet's unit is not reachable through this fleet.
      const northwind = (await outsider.get(`/api/fleets/${t.demo.otherFleetId}/units`)).body.units[0];
      expect((await admin.put(`${base}/units/${northwind.id}/device`, { uid: 'swap-z' })).status).toBe(404);
    });

    it('validates the body', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ uid: 'v-1' }, 'body.nm'],
        [{ nm: 'x' }, 'body.uid'],
        [{ nm: 'x', uid: ' ' }, 'body.uid'],
        [{ nm: 'x', uid: 'v'.repeat(129) }, 'body.uid'],
        [{ nm: 'x', uid: 'v-1', cnm: -1 }, 'body.cnm'],
        [{ nm: 'x', uid: 'v-1', cneh: 'ten' }, 'body.cneh'],
        [{ nm: 'x', uid: 'v-1', ut: 999_999 }, 'body.ut'],
      ];
      for (const [body, field] of cases) {
        const res = await admin.post(`${base}/units`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });

    it('never takes the fleet or the account from the body', async () => {
      const northwind = await accountOf(t, 'outsider');
      const unit = await makeUnit('mass-1', {
        fid: t.demo.otherFleetId,
        fleet_id: t.demo.otherFleetId,
        aid: northwind,
        account_id: northwind,
        acnm: 99,
        ins: 1,
      });
      expect(unit).toMatchObject({ fid: t.demo.fleetId, acnm: 0, ins: 0 });
      const row = await db()
        .selectFrom('units')
        .selectAll()
        .where('id', '=', unit.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ account_id: demoAccount, fleet_id: t.demo.fleetId });
    });

    it('is the fleet admin’s: an editor and an outsider are refused', async () => {
      for (const client of [mechanic, outsider]) {
        const res = await client.post(`${base}/units`, { nm: 'No', uid: 'no-1', ut: null });
        expect(res.status).toBe(403);
      }
      // The manager holds the admin bit on the demo fleet, not on Northwind's.
      expect((await manager.post(`${base}/units`, { nm: 'Yes', uid: 'mgr-1', ut: null })).status).toBe(200);
      const other = await manager.post(`/api/fleets/${t.demo.otherFleetId}/units`, { nm: 'No', uid: 'no-2' });
      expect(other.status).toBe(403);
    });
  });

  describe('DELETE /api/fleets/{fid}/units/{id}', () => {
    it('drops assignments and open services, keeps the archive, and announces it', async () => {
      const unit = await makeUnit('del-1', { cnm: 10 });
      const m = await withMaintenance('u', unit.id, 'Delete keeps archive');
      const { auth } = await t.signIn('manager');
      const events = await EventsClient.connect(t.url, auth.session);
      try {
        const res = await admin.delete(`${base}/units/${unit.id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ error: 0, services: 2 });
        await events.next((e) => e.s === 'avl_unit' && e.t === 'd' && (e.d as { id: number }).id === unit.id);
        await events.next((e) => e.s === 'service' && e.t === 'd' && (e.d as { id: number }).id === m.due);
      } finally {
        events.close();
      }
      expect(await unitIn(admin, unit.id)).toBeUndefined();
      expect(await servicesOf('u', unit.id)).toEqual([{ id: m.archived, f: 8 }]);
      const assignments = await db()
        .selectFrom('assignments')
        .select('id')
        .where('id', '=', m.assignmentId)
        .execute();
      expect(assignments).toEqual([]);
      expect(
        await db().selectFrom('counter_corrections').select('id').where('unit_id', '=', unit.id).execute(),
      ).toEqual([]);
      // The device identifier is free again.
      expect((await admin.post(`${base}/units`, { nm: 'Again', uid: 'del-1', ut: null })).status).toBe(200);
    });

    it('deletes the archived services too when asked', async () => {
      const unit = await makeUnit('del-2');
      await withMaintenance('u', unit.id, 'Delete with archive');
      const res = await admin.delete(`${base}/units/${unit.id}?archive=delete`);
      expect(res.body).toEqual({ error: 0, services: 3 });
      expect(await servicesOf('u', unit.id)).toEqual([]);
    });

    it('refuses while a service of the unit is in progress, changing nothing', async () => {
      const unit = await makeUnit('del-3');
      const m = await withMaintenance('u', unit.id, 'Delete in progress');
      await seedService('u', unit.id, 2, null);
      const res = await admin.delete(`${base}/units/${unit.id}`);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(10);
      expect(await unitIn(admin, unit.id)).toBeDefined();
      expect((await servicesOf('u', unit.id)).length).toBe(4);
      expect(
        await db().selectFrom('assignments').select('id').where('id', '=', m.assignmentId).execute(),
      ).toHaveLength(1);
    });

    it("is refused to editors and outsiders, and cannot reach another fleet's unit", async () => {
      const unit = await makeUnit('del-4');
      expect((await mechanic.delete(`${base}/units/${unit.id}`)).status).toBe(403);
      expect((await outsider.delete(`${base}/units/${unit.id}`)).status).toBe(403);
      const northwindUnit = await db()
        .selectFrom('units')
        .select('id')
        .where('fleet_id', '=', t.demo.otherFleetId)
        .executeTakeFirstOrThrow();
      // Through the demo fleet, Northwind's unit is not found; through Northwind's fleet, access is denied.
      expect((await admin.delete(`${base}/units/${northwindUnit.id}`)).status).toBe(404);
      expect(
        (await admin.delete(`/api/fleets/${t.demo.otherFleetId}/units/${northwindUnit.id}`)).status,
      ).toBe(403);
      expect(
        await db().selectFrom('units').select('id').where('id', '=', northwindUnit.id).execute(),
      ).toHaveLength(1);
      expect((await admin.delete(`${base}/units/${unit.id}?archive=all`)).status).toBe(400);
    });
  });

  it('announces new units, drivers and trailers to the fleet, not to outsiders', async () => {
    const [fleetSide, outside] = await Promise.all([t.signIn('viewer'), t.signIn('outsider')]);
    const events = await EventsClient.connect(t.url, fleetSide.auth.session);
    const foreign = await EventsClient.connect(t.url, outside.auth.session);
    try {
      const unit = await makeUnit('live-1');
      const driver = (await admin.post(`${base}/drivers`, { n: 'Live driver' })).body;
      const trailer = (await admin.post(`${base}/trailers`, { n: 'Live trailer' })).body;
      const created = (s: string, id: number) =>
        events.next((e) => e.t === 'c' && e.s === s && (e.d as { id: number }).id === id);
      expect((await created('avl_unit', unit.id)).d).toEqual(unit);
      expect((await created('driver', driver.id)).d).toEqual(driver);
      expect((await created('trailer', trailer.id)).d).toEqual(trailer);
      expect(foreign.received.filter((e) => e.fid === t.demo.fleetId)).toEqual([]);
    } finally {
      events.close();
      foreign.close();
    }
  });

  describe('GET /api/fleets/{id}/user/units', () => {
    it("lists the account's units in this fleet or in none, not Northwind's", async () => {
      const unit = await makeUnit('free-1');
      const all = ((await admin.get(`${base}/units`)).body.units as { id: number }[]).map((u) => u.id);
      await admin.put(`${base}/entities`, { units: all.filter((id) => id !== unit.id) });
      const res = await admin.get(`${base}/user/units`);
      expect(res.status).toBe(200);
      const listed = res.body.units as { id: number; fid: number | null; uid: string }[];
      expect(listed.find((u) => u.id === unit.id)).toMatchObject({ fid: null });
      expect(listed.map((u) => u.id).sort((a, b) => a - b)).toEqual([...all].sort((a, b) => a - b));
      expect(listed.some((u) => u.uid.startsWith('northwind'))).toBe(false);
      expect((await mechanic.get(`${base}/user/units`)).status).toBe(403);
      expect((await outsider.get(`${base}/user/units`)).status).toBe(403);
    });
  });
});
