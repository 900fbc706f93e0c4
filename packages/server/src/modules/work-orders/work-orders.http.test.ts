import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { type Client, createUnit, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * Work orders through the real server (docs/product.md "Work orders"): CRUD and the GET → PUT round
 * trip, linking and unlinking issues (their status follows), due services of the object, the 409s,
 * completing (the linked service closed with its interval's baseline reset exactly as closing it
 * directly, one archived service of the unplanned work, the issues resolved, the meter and the
 * downtime kept), cancelling (issues back to open), and another fleet's work order answering 404.
 */
describe('work orders', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let api: string;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
    api = `/api/fleets/${fx.fleetId}`;
  });
  afterAll(() => t?.close());

  /** A unit with an interval far from due and a Due service of it, made by hand. */
  async function truckWithDueService(name = 'Oil change') {
    const unitId = await fx.unit(10_000, 500);
    const { ivid, aid } = await fx.assignment(unitId);
    const svc = await manager.post(`${api}/services`, { n: name, t: 'u', uid: unitId, ivid, f: 1 });
    expect(svc.status, JSON.stringify(svc.body)).toBe(200);
    return { unitId, ivid, aid, serviceId: svc.body.id as number };
  }

  async function report(unitId: number, title: string, ago = 3600) {
    const res = await viewer.post(`${api}/issues`, {
      object_type: 'u',
      object_id: unitId,
      title,
      priority: 'high',
      reported_at: now() - ago,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: number; reported_at: number };
  }

  const issue = async (id: number) => (await manager.get(`${api}/issues/${id}`)).body;

  it('makes a work order from an open issue and a due service; GET → PUT round trip; 409s', async () => {
    const { unitId, serviceId } = await truckWithDueService();
    const found = await report(unitId, 'Brakes squeal');
    const made = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: unitId,
      title: 'Brake job',
      assignee_id: t.demo.users.mechanic,
      scheduled_end: now() - 60,
      issue_ids: [found.id],
      service_ids: [serviceId],
      li: [
        { n: 'Brake pads', t: 2, q: 2, c: 45.5 },
        { n: 'Labour', t: 1, q: 1.5, c: 60 },
      ],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const wo = made.body;
    expect(wo).toMatchObject({
      status: 'open',
      object_type: 'u',
      object_id: unitId,
      assignee: { id: t.demo.users.mechanic },
      issues: [{ id: found.id, status: 'workorder' }],
      services: [{ id: serviceId, n: 'Oil change', f: 129 }],
      total_cost: 181,
      overdue: true,
      downtime_start: found.reported_at,
    });
    expect(await issue(found.id)).toMatchObject({ status: 'workorder', work_order_id: wo.id });

    // The record as read is accepted and changes nothing.
    const put = await manager.put(`${api}/work-orders/${wo.id}`, wo);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect({ ...put.body, updated: 0, downtime: 0 }).toEqual({ ...wo, updated: 0, downtime: 0 });
    // The status and the object change by no PUT.
    const status = await manager.put(`${api}/work-orders/${wo.id}`, { ...wo, status: 'completed' });
    expect(status.status).toBe(400);
    expect(status.body.details).toEqual([{ field: 'body.status', message: 'Cannot be changed' }]);

    // Unlinking puts the issue back to open; linking again takes it.
    const unlinked = await manager.put(`${api}/work-orders/${wo.id}`, { issue_ids: [] });
    expect(unlinked.body.issues).toEqual([]);
    expect(await issue(found.id)).toMatchObject({ status: 'open', work_order_id: null });
    const relinked = await manager.put(`${api}/work-orders/${wo.id}`, { issue_ids: [found.id] });
    expect(relinked.body.issues).toMatchObject([{ id: found.id, status: 'workorder' }]);

    // An issue of another unit, a service already in this unfinished work order, a wrong action.
    const other = await report(await fx.unit(), 'Other truck');
    const refused = await manager.put(`${api}/work-orders/${wo.id}`, { issue_ids: [found.id, other.id] });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual([{ id: other.id, kind: 'issue', reason: 'other_object' }]);
    expect(await issue(other.id)).toMatchObject({ status: 'open' });
    const second = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: unitId,
      title: 'Second',
      service_ids: [serviceId],
    });
    expect(second.status).toBe(409);
    expect(second.body.details).toEqual([
      { id: serviceId, kind: 'service', reason: 'in_work_order', value: String(wo.id) },
    ]);
    const held = await manager.post(`${api}/work-orders/${wo.id}/hold`, {});
    expect(held.status).toBe(409);
    // An issue already in a work order cannot be taken by another (the issues' rule).
    const third = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: unitId,
      title: 'Third',
      issue_ids: [found.id],
    });
    expect(third.status).toBe(409);
    expect((await manager.get(`${api}/work-orders?object_type=u&object_id=${unitId}`)).body.total).toBe(1);
    // Unknown ids are invalid input; the viewer reads but does not write.
    const unknown = await manager.put(`${api}/work-orders/${wo.id}`, { service_ids: [999_999] });
    expect(unknown.status).toBe(400);
    expect((await viewer.get(`${api}/work-orders/${wo.id}`)).status).toBe(200);
    expect((await viewer.post(`${api}/work-orders/${wo.id}/start`, {})).status).toBe(403);
    const assignees = await manager.get(`${api}/work-orders/assignees`);
    expect(assignees.body.users).toContainEqual({ id: t.demo.users.mechanic, nm: 'Mike Mechanic' });
    expect(assignees.body.users.map((u: { id: number }) => u.id)).not.toContain(t.demo.users.outsider);
    const badAssignee = await manager.put(`${api}/work-orders/${wo.id}`, {
      assignee_id: t.demo.users.outsider,
    });
    expect(badAssignee.status).toBe(400);
  });

  it('completing closes the service exactly as closing it does, archives the unplanned work, resolves the issues', async () => {
    const a = await truckWithDueService();
    const b = await truckWithDueService();
    const found = await report(a.unitId, 'Brakes fail', 7200);
    const made = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: a.unitId,
      title: 'Brake and oil',
      description: 'Front axle',
      issue_ids: [found.id],
      service_ids: [a.serviceId],
      li: [{ n: 'Brake disc', t: 2, q: 2, c: 80.25 }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.id;
    const started = await mechanic.post(`${api}/work-orders/${id}/start`, {});
    expect(started.body).toMatchObject({ status: 'in_progress', actual_start: expect.any(Number) });
    expect((await mechanic.post(`${api}/work-orders/${id}/hold`, {})).body.status).toBe('on_hold');

    const done = await mechanic.post(`${api}/work-orders/${id}/complete`, { mileage: 10_250 });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const wo = done.body;
    expect(wo).toMatchObject({
      status: 'completed',
      mileage: 10_250,
      engine_hours: 500,
      actual_start: started.body.actual_start,
      downtime_start: found.reported_at,
      overdue: false,
    });
    expect(wo.downtime).toBe(wo.actual_end - found.reported_at);
    expect(wo.downtime).toBeGreaterThanOrEqual(7200);

    // The same close made directly on the other truck's service.
    const direct = await manager.put(`${api}/services/${b.serviceId}`, { f: 8, mileage: 10_250 });
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    const viaWo = await fx.assignmentRow(a.aid);
    const viaService = await fx.assignmentRow(b.aid);
    const pick = (r: typeof viaWo) => ({ lcnm: r.lcnm, lceh: r.lceh, ltm: r.ltm, cnt: r.cnt });
    expect(pick(viaWo)).toEqual(pick(viaService));
    expect(pick(viaWo)).toMatchObject({ lcnm: 10_250, lceh: 500, ltm: fx.today(), cnt: 1 });
    const closed = (await manager.get(`${api}/services/${a.serviceId}`)).body;
    const closedDirect = (await manager.get(`${api}/services/${b.serviceId}`)).body;
    for (const k of ['f', 'mileage', 'engine_hours', 'start_date', 'end_date'])
      expect(closed[k], k).toEqual(closedDirect[k]);

    // One archived service of the unplanned work, named after the work order.
    expect(wo.service_id).toEqual(expect.any(Number));
    const unplanned = (await manager.get(`${api}/services/${wo.service_id}`)).body;
    expect(unplanned).toMatchObject({
      n: 'Brake and oil',
      f: 8,
      t: 'u',
      uid: a.unitId,
      ivid: null,
      mileage: 10_250,
      engine_hours: 500,
      total_cost: 160.5,
      li: [{ n: 'Brake disc', t: 2, q: 2, c: 80.25 }],
    });
    expect(unplanned.description).toBe('Front axle\n• Brakes fail');
    const archive = await manager.get(`${api}/services/archived?from=${fx.iso(-1)}&to=${fx.iso(1)}`);
    expect(archive.status, JSON.stringify(archive.body)).toBe(200);
    const archivedIds = archive.body.services.map((s: { id: number }) => s.id);
    expect(archivedIds).toEqual(expect.arrayContaining([a.serviceId, wo.service_id]));

    expect(await issue(found.id)).toMatchObject({ status: 'resolved', work_order_id: id });
    // A completed work order is frozen and kept.
    expect((await manager.put(`${api}/work-orders/${id}`, { title: 'x' })).status).toBe(409);
    expect((await manager.post(`${api}/work-orders/${id}/cancel`, {})).status).toBe(409);
    expect((await manager.delete(`${api}/work-orders/${id}`)).status).toBe(409);
    const list = await manager.get(`${api}/work-orders?status=completed&object_type=u&object_id=${a.unitId}`);
    expect(list.body.work_orders.map((w: { id: number }) => w.id)).toEqual([id]);
  });

  it('a refused completion writes nothing; without issues or lines there is no unplanned record', async () => {
    const a = await truckWithDueService();
    const found = await report(a.unitId, 'Mirror loose');
    const made = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: a.unitId,
      title: 'Mirror',
      issue_ids: [found.id],
      service_ids: [a.serviceId],
    });
    // The linked service is closed elsewhere meanwhile: the completion is refused whole.
    expect((await manager.put(`${api}/services/${a.serviceId}`, { f: 8 })).status).toBe(200);
    const refused = await manager.post(`${api}/work-orders/${made.body.id}/complete`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual([
      { id: a.serviceId, kind: 'service', reason: 'archived', value: '8' },
    ]);
    expect(await issue(found.id)).toMatchObject({ status: 'workorder' });
    expect((await manager.get(`${api}/work-orders/${made.body.id}`)).body.status).toBe('open');

    const empty = await manager.post(`${api}/work-orders`, {
      object_type: 't',
      object_id: (
        await fx.db
          .selectFrom('trailers')
          .select('id')
          .where('fleet_id', '=', fx.fleetId)
          .executeTakeFirstOrThrow()
      ).id,
      title: 'Look at it',
    });
    const done = await manager.post(`${api}/work-orders/${empty.body.id}/complete`, {});
    expect(done.body).toMatchObject({
      status: 'completed',
      service_id: null,
      mileage: null,
      engine_hours: null,
    });
    expect(done.body.downtime).toBe(0);
  });

  it('cancelling puts the issues back to open; a cancelled one may be deleted; lists filter', async () => {
    const unitId = await fx.unit();
    const found = await report(unitId, 'Horn dead');
    const made = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: unitId,
      title: 'Horn',
      assignee_id: t.demo.users.mechanic,
      scheduled_start: now() - 7200,
      scheduled_end: now() - 3600,
      issue_ids: [found.id],
    });
    expect(made.status).toBe(200);
    const overdue = await manager.get(`${api}/work-orders?overdue=1&assignee=${t.demo.users.mechanic}`);
    expect(overdue.body.work_orders.map((w: { id: number }) => w.id)).toContain(made.body.id);
    const cancelled = await manager.post(`${api}/work-orders/${made.body.id}/cancel`, {});
    expect(cancelled.body).toMatchObject({ status: 'cancelled', issues: [], downtime: null, overdue: false });
    expect(await issue(found.id)).toMatchObject({ status: 'open', work_order_id: null });
    const after = await manager.get(`${api}/work-orders?overdue=1`);
    expect(after.body.work_orders.map((w: { id: number }) => w.id)).not.toContain(made.body.id);
    expect((await manager.post(`${api}/work-orders/${made.body.id}/start`, {})).status).toBe(409);
    expect((await manager.delete(`${api}/work-orders/${made.body.id}`)).status).toBe(200);
    expect((await manager.get(`${api}/work-orders/${made.body.id}`)).status).toBe(404);
    // Deleting an open one lets its issues go too.
    const again = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: unitId,
      title: 'Horn again',
      issue_ids: [found.id],
    });
    expect((await manager.delete(`${api}/work-orders/${again.body.id}`)).status).toBe(200);
    expect(await issue(found.id)).toMatchObject({ status: 'open' });
    const bad = await manager.get(`${api}/work-orders?status=done`);
    expect(bad.status).toBe(400);
  });

  it("another fleet's work order and object are not found", async () => {
    const db = fx.db;
    const { account_id } = await db
      .selectFrom('fleets')
      .select('account_id')
      .where('id', '=', t.demo.otherFleetId)
      .executeTakeFirstOrThrow();
    const foreignUnit = await createUnit(t, {
      accountId: account_id,
      fleetId: t.demo.otherFleetId,
      name: 'foreign wo unit',
    });
    const at = now();
    const row = await db
      .insertInto('work_orders')
      .values({
        fleet_id: t.demo.otherFleetId,
        object_type: 'u',
        object_id: foreignUnit,
        title: 'foreign',
        status: 'open',
        assignee_id: null,
        created_by: null,
        scheduled_start: null,
        scheduled_end: null,
        actual_start: null,
        actual_end: null,
        mileage: null,
        engine_hours: null,
        downtime_start: null,
        service_id: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const res of [
      await manager.get(`${api}/work-orders/${row.id}`),
      await manager.put(`${api}/work-orders/${row.id}`, { title: 'mine' }),
      await manager.post(`${api}/work-orders/${row.id}/complete`, {}),
      await manager.delete(`${api}/work-orders/${row.id}`),
      await manager.post(`${api}/work-orders`, { object_type: 'u', object_id: foreignUnit, title: 'x' }),
    ])
      expect(res.status).toBe(404);
    const list = await manager.get(`${api}/work-orders`);
    expect(list.body.work_orders.map((w: { id: number }) => w.id)).not.toContain(row.id);
  });
});
