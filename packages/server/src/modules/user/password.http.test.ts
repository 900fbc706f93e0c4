import { PASSWORD_MIN_LENGTH } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../../test/events-client.js';
import {
  accountOf,
  createUser,
  DEMO_PASSWORD,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

const NEW_PASSWORD = 'a-new-secret-42';

/** PUT /api/user/password: the user changes their own password. */
describe('own password change', () => {
  let t: TestServer;
  let demoAccount: number;

  beforeAll(async () => {
    t = await startTestServer();
    demoAccount = await accountOf(t, 'manager');
    for (const name of ['pat', 'tok', 'lim']) await createUser(t, { name, accountId: demoAccount });
  });
  afterAll(() => t?.close());

  const login = (username: string, password: string) => t.anon.post('/api/login', { username, password });

  it('needs a session', async () => {
    const res = await t.anon.put('/api/user/password', { old: DEMO_PASSWORD, new: NEW_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(1);
  });

  it('refuses a wrong old password and a short new one with field details, changing nothing', async () => {
    const pat = await t.login('pat');
    const wrong = await pat.put('/api/user/password', { old: 'not-my-password', new: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: 4,
      reason: 'Wrong password',
      details: [{ field: 'body.old', message: 'Wrong password' }],
    });
    const short = await pat.put('/api/user/password', {
      old: DEMO_PASSWORD,
      new: 'x'.repeat(PASSWORD_MIN_LENGTH - 1),
    });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe(4);
    expect(short.body.details.map((d: { field: string }) => d.field)).toEqual(['body.new']);
    const missing = await pat.put('/api/user/password', { new: NEW_PASSWORD });
    expect(missing.body.details.map((d: { field: string }) => d.field)).toEqual(['body.old']);
    expect((await login('pat', DEMO_PASSWORD)).status).toBe(200);
    expect((await pat.get('/api/fleets')).status).toBe(200);
  });

  it('changes it, ends the other sessions and API tokens, and keeps the current session', async () => {
    const current = await t.login('pat');
    const other = await t.login('pat');
    const token = await current.post('/api/user/tokens', {
      description: 'gateway',
      rights: { intervals: 'view', services: 'view', archive: 'none' },
    });
    expect(token.status).toBe(200);
    const otherEvents = await EventsClient.connect(t.url, other.ssid);
    const currentEvents = await EventsClient.connect(t.url, current.ssid);

    const res = await current.put('/api/user/password', {
      old: DEMO_PASSWORD,
      new: 'exactly-10'.slice(0, PASSWORD_MIN_LENGTH),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: 0 });

    const logout = await otherEvents.next((e) => e.s === 'user' && (e.d as { type?: number }).type === 32);
    expect(logout.fid).toBeNull();
    expect(await otherEvents.closed()).toBe(4001);
    expect((await other.get('/api/fleets')).status).toBe(401);
    const viaToken = await t.anon.request('GET', '/api/fleets', undefined, {
      authorization: `Bearer ${token.body.value}`,
    });
    expect(viaToken.status).toBe(401);
    expect((await current.get('/api/fleets')).status).toBe(200);
    expect(currentEvents.closeCode).toBeUndefined();
    // The other session's logout is not sent to this one (the web logs out on any event 32).
    expect(currentEvents.received.some((e) => e.s === 'user' && (e.d as { type?: number }).type === 32)).toBe(
      false,
    );

    const old = await login('pat', DEMO_PASSWORD);
    expect(old.status).toBe(401);
    expect(old.body.error).toBe(8);
    expect((await login('pat', 'exactly-10')).status).toBe(200);
    // The stored value is an argon2id hash, not the password.
    const row = await t.server.ctx.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('name', '=', 'pat')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    currentEvents.close();
  });

  it('refuses a caller authenticated by an API token (403), directly or through a session', async () => {
    const tok = await t.login('tok');
    const token = await tok.post('/api/user/tokens', {
      description: 'all',
      rights: { intervals: 'manage', services: 'manage', archive: 'manage' },
    });
    const body = { old: DEMO_PASSWORD, new: NEW_PASSWORD };
    const direct = await t.anon.request('PUT', '/api/user/password', body, {
      authorization: `Bearer ${token.body.value}`,
    });
    expect(direct.status).toBe(403);
    expect(direct.body.error).toBe(7);
    const auth = await t.anon.get(`/api/auth?access_token=${encodeURIComponent(token.body.value)}`);
    const viaSession = await t.anon.request('PUT', '/api/user/password', body, {
      authorization: `SSID ${auth.body.session}`,
    });
    expect(viaSession.status).toBe(403);
    expect((await login('tok', DEMO_PASSWORD)).status).toBe(200);
  });

  it('counts wrong old passwords like failed logins', async () => {
    const lim = await t.login('lim');
    for (let i = 0; i < 10; i++) {
      const res = await lim.put('/api/user/password', { old: `wrong-${i}-password`, new: NEW_PASSWORD });
      expect(res.status).toBe(400);
    }
    const blocked = await lim.put('/api/user/password', { old: DEMO_PASSWORD, new: NEW_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe(9);
    const loginBlocked = await login('lim', DEMO_PASSWORD);
    expect(loginBlocked.status).toBe(429);
  });
});
