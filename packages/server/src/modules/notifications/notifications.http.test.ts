import type { DomainEvent, LiveEvent, NotificationWire } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../../context.js';
import { recordDomainEvents } from '../../events/outbox.js';
import { eventsSince, outboxMark } from '../../test/domain-events.js';
import { assign, createInterval } from '../../test/engine-fixtures.js';
import { EventsClient } from '../../test/events-client.js';
import {
  accountOf,
  type Client,
  createUser,
  sendOdometer,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';
import { NOTIFICATIONS_CONSUMER, notificationConsumer } from './consumer.js';

/**
 * In-app notifications through the real server (with the in-app set-ups; the
 * route decisions are in core contracts/notifications.ts): service events from people and from the
 * status engine reach the outbox consumer, which notifies exactly the users the rules name, once per
 * event, and tells each of them over their own sockets.
 *
 * Demo fleet members: admin (admin bit only: no bell), manager (every bit), mechanic (view and manage
 * services), viewer (view services; this suite sets their mask to "overdue" only). The outsider belongs
 * to Northwind only.
 */
describe('in-app notifications', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let admin: Client;
  let outsider: Client;
  let ids: Record<string, number>;
  let alertsUrl: string;
  let setupsUrl: string;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    ids = t.demo.users;
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
    admin = await t.login('admin');
    outsider = await t.login('outsider');
    alertsUrl = `/api/fleets/${fx.fleetId}/user/alerts`;
    setupsUrl = `/api/fleets/${fx.fleetId}/notifications`;
    // The viewer wants overdue notifications only (spec §3 notification.enabled; DESIGN §6 bit 4).
    const res = await viewer.patch('/api/user/settings', { notification: { enabled: 4 } });
    expect(res.status).toBe(200);
  });
  afterAll(() => t?.close());

  const db = () => t.server.ctx.db.kysely;
  const mark = () => outboxMark(db());
  /** The notification rows of an event, by user id. */
  const rowsOf = async (eventId: string) =>
    db().selectFrom('notifications').selectAll().where('event_id', '=', eventId).orderBy('user_id').execute();
  /** Waits until the consumer has handled everything published so far. */
  const settled = async () => {
    await t.server.ctx.outbox.publishPending();
    await t.server.ctx.outbox.consumers.drainAll();
  };
  const alerts = async (client: Client, fid = fx.fleetId) => {
    const res = await client.get(`/api/fleets/${fid}/user/alerts`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { alerts: NotificationWire[]; unread: number };
  };
  const createService = async (body: object, client = manager) => {
    const res = await client.post(fx.base, { n: 'Brake check', t: 'u', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: number; f: number };
  };
  /** The one event of a type recorded since `m` for a service. */
  const eventOf = async (m: number, type: string, serviceId: number): Promise<DomainEvent> => {
    const found = (await eventsSince(db(), m, [type])).filter(
      (e) => 'serviceId' in e && e.serviceId === serviceId,
    );
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  describe('made from service events', () => {
    it('a Due service made by a person notifies those who may view services and want the kind', async () => {
      const uid = await fx.unit();
      const m = await mark();
      const service = await createService({ uid, f: 1 });
      const event = await eventOf(m, 'service.created', service.id);
      // Waits for the outbox to deliver, as the bell would: the mechanic's list gets it.
      await expect
        .poll(async () => (await alerts(mechanic)).alerts.some((a) => a.id === event.id), { timeout: 10_000 })
        .toBe(true);
      const rows = await rowsOf(event.id);
      // manager (made it: read at once) and mechanic; not the viewer (mask 4), not admin-only admin.
      expect(rows.map((r) => r.user_id)).toEqual([ids.manager, ids.mechanic].sort((a, b) => a! - b!));
      const byUser = new Map(rows.map((r) => [r.user_id, r]));
      expect(byUser.get(ids.manager!)!.stm).toBe(event.at);
      expect(byUser.get(ids.mechanic!)!.stm).toBeNull();

      const mine = (await alerts(mechanic)).alerts.find((a) => a.id === event.id)!;
      expect(mine).toEqual({
        id: event.id,
        nid: null,
        t: 1,
        tm: event.at,
        stm: null,
        d: { f: service.f, n: 'Brake check' },
        params: { object_name: expect.stringMatching(/^svc unit/), service_name: 'Brake check' },
        to: `/service/${service.id}`,
        read: false,
        sid: service.id,
      });
      const managers = (await alerts(manager)).alerts.find((a) => a.id === event.id)!;
      expect(managers).toMatchObject({ read: true, stm: event.at });
      expect((await alerts(viewer)).alerts.some((a) => a.id === event.id)).toBe(false);
    });

    it('the status engine: due then overdue by mileage notify, the overdue one the viewer too', async () => {
      const unitId = await fx.unit(5000, 300);
      const { device_id: deviceId } = await fx.unitRow(unitId);
      const intervalId = await createInterval(fx.db, fx.fleetId, 'Oil', { cnme: 1, cnmd: 1000, cnmo: 100 });
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
      const [due] = await eventsSince(db(), m, ['service.due']);
      expect(due).toBeDefined();
      await settled();
      // No one caused it: unread for every recipient, the manager included.
      expect((await rowsOf(due!.id)).map((r) => [r.user_id, r.kind, r.stm])).toEqual(
        [ids.manager!, ids.mechanic!].sort((a, b) => a - b).map((u) => [u, 1, null]),
      );

      m = await mark();
      await read(5110, 50);
      const [overdue] = await eventsSince(db(), m, ['service.overdue']);
      await settled();
      const rows = await rowsOf(overdue!.id);
      expect(rows.map((r) => r.user_id)).toEqual(
        [ids.manager!, ids.mechanic!, ids.viewer!].sort((a, b) => a - b),
      );
      expect(rows.every((r) => r.kind === 4 && r.stm === null)).toBe(true);
      const viewers = (await alerts(viewer)).alerts.find((a) => a.id === overdue!.id)!;
      expect(viewers.d.f & (4 | 256)).toBe(4 | 256);
    });

    it('once per event id, even when the consumer is handed the same events again', async () => {
      const uid = await fx.unit();
      const m = await mark();
      const service = await createService({ uid, f: 1 });
      const event = await eventOf(m, 'service.created', service.id);
      await settled();
      const before = await db().selectFrom('notifications').select('id').execute();
      expect((await rowsOf(event.id)).length).toBe(2);

      // The cursor goes back to the start: every event comes again, and nothing new is written.
      await db()
        .updateTable('event_consumers')
        .set({ last_seq: 0 })
        .where('name', '=', NOTIFICATIONS_CONSUMER)
        .execute();
      await settled();
      expect(await db().selectFrom('notifications').select('id').execute()).toEqual(before);

      // And the handler itself, given the event twice in one transaction, writes it once.
      const payload = await db()
        .selectFrom('domain_events')
        .select(['id', 'payload'])
        .where('event_id', '=', event.id)
        .executeTakeFirstOrThrow();
      await db().deleteFrom('notifications').where('event_id', '=', event.id).execute();
      const published = { ...(JSON.parse(payload.payload) as DomainEvent), seq: payload.id };
      await db()
        .transaction()
        .execute(async (trx) => {
          await notificationConsumer(t.server.ctx).handle(trx, [published, published]);
          await notificationConsumer(t.server.ctx).handle(trx, [published]);
        });
      expect((await rowsOf(event.id)).length).toBe(2);
    });

    it('in progress, closed and rejected notify by their kinds; settled warnings leave the list', async () => {
      const uid = await fx.unit();
      const m = await mark();
      const service = await createService({ uid, f: 1 }, mechanic);
      await expect((await manager.put(`${fx.base}/${service.id}/confirm`, {})).status).toBe(200);
      const created = await eventOf(m, 'service.created', service.id);
      const started = await eventOf(m, 'service.inProgress', service.id);
      await settled();
      const list = (await alerts(mechanic)).alerts;
      // The due warning of a service now in progress shows nothing (spec §4); the change itself shows.
      expect(list.some((a) => a.id === created.id)).toBe(false);
      expect(list.find((a) => a.id === started.id)).toMatchObject({ t: 2, d: { f: 2 }, read: false });
      // It is still stored: it only leaves the view.
      expect((await rowsOf(created.id)).length).toBe(2);

      const closedService = await createService({ uid, f: 8 });
      const rejected = await createService({ uid, f: 1 });
      const m2 = await mark();
      expect((await manager.post(`${fx.base}/${rejected.id}/status`, { f: 16 })).status).toBe(200);
      await settled();
      const closedEvent = (await eventsSince(db(), m, ['service.created'])).find(
        (e) => 'serviceId' in e && e.serviceId === closedService.id,
      )!;
      const rejectedEvent = await eventOf(m2, 'service.rejected', rejected.id);
      const after = (await alerts(mechanic)).alerts;
      expect(after.find((a) => a.id === closedEvent.id)).toMatchObject({ t: 8, sid: closedService.id });
      expect(after.find((a) => a.id === rejectedEvent.id)).toMatchObject({ t: 16, sid: rejected.id });
    });

    it("another fleet's events never reach this fleet's users; its users see only their own fleet", async () => {
      const northwind = t.demo.otherFleetId;
      const unit = await db()
        .selectFrom('units')
        .select('id')
        .where('fleet_id', '=', northwind)
        .executeTakeFirstOrThrow();
      const m = await mark();
      const res = await outsider.post(`/api/fleets/${northwind}/services`, {
        n: 'Northwind',
        t: 'u',
        uid: unit.id,
        f: 1,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const event = await eventOf(m, 'service.created', res.body.id);
      await settled();
      expect((await rowsOf(event.id)).map((r) => r.user_id)).toEqual([ids.outsider]);
      expect((await alerts(outsider, northwind)).alerts.map((a) => a.id)).toEqual([event.id]);
      // The demo users cannot read Northwind's bell, nor the outsider the demo fleet's.
      for (const c of [manager, mechanic, viewer])
        expect((await c.get(`/api/fleets/${northwind}/user/alerts`)).status).toBe(403);
      expect((await outsider.get(alertsUrl)).status).toBe(403);
      // Nor mark or delete the outsider's notification by its event id through their own fleet.
      // The outsider made it: theirs was read at once. Unread again, it must stay so.
      expect((await rowsOf(event.id))[0]!.stm).toBe(event.at);
      await db().updateTable('notifications').set({ stm: null }).where('event_id', '=', event.id).execute();
      const read = await manager.post(alertsUrl, { event_ids: [event.id] });
      expect(read.body.event_ids).toEqual([]);
      const gone = await manager.post(`${alertsUrl}/delete`, { event_ids: [event.id] });
      expect(gone.body.event_ids).toEqual([]);
      expect(await rowsOf(event.id)).toHaveLength(1);
      expect((await rowsOf(event.id))[0]!.stm).toBeNull();
      // The bell is not for admin-only users.
      expect((await admin.get(alertsUrl)).status).toBe(403);
    });
  });

  describe('nobody who cannot sign in', () => {
    it('a deactivated user, and every member of a fleet whose account is suspended, get none', async () => {
      const userId = await createUser(t, {
        name: 'paused',
        accountId: await accountOf(t, 'manager'),
        memberships: [{ fleetId: fx.fleetId, acl: 2 | 64 }],
      });
      await db().updateTable('users').set({ active: 0 }).where('id', '=', userId).execute();
      const uid = await fx.unit();
      let m = await mark();
      const first = await createService({ uid, f: 1 });
      await settled();
      expect(
        (await rowsOf((await eventOf(m, 'service.created', first.id)).id)).map((r) => r.user_id),
      ).toEqual([ids.manager!, ids.mechanic!].sort((a, b) => a - b));
      await db().updateTable('users').set({ active: 1 }).where('id', '=', userId).execute();
      m = await mark();
      const second = await createService({ uid, f: 1 });
      await settled();
      expect(
        (await rowsOf((await eventOf(m, 'service.created', second.id)).id)).map((r) => r.user_id),
      ).toContain(userId);

      const account = await accountOf(t, 'manager');
      await db().updateTable('accounts').set({ active: 0 }).where('id', '=', account).execute();
      try {
        m = await mark();
        // Written straight into the outbox: the suspended fleet's users can no longer call the API.
        await db()
          .transaction()
          .execute((trx) =>
            recordDomainEvents(trx, [
              {
                type: 'service.due',
                reason: 'reopened',
                fid: fx.fleetId,
                at: now(),
                by: null,
                serviceId: second.id,
                objectType: 'u',
                objectId: uid,
                intervalId: null,
                f: 1,
              },
            ]),
          );
        t.server.ctx.outbox.publish();
        await settled();
        const [due] = await eventsSince(db(), m, ['service.due']);
        expect(await rowsOf(due!.id)).toEqual([]);
      } finally {
        await db().updateTable('accounts').set({ active: 1 }).where('id', '=', account).execute();
        // The later tests count the demo members only (the user's notifications go with them).
        await db().deleteFrom('fleet_users').where('user_id', '=', userId).execute();
        await db().deleteFrom('users').where('id', '=', userId).execute();
      }
    });
  });

  describe('a new member', () => {
    it('gets no notification of an event from before they could see the fleet', async () => {
      const userId = await createUser(t, { name: 'newcomer', accountId: await accountOf(t, 'manager') });
      const membersUrl = `/api/fleets/${fx.fleetId}/users`;
      const before = (await manager.get(membersUrl)).body as { users: { id: number; acl: number }[] };
      const members = before.users.map((u) => ({ id: u.id, acl: u.acl }));
      const uid = await fx.unit();
      const service = await createService({ uid, f: 1 });
      await settled();
      /** A Due event of the service, handed over late, as a busy outbox would. */
      const dueAt = async (at: number) => {
        const m = await mark();
        await db()
          .transaction()
          .execute((trx) =>
            recordDomainEvents(trx, [
              {
                type: 'service.due',
                reason: 'reopened',
                fid: fx.fleetId,
                at,
                by: null,
                serviceId: service.id,
                objectType: 'u',
                objectId: uid,
                intervalId: null,
                f: 1,
              },
            ]),
          );
        t.server.ctx.outbox.publish();
        await settled();
        const [due] = await eventsSince(db(), m, ['service.due']);
        return (await rowsOf(due!.id)).map((r) => r.user_id);
      };
      try {
        // Joins without the view right, then gains it: seeing starts when the right came.
        let res = await manager.put(membersUrl, { users: [...members, { id: userId, acl: 0 }] });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const joined = now();
        res = await manager.put(membersUrl, { users: [...members, { id: userId, acl: 2 | 64 }] });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const row = await db()
          .selectFrom('fleet_users')
          .select('since')
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        expect(Number(row.since)).toBeGreaterThanOrEqual(joined);

        const old = await dueAt(Number(row.since) - 60);
        expect(old).toContain(ids.manager);
        expect(old).not.toContain(userId);
        expect(await dueAt(Number(row.since))).toContain(userId);
        expect((await alerts(await t.login('newcomer'))).unread).toBe(1);

        // A change of rights that keeps the view right keeps the time.
        res = await manager.put(membersUrl, { users: [...members, { id: userId, acl: 2 | 64 | 4 }] });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const kept = await db()
          .selectFrom('fleet_users')
          .select('since')
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        expect(Number(kept.since)).toBe(Number(row.since));
      } finally {
        await manager.put(membersUrl, { users: members });
        await db().deleteFrom('notifications').where('user_id', '=', userId).execute();
        await db().deleteFrom('users').where('id', '=', userId).execute();
      }
    });
  });

  describe('reading and deleting', () => {
    /** Three Due services made by the manager: unread for the mechanic. */
    const threeDue = async () => {
      const uid = await fx.unit();
      const m = await mark();
      const made = [
        await createService({ uid, f: 1 }),
        await createService({ uid, f: 1 }),
        await createService({ uid, f: 1 }),
      ];
      await settled();
      return Promise.all(made.map((s) => eventOf(m, 'service.created', s.id).then((e) => e.id)));
    };
    const stmOf = async (userId: number, eventId: string) =>
      (
        await db()
          .selectFrom('notifications')
          .select('stm')
          .where('user_id', '=', userId)
          .where('event_id', '=', eventId)
          .executeTakeFirstOrThrow()
      ).stm;

    it('marks read by event ids, only the caller’s own, and counts unread', async () => {
      const [a, b] = await threeDue();
      const before = (await alerts(mechanic)).unread;
      const res = await mechanic.post(alertsUrl, { event_ids: [a, a, 'no-such-event'] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.event_ids).toEqual([a]);
      expect(Math.abs(res.body.stm - now())).toBeLessThan(5);
      const after = await alerts(mechanic);
      expect(after.unread).toBe(before - 1);
      expect(after.alerts.find((x) => x.id === a)).toMatchObject({ read: true, stm: res.body.stm });
      expect(after.alerts.find((x) => x.id === b)).toMatchObject({ read: false, stm: null });
      // The manager's copy of the same event is the manager's: it stayed as it was (read: own change).
      expect(await stmOf(ids.manager!, a!)).not.toBeNull();
      // Reading again changes nothing.
      expect((await mechanic.post(alertsUrl, { event_ids: [a] })).body.event_ids).toEqual([]);
    });

    it('mark all read of a kind changes only the unread ones of that kind', async () => {
      const [a, b, c] = await threeDue();
      await db()
        .updateTable('notifications')
        .set({ stm: 12345 })
        .where('user_id', '=', ids.mechanic!)
        .where('event_id', '=', a!)
        .execute();
      const unreadDue = (await alerts(mechanic)).alerts.filter((x) => x.t === 1 && !x.read).map((x) => x.id);
      expect(unreadDue).toEqual(expect.arrayContaining([b, c]));
      const unreadOther = (await alerts(mechanic)).alerts.filter((x) => x.t !== 1 && !x.read).length;
      expect(unreadOther).toBeGreaterThan(0);

      const res = await mechanic.post(alertsUrl, { t: 1 });
      expect(res.status).toBe(200);
      expect([...res.body.event_ids].sort()).toEqual([...unreadDue].sort());
      expect(await stmOf(ids.mechanic!, a!)).toBe(12345);
      const after = await alerts(mechanic);
      expect(after.alerts.filter((x) => x.t === 1).every((x) => x.read)).toBe(true);
      expect(after.alerts.filter((x) => x.t !== 1 && !x.read).length).toBe(unreadOther);
    });

    it('deletes by event ids, and all of a kind', async () => {
      const [a, b] = await threeDue();
      const res = await mechanic.post(`${alertsUrl}/delete`, { event_ids: [a] });
      expect(res.body).toEqual({ event_ids: [a] });
      const list = (await alerts(mechanic)).alerts;
      expect(list.some((x) => x.id === a)).toBe(false);
      expect(list.some((x) => x.id === b)).toBe(true);
      // The manager keeps theirs.
      expect(await stmOf(ids.manager!, a!)).not.toBeNull();

      const all = await mechanic.post(`${alertsUrl}/delete`, { t: 1 });
      expect(all.body.event_ids).toContain(b);
      const left = (await alerts(mechanic)).alerts;
      expect(left.filter((x) => x.t === 1)).toEqual([]);
      expect(left.length).toBeGreaterThan(0);
    });

    it('refuses a selection that is neither event ids nor one kind', async () => {
      for (const body of [
        {},
        { t: 3 },
        { event_ids: [] },
        { event_ids: ['x'], t: 1 },
        { t: 1, user_id: 1 },
      ]) {
        const res = await mechanic.post(alertsUrl, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toBe(4);
      }
    });
  });

  describe('live events', () => {
    it("a new notification reaches its user's sockets only", async () => {
      const [mechanicSocket, viewerSocket] = await Promise.all([
        EventsClient.connect(t.url, mechanic.ssid),
        EventsClient.connect(t.url, viewer.ssid),
      ]);
      try {
        const uid = await fx.unit();
        const m = await mark();
        const service = await createService({ uid, f: 1 });
        const event = await eventOf(m, 'service.created', service.id);
        const isIt = (id: string) => (e: LiveEvent) =>
          e.s === 'notification' && (e.d as { id?: string }).id === id;
        const got = await mechanicSocket.next(isIt(event.id));
        expect(got).toMatchObject({
          t: 'c',
          s: 'notification',
          fid: fx.fleetId,
          d: { id: event.id, read: false, sid: service.id },
        });
        expect(got).not.toHaveProperty('uid');

        // Then one the viewer does get (overdue): by then the due one would have come if it were sent.
        const m2 = await mark();
        await t.server.ctx.db.kysely.transaction().execute(async (trx) => {
          await recordDomainEvents(trx, [
            {
              type: 'service.overdue',
              fid: fx.fleetId,
              at: now(),
              by: null,
              serviceId: service.id,
              objectType: 'u',
              objectId: uid,
              intervalId: null,
              f: 1 | 4 | 1024,
              kinds: 1024,
            },
          ]);
        });
        t.server.ctx.outbox.publish();
        const [overdue] = await eventsSince(db(), m2, ['service.overdue']);
        await viewerSocket.next(isIt(overdue!.id));
        const viewerNotifications = viewerSocket.received.filter((e) => e.s === 'notification');
        expect(viewerNotifications.map((e) => (e.d as { id: string }).id)).toEqual([overdue!.id]);
        await mechanicSocket.next(isIt(overdue!.id));

        // Marking read tells the user's other sessions.
        await mechanic.post(alertsUrl, { event_ids: [overdue!.id] });
        const updated = await mechanicSocket.next((e) => e.t === 'u' && isIt(overdue!.id)(e));
        expect(updated).toMatchObject({ d: { read: true }, own: 1 });
        expect(viewerSocket.received.filter((e) => e.s === 'notification')).toHaveLength(1);
      } finally {
        mechanicSocket.close();
        viewerSocket.close();
      }
    });
  });

  describe('in-app set-ups', () => {
    it('create, read, change (the set-up as read), list, delete; users must be members', async () => {
      const made = await manager.post(setupsUrl, { n: 'Workshop', k: 8 | 16, users: [ids.mechanic] });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body).toEqual({
        id: expect.any(Number),
        n: 'Workshop',
        on: 1,
        k: 24,
        users: [ids.mechanic],
      });
      const one = await manager.get(`${setupsUrl}/${made.body.id}`);
      expect(one.body).toEqual(made.body);
      const changed = await manager.put(`${setupsUrl}/${made.body.id}`, {
        ...one.body,
        n: 'Workshop 2',
        on: 0,
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toEqual({ ...made.body, n: 'Workshop 2', on: 0 });
      expect((await manager.get(setupsUrl)).body).toEqual({ notifications: [changed.body] });

      const stranger = await manager.post(setupsUrl, { n: 'X', k: 1, users: [ids.mechanic, ids.outsider] });
      expect(stranger.status).toBe(400);
      expect(stranger.body.details).toEqual([
        { field: 'body.users.1', message: 'Not a member of this fleet' },
      ]);
      for (const body of [
        { n: 'X', k: 0 },
        { n: 'X', k: 32 },
        { n: '', k: 1 },
        { n: 'X', k: 1, fleet_id: 2 },
      ])
        expect((await manager.post(setupsUrl, body)).status, JSON.stringify(body)).toBe(400);

      expect((await manager.delete(`${setupsUrl}/${made.body.id}`)).body).toEqual({ error: 0 });
      expect((await manager.get(`${setupsUrl}/${made.body.id}`)).status).toBe(404);
      expect((await manager.delete(`${setupsUrl}/${made.body.id}`)).status).toBe(404);
    });

    it("a set-up of one fleet is not found through another fleet's path", async () => {
      const root = await t.login('root');
      const made = await root.post(setupsUrl, { n: 'Demo only', k: 1 });
      const northwind = `/api/fleets/${t.demo.otherFleetId}/notifications/${made.body.id}`;
      expect((await root.get(northwind)).status).toBe(404);
      expect((await root.put(northwind, { n: 'moved' })).status).toBe(404);
      expect((await root.delete(northwind)).status).toBe(404);
      expect((await outsider.get(northwind)).status).toBe(404);
      expect((await outsider.get(`${setupsUrl}/${made.body.id}`)).status).toBe(403);
      expect((await root.get(`${setupsUrl}/${made.body.id}`)).body.n).toBe('Demo only');
      await root.delete(`${setupsUrl}/${made.body.id}`);
    });

    it('once a fleet has set-ups, they decide who gets which kinds', async () => {
      const made = await manager.post(setupsUrl, { n: 'Closed to mechanic', k: 8, users: [ids.mechanic] });
      try {
        const uid = await fx.unit();
        const m = await mark();
        const closed = await createService({ uid, f: 8 });
        const due = await createService({ uid, f: 1 });
        await settled();
        const closedEvent = await eventOf(m, 'service.created', closed.id);
        const dueEvent = await eventOf(m, 'service.created', due.id);
        expect((await rowsOf(closedEvent.id)).map((r) => [r.user_id, r.setup_id])).toEqual([
          [ids.mechanic, made.body.id],
        ]);
        expect(await rowsOf(dueEvent.id)).toEqual([]);
        expect((await alerts(mechanic)).alerts.find((a) => a.id === closedEvent.id)?.nid).toBe(made.body.id);
      } finally {
        await manager.delete(`${setupsUrl}/${made.body.id}`);
      }
      // Without set-ups the fleet default is back: everyone who wants the kind.
      const uid = await fx.unit();
      const m = await mark();
      const closed = await createService({ uid, f: 8 });
      await settled();
      const event = await eventOf(m, 'service.created', closed.id);
      expect((await rowsOf(event.id)).map((r) => r.user_id)).toEqual(
        [ids.manager!, ids.mechanic!].sort((a, b) => a - b),
      );
    });

    it('a set-up hears only events at or after its creation: a backlog handed over late is not its history', async () => {
      const uid = await fx.unit();
      const service = await createService({ uid, f: 1 });
      await settled();
      const due = (at: number) => ({
        type: 'service.due' as const,
        reason: 'reopened' as const,
        fid: fx.fleetId,
        at,
        by: null,
        serviceId: service.id,
        objectType: 'u' as const,
        objectId: uid,
        intervalId: null,
        f: 1,
      });
      const record = (at: number) =>
        db()
          .transaction()
          .execute((trx) => recordDomainEvents(trx, [due(at)]));
      /** Records an event of `at`, makes a set-up for the mechanic, then lets the consumers run. */
      const becameDueThenSetUp = async (at: number) => {
        const m = await mark();
        await record(at);
        const made = await manager.post(setupsUrl, { n: 'Due to mechanic', k: 1, users: [ids.mechanic] });
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        t.server.ctx.outbox.publish();
        await settled();
        const [event] = await eventsSince(db(), m, ['service.due']);
        return { event: event!, setupId: made.body.id as number };
      };
      const delivered = async (eventId: string) =>
        (await rowsOf(eventId)).map((r) => [r.user_id, r.setup_id]);

      const older = await manager.post(setupsUrl, { n: 'Due to manager', k: 1, users: [ids.manager] });
      // The manager's set-up was there a minute before.
      await db()
        .updateTable('notification_setups')
        .set({ created_at: now() - 60 })
        .where('id', '=', older.body.id)
        .execute();
      const late = await becameDueThenSetUp(now() - 5);
      try {
        // Due five seconds before the mechanic's set-up was made, handed over after: not for it.
        expect(await delivered(late.event.id)).toEqual([[ids.manager, older.body.id]]);
        // An event after it reaches it.
        const m = await mark();
        await record(now());
        t.server.ctx.outbox.publish();
        await settled();
        const [after] = await eventsSince(db(), m, ['service.due']);
        expect(await delivered(after!.id)).toEqual(
          [
            [ids.manager, older.body.id],
            [ids.mechanic, late.setupId],
          ].sort((a, b) => a[0]! - b[0]!),
        );
      } finally {
        await manager.delete(`${setupsUrl}/${older.body.id}`);
        await manager.delete(`${setupsUrl}/${late.setupId}`);
      }
      // A fleet without set-ups when the event happened: everyone who wants the kind, as when handed over
      // on time (the set-up made meanwhile does not claim it).
      const first = await becameDueThenSetUp(now() - 5);
      try {
        expect(await delivered(first.event.id)).toEqual(
          [ids.manager!, ids.mechanic!].sort((a, b) => a - b).map((id) => [id, null]),
        );
      } finally {
        await manager.delete(`${setupsUrl}/${first.setupId}`);
      }
    });

    it('send test: the users the set-up addresses get a notification naming no service', async () => {
      const res = await manager.post(`${setupsUrl}/test`, { n: 'Try me', k: 4 | 8 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // Kind 4 (the lowest): manager, mechanic and the viewer (whose mask is 4) may have it.
      expect(res.body).toEqual({ sent: 3 });
      const test = (await alerts(viewer)).alerts.find((a) => a.sid === null && a.d.n === 'Try me')!;
      expect(test).toMatchObject({
        t: 4,
        to: null,
        read: false,
        nid: null,
        params: { service_name: 'Try me' },
      });
      expect((await alerts(mechanic)).alerts.some((a) => a.id === test.id)).toBe(true);

      const only = await manager.post(`${setupsUrl}/test`, {
        n: 'Due to mechanic',
        k: 1,
        users: [ids.mechanic, ids.viewer],
      });
      // The viewer does not want "due": the mechanic only.
      expect(only.body).toEqual({ sent: 1 });
      // Admin-only users may send tests (fleet administration) though they get none.
      expect((await admin.post(`${setupsUrl}/test`, { k: 1 })).body).toEqual({ sent: 2 });
      expect((await mechanic.post(`${setupsUrl}/test`, { k: 1 })).status).toBe(403);
    });
  });
});
