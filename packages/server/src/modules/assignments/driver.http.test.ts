import { ACL_DRIVER } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * The driver preset and "assigned units only" (auth/reach.ts; docs/product.md "Vehicle assignments"):
 * the demo user `driver` (core ACL_DRIVER, assigned only) is assigned the Scania R450 now.
 */
describe('a driver with assigned units only', () => {
  let t: TestServer;
  let driver: Client;
  let manager: Client;
  let fid: number;
  let truck: number;
  let other: number;
  const unitId = async (name: string) =>
    (
      await t.server.ctx.db.kysely
        .selectFrom('units')
        .select('id')
        .where('fleet_id', '=', fid)
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;
  const today = () => new Date(now() * 1000).toISOString().slice(0, 10);
  const filling = (uid: number) => ({ uid, volume: '120.5', price: 1.6, station: 'driver test' });

  beforeAll(async () => {
    t = await startTestServer();
    fid = t.demo.fleetId;
    driver = await t.login('driver');
    manager = await t.login('manager');
    truck = await unitId('Scania R450');
    other = await unitId('Volvo FH16 #1');
  });
  afterAll(async () => t.close());

  it('the access list shows the preset and keeps it through a GET → PUT round trip', async () => {
    const list = await manager.get(`/api/fleets/${fid}/users`);
    const member = list.body.users.find((u: { login: string }) => u.login === 'driver');
    expect(member).toMatchObject({ nm: 'Dan Driver', acl: ACL_DRIVER, ao: 1 });
    const drivers = await manager.get(`/api/fleets/${fid}/assignment-drivers`);
    expect(drivers.body.drivers).toContainEqual({ id: t.demo.users.driver, nm: 'Dan Driver', ao: true });
    expect(drivers.body.drivers.map((d: { nm: string }) => d.nm)).not.toContain('Oscar Outsider');
    const others = list.body.users.filter((u: { login: string }) => u.login !== 'driver');
    expect(others.every((u: { ao: number }) => u.ao === 0)).toBe(true);
    const back = await manager.put(`/api/fleets/${fid}/users`, { users: list.body.users });
    expect(back.status).toBe(200);
    expect(back.body.users).toEqual(list.body.users);
  });

  it('sees only the assigned truck, and no driver or trailer records', async () => {
    const units = await driver.get(`/api/fleets/${fid}/units`);
    expect(units.status).toBe(200);
    expect(units.body.units.map((u: { id: number }) => u.id)).toEqual([truck]);
    expect((await driver.get(`/api/fleets/${fid}/drivers`)).body.drivers).toEqual([]);
    expect((await driver.get(`/api/fleets/${fid}/trailers`)).body.trailers).toEqual([]);
    // The manager sees every unit (another variant of the same tagged list).
    expect((await manager.get(`/api/fleets/${fid}/units`)).body.units.length).toBeGreaterThan(1);
    const mine = await driver.get(`/api/fleets/${fid}/vehicle-assignments`);
    expect(mine.body.assignments.map((a: { uid: number; cur: boolean }) => [a.uid, a.cur])).toEqual([
      [truck, true],
    ]);
  });

  it('unit routes of other units answer 404, the assigned one answers', async () => {
    expect((await driver.get(`/api/fleets/${fid}/units/${truck}/meter`)).status).toBe(200);
    const refused = await driver.get(`/api/fleets/${fid}/units/${other}/meter`);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ error: 5, reason: 'Unit not found' });
    expect((await driver.get(`/api/fleets/${fid}/units/${other}/fault-codes`)).status).toBe(404);
    expect((await manager.get(`/api/fleets/${fid}/units/${other}/meter`)).status).toBe(200);
  });

  it('adds a fuel filling to the assigned truck (fuel.add), not to another unit, and edits none', async () => {
    const added = await driver.post(`/api/fleets/${fid}/fuel-fillings`, filling(truck));
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ uid: truck, station: 'driver test' });
    const elsewhere = await driver.post(`/api/fleets/${fid}/fuel-fillings`, filling(other));
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toMatchObject({ error: 5, reason: 'Unit not found' });
    // Adding is all: no list, no edit, no delete, no import.
    expect((await driver.get(`/api/fleets/${fid}/fuel-fillings?from=${today()}&to=${today()}`)).status).toBe(
      403,
    );
    expect(
      (await driver.put(`/api/fleets/${fid}/fuel-fillings/${added.body.id}`, { station: 'x' })).status,
    ).toBe(403);
    expect((await driver.delete(`/api/fleets/${fid}/fuel-fillings/${added.body.id}`)).status).toBe(403);
    expect(
      (await driver.post(`/api/fleets/${fid}/fuel-fillings/batch`, { fuel_fillings: [filling(truck)] }))
        .status,
    ).toBe(403);
    const stored = await t.server.ctx.db.kysely
      .selectFrom('fuel_fillings')
      .select(['unit_id', 'creator_id'])
      .where('station', '=', 'driver test')
      .execute();
    expect(stored).toEqual([{ unit_id: truck, creator_id: t.demo.users.driver }]);
  });

  it('with the view right added, lists the fillings of the assigned truck only', async () => {
    const db = t.server.ctx.db.kysely;
    const at = now() - 60;
    for (const unit of [truck, other])
      await manager.post(`/api/fleets/${fid}/fuel-fillings`, { ...filling(unit), tm: at, station: 'both' });
    const list = await manager.get(`/api/fleets/${fid}/users`);
    const users = list.body.users.map((u: { login: string; acl: number }) =>
      u.login === 'driver' ? { ...u, acl: u.acl | 64 | 2 } : u,
    );
    expect((await manager.put(`/api/fleets/${fid}/users`, { users })).status).toBe(200);
    const seen = await driver.get(`/api/fleets/${fid}/fuel-fillings?from=${today()}&to=${today()}`);
    expect(seen.status).toBe(200);
    const units = new Set(seen.body.fuel_fillings.map((f: { uid: number }) => f.uid));
    expect([...units]).toEqual([truck]);
    const theirs = await db
      .selectFrom('fuel_fillings')
      .select('id')
      .where('unit_id', '=', other)
      .where('station', '=', 'both')
      .executeTakeFirstOrThrow();
    expect((await driver.get(`/api/fleets/${fid}/fuel-fillings/${theirs.id}`)).status).toBe(404);
    expect((await manager.put(`/api/fleets/${fid}/users`, { users: list.body.users })).status).toBe(200);
  });

  it('reports issues of the assigned truck only and sees only its issues and inspections', async () => {
    const issues = `/api/fleets/${fid}/issues`;
    const mine = await driver.post(issues, { object_type: 'u', object_id: truck, title: 'Mirror cracked' });
    expect(mine.status).toBe(200);
    const elsewhere = await driver.post(issues, { object_type: 'u', object_id: other, title: 'Not mine' });
    expect(elsewhere.status).toBe(404);
    const theirs = await manager.post(issues, { object_type: 'u', object_id: other, title: 'Tyre worn' });
    expect(theirs.status).toBe(200);
    const listed = (await driver.get(issues)).body.issues;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((i: { object_type: string; object_id: number }) => i.object_id === truck)).toBe(true);
    expect((await driver.get(`${issues}/${theirs.body.id}`)).status).toBe(404);
    expect((await driver.get(`${issues}/${mine.body.id}`)).status).toBe(200);
    expect((await manager.get(`${issues}/${mine.body.id}`)).status).toBe(200);

    const inspections = `/api/fleets/${fid}/inspections`;
    // An inspection of another unit, as the manager would submit it (written directly: the rows only).
    const form = (await manager.get(`/api/fleets/${fid}/inspection-forms`)).body.forms[0];
    const notMine = await t.server.ctx.db.kysely
      .insertInto('inspections')
      .values({
        fleet_id: fid,
        form_id: form.id,
        form_name: form.n,
        builtin: 'dvir',
        object_type: 'u',
        object_id: other,
        mileage: null,
        engine_hours: null,
        note: '',
        items: JSON.stringify(form.items),
        results: '[]',
        signature_id: null,
        submitted_at: now(),
        submitter_id: t.demo.users.manager,
        defects: 0,
        ack_by: null,
        ack_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await manager.get(`${inspections}/${notMine.id}`)).status).toBe(200);
    const seen = (await driver.get(inspections)).body.inspections;
    expect(seen.every((i: { ot: string; oi: number }) => i.ot === 'u' && i.oi === truck)).toBe(true);
    expect((await driver.get(`${inspections}/${notMine.id}`)).status).toBe(404);
  });

  it('follows the assignments: ended, the truck is gone; assigned another, that one shows', async () => {
    const current = (await manager.get(`/api/fleets/${fid}/vehicle-assignments?current=1&unit=${truck}`)).body
      .assignments[0];
    const ended = await manager.put(`/api/fleets/${fid}/vehicle-assignments/${current.id}`, { en: now() });
    expect(ended.status).toBe(200);
    expect((await driver.get(`/api/fleets/${fid}/units`)).body.units).toEqual([]);
    expect((await driver.post(`/api/fleets/${fid}/fuel-fillings`, filling(truck))).status).toBe(404);
    const next = await manager.post(`/api/fleets/${fid}/vehicle-assignments`, {
      uid: other,
      drv: t.demo.users.driver,
    });
    expect(next.status).toBe(200);
    expect(
      (await driver.get(`/api/fleets/${fid}/units`)).body.units.map((u: { id: number }) => u.id),
    ).toEqual([other]);
    // Without "assigned units only" the same rights reach every unit.
    const list = await manager.get(`/api/fleets/${fid}/users`);
    const users = list.body.users.map((u: { login: string }) => (u.login === 'driver' ? { ...u, ao: 0 } : u));
    expect((await manager.put(`/api/fleets/${fid}/users`, { users })).status).toBe(200);
    expect((await driver.get(`/api/fleets/${fid}/units`)).body.units.length).toBeGreaterThan(1);
  });
});
