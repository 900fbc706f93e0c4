import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../test/harness.js';

describe('sessions (DESIGN §4)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('logs in, opens a session and answers the authentication reply', async () => {
    const login = await t.anon.post('/api/login', { username: 'manager', password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    expect(typeof login.body.access_token).toBe('string');
    const auth = await t.anon.get(`/api/auth?access_token=${login.body.access_token}`);
    expect(auth.status).toBe(200);
    expect(auth.body.user.nm).toBe('Maria Manager');
    expect(auth.body.fid).toBe(t.demo.fleetId);
    expect(auth.body.unit_types).toHaveLength(15);
    expect(auth.body.model.s).toMatchObject({ lang: 'en', dateFormat: 'DD.MM.YYYY', timeFormat: 'HH:mm' });
    expect(auth.body.fleets.map((f: { id: number }) => f.id)).toEqual([t.demo.fleetId]);
  });

  it('refuses wrong credentials with 401 error 8', async () => {
    const res = await t.anon.post('/api/login', { username: 'manager', password: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(8);
  });

  it('refuses calls without a session with 401 error 1', async () => {
    const res = await t.anon.get('/api/fleets');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 1, reason: 'Session is not initialized' });
  });

  it('logout ends the session and revokes the login token', async () => {
    const login = await t.anon.post('/api/login', { username: 'viewer', password: DEMO_PASSWORD });
    const auth = await t.anon.get(`/api/auth?access_token=${login.body.access_token}`);
    const headers = { authorization: `SSID ${auth.body.session}` };
    expect((await t.anon.request('GET', '/api/fleets', undefined, headers)).status).toBe(200);
    expect((await t.anon.request('GET', '/api/logout', undefined, headers)).status).toBe(200);
    expect((await t.anon.request('GET', '/api/fleets', undefined, headers)).status).toBe(401);
    const again = await t.anon.get(`/api/auth?access_token=${login.body.access_token}`);
    expect(again.status).toBe(401);
  });

  it('sets a session property; nothing else in the body is applied (mass assignment)', async () => {
    const { client, auth } = await t.signIn('viewer');
    const res = await client.post('/api/remoteapi/core/set_session_property', {
      prop_name: 'skip_nonactive_items',
      prop_value: 1,
      su: 1,
      admin: 1,
      user_id: t.demo.users.root,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: 0 });
    const db = t.server.ctx.db.kysely;
    const sessions = await db.selectFrom('sessions').select(['props', 'user_id']).execute();
    const mine = sessions.filter((row) => row.props !== '{}');
    expect(mine).toEqual([{ props: '{"skip_nonactive_items":1}', user_id: t.demo.users.viewer }]);
    const user = await db
      .selectFrom('users')
      .select(['su', 'admin'])
      .where('id', '=', auth.user.id)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ su: 0, admin: 0 });
    const bad = await client.post('/api/remoteapi/core/set_session_property', {
      prop_name: 'su',
      prop_value: 1,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['body.prop_name']);
  });
});
