import { ACL_ALL } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../test/events-client.js';
import { accountOf, type Client, createUser, startTestServer, type TestServer } from '../test/harness.js';

describe('live events over /events (DESIGN §6)', () => {
  let t: TestServer;
  let admin: Client;
  let manager: Client;
  let outsider: Client;
  let root: Client;
  beforeAll(async () => {
    t = await startTestServer();
    [admin, manager, outsider, root] = await Promise.all([
      t.login('admin'),
      t.login('manager'),
      t.login('outsider'),
      t.login('root'),
    ]);
  });
  afterAll(() => t.close());

  it('closes a socket whose first message is not a valid session', async () => {
    const bad = await EventsClient.connect(t.url);
    bad.socket.send(JSON.stringify({ ssid: 'nope' }));
    expect(await bad.closed()).toBe(4001);
    expect(bad.received[0]).toMatchObject({ error: 1 });

    const garbage = await EventsClient.connect(t.url);
    garbage.socket.send('not json');
    expect(await garbage.closed()).toBe(4001);
  });

  it('delivers a fleet change to its members and not to other fleets', async () => {
    const managerEvents = await EventsClient.connect(t.url, manager.ssid);
    const outsiderEvents = await EventsClient.connect(t.url, outsider.ssid);

    const res = await admin.put(`/api/fleets/${t.demo.fleetId}`, { cur: 'USD' });
    expect(res.status).toBe(200);
    const event = await managerEvents.next((e) => e.s === 'fleet' && e.t === 'u');
    expect(event).toMatchObject({
      t: 'u',
      s: 'fleet',
      fid: t.demo.fleetId,
      d: { id: t.demo.fleetId, cur: 'USD' },
    });

    // A later change of the outsider's own fleet arrives; the demo fleet's never did.
    await root.put(`/api/fleets/${t.demo.otherFleetId}`, { cur: 'GBP' });
    await outsiderEvents.next((e) => e.s === 'fleet' && e.fid === t.demo.otherFleetId);
    expect(outsiderEvents.received.some((e) => e.fid === t.demo.fleetId)).toBe(false);
    managerEvents.close();
    outsiderEvents.close();
  });

  it('tells other accounts’ members of a suspended account’s fleet that they lost it; logs its own users out', async () => {
    // A demo-account user with access to the Northwind fleet keeps its session (spec §4 fleet dialog).
    await createUser(t, {
      name: 'northwind-guest',
      accountId: await accountOf(t, 'manager'),
      memberships: [{ fleetId: t.demo.otherFleetId, acl: ACL_ALL }],
    });
    const guest = await t.login('northwind-guest');
    const guestEvents = await EventsClient.connect(t.url, guest.ssid);
    const outsiderEvents = await EventsClient.connect(t.url, outsider.ssid);
    const accounts = await root.get('/api/admin/accounts');
    const northwind = accounts.body.accounts.find((a: { fleets: { id: number }[] }) =>
      a.fleets.some((f) => f.id === t.demo.otherFleetId),
    );
    expect((await root.put(`/api/admin/accounts/${northwind.id}`, { s: 0 })).status).toBe(200);
    const lost = await guestEvents.next((e) => e.s === 'fleet' && e.t === 'd');
    expect(lost.fid).toBe(t.demo.otherFleetId);
    // Northwind's own user is logged out (user event 32) and its socket closes.
    await outsiderEvents.next((e) => e.s === 'user' && (e.d as { type?: number }).type === 32);
    expect(await outsiderEvents.closed()).toBe(4001);

    expect((await root.put(`/api/admin/accounts/${northwind.id}`, { s: 1 })).status).toBe(200);
    const back = await guestEvents.next((e) => e.s === 'fleet' && e.t === 'c');
    expect(back.fid).toBe(t.demo.otherFleetId);
    guestEvents.close();
    outsider = await t.login('outsider');
  });

  it('closes the sockets of a session that logs out, and only those', async () => {
    const leaving = await t.login('viewer');
    const staying = await t.login('viewer');
    const leavingEvents = await EventsClient.connect(t.url, leaving.ssid);
    const stayingEvents = await EventsClient.connect(t.url, staying.ssid);
    expect((await leaving.get('/api/logout')).status).toBe(200);
    const event = await leavingEvents.next((e) => e.s === 'user' && (e.d as { type?: number }).type === 32);
    expect(event.fid).toBeNull();
    expect(await leavingEvents.closed()).toBe(4001);
    // The same user's other session keeps its socket.
    await admin.put(`/api/fleets/${t.demo.fleetId}`, { cur: 'SEK' });
    await stayingEvents.next((e) => e.s === 'fleet' && (e.d as { cur?: string }).cur === 'SEK');
    expect(stayingEvents.closeCode).toBeUndefined();
    stayingEvents.close();
  });

  it('sends unit changes to the fleet’s sessions', async () => {
    const managerEvents = await EventsClient.connect(t.url, manager.ssid);
    const units = await manager.get(`/api/fleets/${t.demo.fleetId}/units`);
    const unit = units.body.units[0];
    const res = await manager.put(`/api/fleets/${t.demo.fleetId}/units/${unit.id}`, { cnm: unit.cnm + 10 });
    expect(res.status).toBe(200);
    const event = await managerEvents.next((e) => e.s === 'avl_unit' && e.t === 'u');
    expect(event.d).toMatchObject({ id: unit.id, cnm: unit.cnm + 10 });
    managerEvents.close();
  });
});
