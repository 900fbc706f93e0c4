import { type DomainEvent, reminderDay } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../context.js';
import { remindDue } from '../engine/index.js';
import { eventsSince as eventsAfter, failServiceInsertsNamed, outboxMark } from '../test/domain-events.js';
import { assign, createInterval } from '../test/engine-fixtures.js';
import { type Client, sendOdometer, startTestServer, type TestServer } from '../test/harness.js';
import { servicesFixture } from '../test/services-fixtures.js';

/**
 * Domain events through the real server (DESIGN §6): each change writes exactly the
 * events of what happened, in its own transaction, and none when it rolls back.
 */
describe('domain events of changes', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let managerId: number;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    managerId = t.demo.users.manager!;
  });
  afterAll(() => t?.close());

  const mark = () => outboxMark(t.server.ctx.db.kysely);
  const eventsSince = (m: number, types?: string[]) => eventsAfter(t.server.ctx.db.kysely, m, types);
  const create = async (body: object) => {
    const res = await manager.post(fx.base, { n: 'Service', t: 'u', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: number; f: number };
  };
  /** Every event has an id (a UUID), the fleet and the time; returns them without the id. */
  const stripped = (events: DomainEvent[]) =>
    events.map(({ id, ...rest }) => {
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      return rest;
    });

  describe('services written by people', () => {
    it('creating one makes one service.created with its status flags and the creator', async () => {
      const uid = await fx.unit();
      const m = await mark();
      const due = await create({ uid, f: 1 });
      const closed = await create({ uid, f: 8 });
      const events = stripped(await eventsSince(m, ['service.created']));
      expect(events).toEqual([
        expect.objectContaining({ type: 'service.created', serviceId: due.id, f: 129, by: managerId }),
        expect.objectContaining({ type: 'service.created', serviceId: closed.id, f: 8, by: managerId }),
      ]);
      expect(events[0]).toMatchObject({ fid: fx.fleetId, objectType: 'u', objectId: uid, intervalId: null });
      expect(Math.abs(events[0]!.at - now())).toBeLessThan(5);
    });

    it('each status change makes exactly one event of its kind; an edit makes none', async () => {
      const uid = await fx.unit();
      const a = await create({ uid, f: 1 });
      const b = await create({ uid, f: 1 });
      const c = await create({ uid, f: 1 });

      let m = await mark();
      expect((await manager.put(`${fx.base}/${a.id}`, { n: 'Renamed' })).status).toBe(200);
      expect(await eventsSince(m)).toEqual([]);

      m = await mark();
      expect((await manager.put(`${fx.base}/${a.id}/confirm`, {})).status).toBe(200);
      expect(stripped(await eventsSince(m))).toEqual([
        expect.objectContaining({ type: 'service.inProgress', serviceId: a.id, f: 2, by: managerId }),
      ]);

      m = await mark();
      expect((await manager.put(`${fx.base}/${a.id}`, { f: 1 })).status).toBe(200);
      expect(stripped(await eventsSince(m))).toEqual([
        expect.objectContaining({ type: 'service.due', reason: 'reopened', serviceId: a.id, f: 129 }),
      ]);

      m = await mark();
      expect((await manager.put(`${fx.base}/${a.id}`, { f: 8 })).status).toBe(200);
      expect(stripped(await eventsSince(m))).toEqual([
        expect.objectContaining({ type: 'service.closed', serviceId: a.id, f: 8 }),
      ]);

      m = await mark();
      expect((await manager.post(`${fx.base}/${b.id}/status`, { f: 16 })).status).toBe(200);
      expect(stripped(await eventsSince(m))).toEqual([
        expect.objectContaining({ type: 'service.rejected', serviceId: b.id, f: 16 }),
      ]);

      m = await mark();
      const batch = await manager.post(`${fx.base}/status/batch`, { f: 2, services: [c.id] });
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      expect(stripped(await eventsSince(m))).toEqual([
        expect.objectContaining({ type: 'service.inProgress', serviceId: c.id }),
      ]);
    });

    it('a batch that fails on its last row leaves no event (the rows before it wrote theirs)', async () => {
      const uid = await fx.unit();
      const row = (n: string) => ({ n, t: 'u', uid, f: 2 });
      const drop = await failServiceInsertsNamed(t, 'refused by trigger');
      try {
        const m = await mark();
        const res = await manager.post(`${fx.base}/batch`, {
          services: [row('first'), row('second'), row('refused by trigger')],
        });
        expect(res.status).toBe(500);
        expect(await eventsSince(m)).toEqual([]);
        const stored = await fx.db.selectFrom('services').select('id').where('object_id', '=', uid).execute();
        expect(stored).toEqual([]);
      } finally {
        await drop();
      }
      const m = await mark();
      const ok = await manager.post(`${fx.base}/batch`, { services: [row('first'), row('second')] });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect((await eventsSince(m)).map((e) => e.type)).toEqual(['service.created', 'service.created']);
    });
  });

  describe('the status engine and counters', () => {
    it('a reading makes the service due, a later one overdue by mileage (256): one event each', async () => {
      const unitId = await fx.unit(5000, 300);
      const { device_id: deviceId } = await fx.unitRow(unitId);
      const intervalId = await createInterval(fx.db, fx.fleetId, 'Oil', { cnme: 1, cnmd: 1000, cnmo: 100 });
      // Remaining 4100 + 1000 − 5000 = 100 km: within notice, but the engine runs on counter changes.
      await assign(fx.db, {
        fleetId: fx.fleetId,
        intervalId,
        type: 'u',
        id: unitId,
        lcnm: 4100,
        ltm: now() - 10 * DAY,
      });
      const read = (km: number, ago: number) => sendOdometer(t, deviceId, km, ago);

      let m = await mark();
      await read(5010, 100);
      const first = await eventsSince(m);
      expect(stripped(first)).toEqual([
        expect.objectContaining({ type: 'unit.counters', unitId, mileage: 5010, engineHours: 300, by: null }),
        expect.objectContaining({
          type: 'service.due',
          reason: 'notice',
          objectId: unitId,
          intervalId,
          f: 1,
        }),
      ]);
      const serviceId = (first[1] as { serviceId: number }).serviceId;

      m = await mark();
      await read(5110, 50);
      expect(stripped(await eventsSince(m))).toEqual([
        expect.objectContaining({ type: 'unit.counters', unitId, mileage: 5110 }),
        expect.objectContaining({ type: 'service.overdue', serviceId, kinds: 256, f: 1 | 4 | 256 }),
      ]);

      // Further along: still overdue by mileage only, so no second overdue event.
      m = await mark();
      await read(5150, 10);
      expect((await eventsSince(m)).map((e) => e.type)).toEqual(['unit.counters']);
    });

    it('a hand correction of the counters makes one unit.counters by the user', async () => {
      const unitId = await fx.unit(1000, 50);
      const m = await mark();
      const res = await manager.put(`/api/fleets/${fx.fleetId}/units/${unitId}`, { cnm: 1200 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(stripped(await eventsSince(m))).toEqual([
        expect.objectContaining({
          type: 'unit.counters',
          unitId,
          mileage: 1200,
          engineHours: 50,
          by: managerId,
        }),
      ]);
    });
  });

  describe('reminder day ("notify N days before")', () => {
    it('is announced once on the day N days before the planned date, at once inside the window', async () => {
      const uid = await fx.unit();
      const inWindow = await create({ uid, f: 1, limit_date: fx.iso(2), notify_days: 3 });
      const later = await create({ uid, f: 1, limit_date: fx.iso(5), notify_days: 1 });
      const reminders = async (m: number, id: number) =>
        (await eventsSince(m, ['service.reminder'])).filter((e) => 'serviceId' in e && e.serviceId === id);

      let m = await mark();
      await remindDue(t.server.ctx, now());
      expect(stripped(await reminders(m, inWindow.id))).toEqual([
        expect.objectContaining({
          serviceId: inWindow.id,
          plannedDate: fx.day(2),
          notifyDays: 3,
          day: reminderDay(fx.tz, fx.day(2), 3),
          f: 129,
        }),
      ]);
      expect(await reminders(m, later.id)).toEqual([]);

      m = await mark();
      await remindDue(t.server.ctx, now());
      expect(await reminders(m, inWindow.id)).toEqual([]);

      await remindDue(t.server.ctx, fx.day(4) + 60);
      expect((await reminders(m, later.id)).map((e) => (e as { day: number }).day)).toEqual([fx.day(4)]);
    });

    it('is not announced for a service that left Due', async () => {
      const uid = await fx.unit();
      const s = await create({ uid, f: 1, notify_days: 0 });
      expect((await manager.put(`${fx.base}/${s.id}/confirm`, {})).status).toBe(200);
      const m = await mark();
      await remindDue(t.server.ctx, now());
      expect(
        (await eventsSince(m, ['service.reminder'])).filter((e) => 'serviceId' in e && e.serviceId === s.id),
      ).toEqual([]);
    });
  });

  describe('fleets and accounts', () => {
    it('fleet settings: one fleet.settings naming what changed; none when nothing does', async () => {
      const admin = await t.login('admin');
      const path = `/api/fleets/${fx.fleetId}`;
      const current = (await admin.get('/api/fleets')).body.fleets.find(
        (f: { id: number }) => f.id === fx.fleetId,
      );
      let m = await mark();
      expect(
        (await admin.put(path, { cur: current.cur === 'CHF' ? 'EUR' : 'CHF', tz: current.tz })).status,
      ).toBe(200);
      expect(stripped(await eventsSince(m))).toEqual([
        {
          type: 'fleet.settings',
          fid: fx.fleetId,
          at: expect.any(Number),
          by: t.demo.users.admin,
          changed: ['cur'],
        },
      ]);
      m = await mark();
      expect((await admin.put(path, { tz: current.tz })).status).toBe(200);
      expect(await eventsSince(m)).toEqual([]);
    });

    it('suspending an account: one fleet.suspended per fleet that loses visibility, none on reactivation', async () => {
      const root = await t.login('root');
      const accounts = (await root.get('/api/admin/accounts')).body.accounts as { id: number; n: string }[];
      const northwind = accounts.find((a) => a.n === 'Northwind Haulage')!.id;
      const fleets = await fx.db
        .selectFrom('fleets')
        .select('id')
        .where('account_id', '=', northwind)
        .execute();
      expect(fleets.length).toBeGreaterThan(0);
      let m = await mark();
      expect((await root.put(`/api/admin/accounts/${northwind}`, { s: 0 })).status).toBe(200);
      const events = stripped(await eventsSince(m));
      expect(events).toEqual(
        fleets.map((f) => ({
          type: 'fleet.suspended',
          fid: f.id,
          at: expect.any(Number),
          by: t.demo.users.root,
          accountId: northwind,
        })),
      );
      m = await mark();
      expect((await root.put(`/api/admin/accounts/${northwind}`, { s: 0 })).status).toBe(200);
      expect((await root.put(`/api/admin/accounts/${northwind}`, { s: 1 })).status).toBe(200);
      expect(await eventsSince(m)).toEqual([]);
    });
  });
});
