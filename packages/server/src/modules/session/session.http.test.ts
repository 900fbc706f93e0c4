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
});
