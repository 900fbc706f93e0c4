import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { eventsSince, outboxMark } from '../../test/domain-events.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/** Vehicle assignments (modules/assignments; docs/product.md "Vehicle assignments"). */
describe('vehicle assignments', () => {
  let t: TestServer;
  let manager: Client;
  let viewer: Client;
  let outsider: Client;
  let fid: number;
  const base = () => `/api/fleets/${fid}/vehicle-assignments`;
  const unitNamed = async (name: string, fleetId = fid) =>
    t.server.ctx.db.kysely
      .selectFrom('units')
      .select(['id', 'mileage', 'engine_hours'])
      .where('fleet_id', '=', fleetId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await startTestServer();
    fid = t.demo.fleetId;
    manager = await t.login('manager');
    viewer = await t.login('viewer');
    outsider = await t.login('outsider');
  });
  afterAll(async () => t.close());

  it('creates an open assignment with the unit’s meters, reads, ends and deletes it', async () => {
    const unit = await unitNamed('Volvo FH16 #1');
    const mark = await outboxMark(t.server.ctx.db.kysely);
    const before = now();
    const created = await manager.post(base(), { uid: unit.id, drv: t.demo.users.viewer });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      uid: unit.id,
      drv: t.demo.users.viewer,
      dn: 'Vera Viewer',
      en: null,
      sm: unit.mileage,
      seh: unit.engine_hours,
      em: null,
      eeh: null,
      cur: true,
    });
    expect(created.body.st).toBeGreaterThanOrEqual(before);
    const id = created.body.id;

    // Any member reads it; the current filter and the unit filter find it.
    const one = await viewer.get(`${base()}/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created.body);
    const current = await viewer.get(`${base()}?current=1&unit=${unit.id}`);
    expect(current.body.assignments.map((a: { id: number }) => a.id)).toEqual([id]);
    const past = await viewer.get(`${base()}?current=0&unit=${unit.id}`);
    expect(past.body.assignments).toEqual([]);
    const byDriver = await viewer.get(`${base()}?driver=${t.demo.users.viewer}`);
    expect(byDriver.body.assignments.map((a: { id: number }) => a.id)).toEqual([id]);

    // The counters move; ending takes them as the end meters.
    await t.server.ctx.db.kysely
      .updateTable('units')
      .set({ mileage: unit.mileage + 250, engine_hours: unit.engine_hours + 5 })
      .where('id', '=', unit.id)
      .execute();
    const end = created.body.st + 3600;
    const ended = await manager.put(`${base()}/${id}`, { en: end });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ en: end, em: unit.mileage + 250, eeh: unit.engine_hours + 5 });
    // Meters given are kept as given.
    const fixed = await manager.put(`${base()}/${id}`, { em: unit.mileage + 240.5 });
    expect(fixed.body).toMatchObject({ en: end, em: unit.mileage + 240.5 });

    const events = await eventsSince(t.server.ctx.db.kysely, mark, [
      'assignment.created',
      'assignment.updated',
      'assignment.deleted',
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'assignment.created',
      'assignment.updated',
      'assignment.updated',
    ]);
    expect(events[1]).toMatchObject({
      assignmentId: id,
      unitId: unit.id,
      end,
      fid,
      by: t.demo.users.manager,
    });

    expect((await manager.delete(`${base()}/${id}`)).body).toEqual({ error: 0 });
    expect((await manager.get(`${base()}/${id}`)).status).toBe(404);
    expect((await manager.delete(`${base()}/${id}`)).status).toBe(404);
  });

  it('accepts the assignment as read back (GET → PUT round trip) and refuses a new unit', async () => {
    const unit = await unitNamed('Volvo FH16 #1');
    const other = await unitNamed('MAN TGX 18.510');
    const created = await manager.post(base(), {
      uid: unit.id,
      drv: t.demo.users.mechanic,
      st: 1_000_000,
      en: 1_100_000,
      sm: 1000,
      seh: 10,
      em: 1500,
      eeh: 20,
    });
    expect(created.status).toBe(200);
    const read = (await manager.get(`${base()}/${created.body.id}`)).body;
    const back = await manager.put(`${base()}/${read.id}`, read);
    expect(back.status).toBe(200);
    expect(back.body).toEqual(read);
    const moved = await manager.put(`${base()}/${read.id}`, { ...read, uid: other.id });
    expect(moved.status).toBe(400);
    expect(moved.body.details).toEqual([{ field: 'body.uid', message: 'Cannot be changed' }]);
    // Reopening drops the end meters.
    const reopened = await manager.put(`${base()}/${read.id}`, { en: null });
    expect(reopened.body).toMatchObject({ en: null, em: null, eeh: null });
    await manager.delete(`${base()}/${read.id}`);
  });

  it('refuses bad input: end before start, a driver who is no member, a unit of another fleet', async () => {
    const unit = await unitNamed('Volvo FH16 #1');
    const foreign = await unitNamed('Northwind Van 1', t.demo.otherFleetId);
    const backwards = await manager.post(base(), {
      uid: unit.id,
      drv: t.demo.users.viewer,
      st: 2000,
      en: 1000,
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toBe(4);
    const stranger = await manager.post(base(), { uid: unit.id, drv: t.demo.users.outsider });
    expect(stranger.status).toBe(400);
    expect(stranger.body.details).toEqual([
      { field: 'body.drv', message: 'The driver is not a member of the fleet' },
    ]);
    const elsewhere = await manager.post(base(), { uid: foreign.id, drv: t.demo.users.viewer });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.details).toEqual([{ field: 'body.uid', message: 'Unknown unit' }]);
    const count = await t.server.ctx.db.kysely
      .selectFrom('vehicle_assignments')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('unit_id', 'in', [unit.id, foreign.id])
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('never lets one unit’s assignments overlap (409 naming the clashing one)', async () => {
    const unit = await unitNamed('Mercedes Actros');
    const first = await manager.post(base(), {
      uid: unit.id,
      drv: t.demo.users.viewer,
      st: 2_000_000,
      en: 2_100_000,
    });
    expect(first.status).toBe(200);
    const inside = await manager.post(base(), {
      uid: unit.id,
      drv: t.demo.users.mechanic,
      st: 2_050_000,
      en: 2_060_000,
    });
    expect(inside.status).toBe(409);
    expect(inside.body).toMatchObject({ error: 10, details: [{ id: first.body.id, kind: 'assignment' }] });
    // An open one starting before its end clashes too; one starting at its end does not.
    const open = await manager.post(base(), { uid: unit.id, drv: t.demo.users.mechanic, st: 2_099_999 });
    expect(open.status).toBe(409);
    const after = await manager.post(base(), {
      uid: unit.id,
      drv: t.demo.users.mechanic,
      st: 2_100_000,
      en: 2_150_000,
    });
    expect(after.status).toBe(200);
    // Stretching the first into the next is refused; another unit is free.
    const stretched = await manager.put(`${base()}/${first.body.id}`, { en: 2_200_000 });
    expect(stretched.status).toBe(409);
    expect(stretched.body.details[0].id).toBe(after.body.id);
    const other = await unitNamed('Ford Transit');
    const free = await manager.post(base(), {
      uid: other.id,
      drv: t.demo.users.viewer,
      st: 2_050_000,
      en: 2_060_000,
    });
    expect(free.status).toBe(200);
    await t.server.ctx.db.kysely
      .deleteFrom('vehicle_assignments')
      .where('fleet_id', '=', fid)
      .where('start_at', '>=', 2_000_000)
      .where('start_at', '<', 3_000_000)
      .execute();
  });

  it('lets one of several concurrent overlapping creates win', async () => {
    const unit = await unitNamed('Iveco S-Way');
    const drivers = [t.demo.users.viewer, t.demo.users.mechanic, t.demo.users.manager];
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        manager.post(base(), { uid: unit.id, drv: drivers[i % 3], st: 3_000_000 + i * 10 }),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    const rows = await t.server.ctx.db.kysely
      .selectFrom('vehicle_assignments')
      .select('id')
      .where('unit_id', '=', unit.id)
      .execute();
    expect(rows).toHaveLength(1);
    await t.server.ctx.db.kysely.deleteFrom('vehicle_assignments').where('unit_id', '=', unit.id).execute();
  });

  it('hides other fleets’ assignments and refuses writes without the right', async () => {
    const theirs = await outsider.post(`/api/fleets/${t.demo.otherFleetId}/vehicle-assignments`, {
      uid: (await unitNamed('Northwind Van 1', t.demo.otherFleetId)).id,
      drv: t.demo.users.outsider,
    });
    expect(theirs.status).toBe(200);
    const id = theirs.body.id;
    expect((await manager.get(`${base()}/${id}`)).status).toBe(404);
    expect((await manager.put(`${base()}/${id}`, { en: null })).status).toBe(404);
    expect((await manager.delete(`${base()}/${id}`)).status).toBe(404);
    const listed = await manager.get(base());
    expect(listed.body.assignments.some((a: { id: number }) => a.id === id)).toBe(false);
    expect((await outsider.get(base())).status).toBe(403);
    const unit = await unitNamed('Volvo FH16 #1');
    const refused = await viewer.post(base(), { uid: unit.id, drv: t.demo.users.viewer });
    expect(refused.status).toBe(403);
  });
});
