import { ACL_ALL } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { EventsClient } from '../../test/events-client.js';
import {
  accountOf,
  type Client,
  createAccount,
  createFleet,
  createUnit,
  createUser,
  DEMO_PASSWORD,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

const SUSPENDED = { error: 7, reason: 'Account is suspended' };
const NO_SESSION = { error: 1, reason: 'Session is not initialized' };

/**
 * A suspension takes effect at once. Users of the suspended account (and of the
 * accounts below it) lose their sessions and API tokens, get user event 32, cannot log in until it is
 * reactivated; its units' readings are refused. Users of other accounts keep their session.
 */
describe('account suspension', () => {
  let t: TestServer;
  let admin: Client;
  let root: Client;
  let account: number;
  let fleet: number;
  let deviceId: string;
  let clock: number;

  const bearer = (value: string, url: string) =>
    t.anon.request('GET', url, undefined, { authorization: `Bearer ${value}` });
  const positionCount = async (unitDevice: string) => {
    const row = await t.server.ctx.db.kysely
      .selectFrom('positions')
      .innerJoin('units', 'units.id', 'positions.unit_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('units.device_id', '=', unitDevice)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const osmandGet = (lat: number) =>
    t.anon.get(`/api/ingest/osmand?id=${deviceId}&lat=${lat}&lon=27.5&timestamp=${++clock}`);
  const suspend = async (s: 0 | 1) => {
    const res = await admin.put(`/api/admin/accounts/${account}`, { s });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: account, s, active: s });
  };

  beforeAll(async () => {
    t = await startTestServer();
    [admin, root] = await Promise.all([t.login('admin'), t.login('root')]);
    const demoAccount = await accountOf(t, 'admin');
    account = await createAccount(t, 'Suspended Co', demoAccount);
    const below = await createAccount(t, 'Suspended Co depot', account);
    fleet = await createFleet(t, account, 'Suspended Co fleet');
    await createUser(t, {
      name: 'susi',
      accountId: account,
      memberships: [{ fleetId: fleet, acl: ACL_ALL }],
    });
    await createUser(t, { name: 'deep', accountId: below });
    // A user of another account whose current fleet lies in the suspended account.
    await createUser(t, {
      name: 'guest',
      accountId: demoAccount,
      memberships: [{ fleetId: fleet, acl: ACL_ALL }],
    });
    const unitId = await createUnit(t, { accountId: account, fleetId: fleet, name: 'Suspended truck' });
    const unit = await t.server.ctx.db.kysely
      .selectFrom('units')
      .select('device_id')
      .where('id', '=', unitId)
      .executeTakeFirstOrThrow();
    deviceId = unit.device_id;
    clock = now();
  });
  afterAll(() => t?.close());

  it('ends sessions and API tokens at once, refuses logins, and lets them in again after reactivation', async () => {
    const susi = await t.signIn('susi');
    const second = await t.login('susi');
    const deep = await t.login('deep');
    const guest = await t.login('guest');
    const token = await susi.client.post('/api/user/tokens', {
      description: 'gateway',
      rights: { intervals: 'view', services: 'view', archive: 'none' },
    });
    expect(token.status).toBe(200);
    expect((await bearer(token.body.value, '/api/fleets')).status).toBe(200);
    const susiEvents = await EventsClient.connect(t.url, susi.client.ssid);
    const guestEvents = await EventsClient.connect(t.url, guest.ssid);

    await suspend(0);

    // The suspended user's socket is told to log out and closes (spec §4 user event 32).
    const logout = await susiEvents.next((e) => e.s === 'user' && (e.d as { type?: number }).type === 32);
    expect(logout).toMatchObject({ t: 'e', fid: null });
    expect(await susiEvents.closed()).toBe(4001);
    // The other account's user keeps its session and hears that the fleet is gone (the web's dialog).
    const gone = await guestEvents.next((e) => e.s === 'fleet' && e.t === 'd');
    expect(gone.fid).toBe(fleet);
    expect(guestEvents.closeCode).toBeUndefined();
    expect((await guest.get('/api/fleets')).status).toBe(200);

    for (const client of [susi.client, second, deep]) {
      const res = await client.get('/api/fleets');
      expect(res.status).toBe(401);
      expect(res.body).toEqual(NO_SESSION);
    }
    const viaToken = await bearer(token.body.value, '/api/fleets');
    expect(viaToken.status).toBe(401);
    expect(viaToken.body.error).toBe(1);
    const reopen = await t.anon.get(`/api/auth?access_token=${encodeURIComponent(susi.accessToken)}`);
    expect(reopen.status).toBe(401);

    for (const name of ['susi', 'deep']) {
      const login = await t.anon.post('/api/login', { username: name, password: DEMO_PASSWORD });
      expect(login.status, name).toBe(403);
      expect(login.body, name).toEqual(SUSPENDED);
    }
    // A wrong password tells nothing about the account.
    const wrong = await t.anon.post('/api/login', { username: 'susi', password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe(8);
    // Those who suspended it, and the super user, keep their access.
    expect((await admin.get('/api/admin/accounts')).status).toBe(200);
    expect((await admin.get(`/api/fleets/${t.demo.fleetId}/units`)).status).toBe(200);
    expect((await root.get(`/api/fleets/${t.demo.fleetId}/units`)).status).toBe(200);

    await suspend(1);
    const back = await t.login('susi');
    expect((await back.get(`/api/fleets/${fleet}/units`)).status).toBe(200);
    expect((await t.login('deep')).ssid).toBeTruthy();
    // What the suspension ended stays ended: the API token is gone.
    expect((await bearer(token.body.value, '/api/fleets')).status).toBe(401);
    expect((await back.get('/api/user/tokens')).body.tokens).toEqual([]);
    guestEvents.close();
  });

  it('refuses and does not store the readings of its units while suspended (OsmAnd and batch)', async () => {
    expect((await osmandGet(53.9)).body).toEqual({ ok: true });
    const stored = await positionCount(deviceId);
    await suspend(0);
    try {
      const viaGet = await osmandGet(53.91);
      expect(viaGet.status).toBe(403);
      expect(viaGet.body).toEqual(SUSPENDED);
      const viaPost = await t.anon.post('/api/ingest/osmand', {
        id: deviceId,
        lat: 53.92,
        lon: 27.5,
        timestamp: ++clock,
      });
      expect(viaPost.status).toBe(403);
      expect(viaPost.body).toEqual(SUSPENDED);
      // Even the super user's gateway may not feed a suspended account.
      const batch = await root.post('/api/ingest/batch', {
        positions: [
          { id: deviceId, lat: 53.93, lon: 27.5, timestamp: ++clock },
          { id: 'demo-020', lat: 53.93, lon: 27.5, timestamp: ++clock },
        ],
      });
      expect(batch.status).toBe(200);
      expect(batch.body.results).toEqual([
        { i: 0, ok: false, reason: 'Account is suspended' },
        { i: 1, ok: true },
      ]);
      expect(await positionCount(deviceId)).toBe(stored);
      const log = await t.server.ctx.db.kysely
        .selectFrom('ingest_log')
        .select('reason')
        .where('device_id', '=', deviceId)
        .execute();
      expect(log.map((l) => l.reason)).toEqual(Array(3).fill('Account is suspended'));
    } finally {
      await suspend(1);
    }
    expect((await osmandGet(53.94)).body).toEqual({ ok: true });
    expect(await positionCount(deviceId)).toBe(stored + 1);
  });
});
