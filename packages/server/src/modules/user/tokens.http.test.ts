import { ACL_ALL, Acl } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../../test/harness.js';

type Rights = { intervals: string; services: string; archive: string };

/** Personal API tokens (PRODUCT.md "API tokens", DESIGN §4). */
describe('personal API tokens', () => {
  let t: TestServer;
  let manager: Client;
  let viewer: Client;

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    viewer = await t.login('viewer');
  });
  afterAll(() => t.close());

  const create = async (client: Client, rights: Rights, description = 'CI gateway') => {
    const res = await client.post('/api/user/tokens', { description, rights });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { token: { id: number }; value: string };
  };
  const withBearer = (value: string, method: string, url: string, body?: unknown) =>
    t.anon.request(method, url, body, { authorization: `Bearer ${value}` });
  const demoAcl = (fleets: { id: number; acl: number }[]) => fleets.find((f) => f.id === t.demo.fleetId)?.acl;
  const all: Rights = { intervals: 'manage', services: 'manage', archive: 'manage' };

  it('returns the value once, at creation; the list never holds it', async () => {
    const created = await create(manager, { intervals: 'view', services: 'manage', archive: 'none' });
    expect(created.value).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(created.token).toMatchObject({
      description: 'CI gateway',
      rights: { intervals: 'view', services: 'manage', archive: 'none' },
      last_used: null,
      requests: 0,
    });
    expect(created.token).not.toHaveProperty('value');

    const list = await manager.get('/api/user/tokens');
    expect(list.status).toBe(200);
    const listed = list.body.tokens.find((x: { id: number }) => x.id === created.token.id);
    expect(listed).toMatchObject({ description: 'CI gateway', requests: 0 });
    expect(listed.expires).toBeGreaterThan(listed.created);
    expect(JSON.stringify(list.body)).not.toContain(created.value);
    for (const token of list.body.tokens) {
      expect(Object.keys(token).sort()).toEqual(
        ['created', 'description', 'expires', 'id', 'last_used', 'requests', 'rights'].sort(),
      );
    }
  });

  it('takes no owner, kind, expiry or usage from the body (mass assignment)', async () => {
    const res = await manager.post('/api/user/tokens', {
      description: 'forged owner',
      rights: all,
      user_id: t.demo.users.viewer,
      uid: t.demo.users.viewer,
      kind: 'login',
      expires: 1,
      expires_at: 1,
      requests: 99,
      su: 1,
      admin: 1,
    });
    expect(res.status).toBe(200);
    const row = await t.server.ctx.db.kysely
      .selectFrom('access_tokens')
      .selectAll()
      .where('id', '=', res.body.token.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: t.demo.users.manager, kind: 'api', requests: 0 });
    expect(row.expires_at).toBeGreaterThan(Date.now() / 1000);
    const viewerList = (await viewer.get('/api/user/tokens')).body.tokens;
    expect(viewerList.map((x: { id: number }) => x.id)).not.toContain(res.body.token.id);
    // The token carries its rights, never administration (spec §6 "su", "admin").
    const fleets = await withBearer(res.body.value, 'GET', '/api/fleets');
    expect(demoAcl(fleets.body.fleets)! & Acl.admin).toBe(0);
  });

  it('lists only the caller’s own tokens', async () => {
    const mine = await create(viewer, all, 'viewer token');
    const managerList = await manager.get('/api/user/tokens');
    expect(managerList.body.tokens.map((x: { id: number }) => x.id)).not.toContain(mine.token.id);
    const viewerList = await viewer.get('/api/user/tokens');
    expect(viewerList.body.tokens.map((x: { id: number }) => x.id)).toContain(mine.token.id);
  });

  it('works as `Authorization: Bearer` and counts its use', async () => {
    const { token, value } = await create(manager, all);
    const res = await withBearer(value, 'GET', '/api/fleets');
    expect(res.status).toBe(200);
    expect(res.body.fleets.map((f: { id: number }) => f.id)).toEqual([t.demo.fleetId]);
    await withBearer(value, 'GET', `/api/fleets/${t.demo.fleetId}/units`);
    const listed = (await manager.get('/api/user/tokens')).body.tokens.find(
      (x: { id: number }) => x.id === token.id,
    );
    expect(listed.requests).toBe(2);
    expect(listed.last_used).toBeGreaterThan(0);
  });

  it('works as `access_token` of /api/auth, opening a session', async () => {
    const { value } = await create(manager, all);
    const auth = await t.anon.get(`/api/auth?access_token=${value}`);
    expect(auth.status).toBe(200);
    expect(auth.body.user.nm).toBe('Maria Manager');
    const session = new Client(t.url, auth.body.session);
    expect((await session.get(`/api/fleets/${t.demo.fleetId}/drivers`)).status).toBe(200);
  });

  it('narrows the acl to its rights: services none leaves no 64/128', async () => {
    const { value } = await create(manager, { intervals: 'manage', services: 'none', archive: 'none' });
    // A token never administers, and viewNotification needs viewService (spec §6).
    const expected = Acl.viewMap | Acl.viewInterval | Acl.manageInterval;
    const viaBearer = await withBearer(value, 'GET', '/api/fleets');
    expect(demoAcl(viaBearer.body.fleets)).toBe(expected);
    expect(demoAcl(viaBearer.body.fleets)! & (Acl.viewService | Acl.manageService)).toBe(0);

    const auth = await t.anon.get(`/api/auth?access_token=${value}`);
    expect(demoAcl(auth.body.fleets)).toBe(expected);
    const session = new Client(t.url, auth.body.session);
    expect(demoAcl((await session.get('/api/fleets')).body.fleets)).toBe(expected);
    // A password login of the same user keeps every bit.
    expect(demoAcl((await manager.get('/api/fleets')).body.fleets)).toBe(ACL_ALL);
  });

  it('never carries administration, even from a fleet admin', async () => {
    const { value } = await create(manager, { intervals: 'manage', services: 'manage', archive: 'manage' });
    const fleets = await withBearer(value, 'GET', '/api/fleets');
    expect(demoAcl(fleets.body.fleets)! & Acl.admin).toBe(0);
    const rename = await withBearer(value, 'PUT', `/api/fleets/${t.demo.fleetId}`, { cur: 'EUR' });
    expect(rename.status).toBe(403);
    expect(rename.body.error).toBe(7);
    const users = await withBearer(value, 'GET', `/api/fleets/${t.demo.fleetId}/users`);
    expect(users.status).toBe(403);
  });

  it('narrows what the token may do, not only what it is told', async () => {
    // Viewer rights leave no manageService: the mechanic's token cannot edit a driver.
    const mechanic = await t.login('mechanic');
    const { value } = await create(mechanic, { intervals: 'view', services: 'view', archive: 'none' });
    const driver = (await mechanic.get(`/api/fleets/${t.demo.fleetId}/drivers`)).body.drivers[0];
    const denied = await withBearer(value, 'PUT', `/api/drivers/${driver.id}`, { c: driver.c });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe(7);
    expect((await mechanic.put(`/api/drivers/${driver.id}`, { c: driver.c })).status).toBe(200);
  });

  it('stops working once deleted: Bearer, its sessions and /api/auth', async () => {
    const { token, value } = await create(manager, all);
    const auth = await t.anon.get(`/api/auth?access_token=${value}`);
    const session = new Client(t.url, auth.body.session);
    expect((await session.get('/api/fleets')).status).toBe(200);

    const del = await manager.delete(`/api/user/tokens/${token.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ error: 0 });

    const viaBearer = await withBearer(value, 'GET', '/api/fleets');
    expect(viaBearer.status).toBe(401);
    expect(viaBearer.body.error).toBe(1);
    expect((await session.get('/api/fleets')).status).toBe(401);
    expect((await t.anon.get(`/api/auth?access_token=${value}`)).status).toBe(401);
    const list = await manager.get('/api/user/tokens');
    expect(list.body.tokens.map((x: { id: number }) => x.id)).not.toContain(token.id);
    const again = await manager.delete(`/api/user/tokens/${token.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe(5);
  });

  it('answers 404 for another user’s token id and leaves it working', async () => {
    const { token, value } = await create(viewer, all);
    const res = await manager.delete(`/api/user/tokens/${token.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(5);
    expect((await withBearer(value, 'GET', '/api/fleets')).status).toBe(200);
  });

  it('cannot list, create or delete tokens when the call itself is token-authenticated', async () => {
    const { token, value } = await create(manager, all);
    const auth = await t.anon.get(`/api/auth?access_token=${value}`);
    const session = new Client(t.url, auth.body.session);
    const body = { description: 'minted by a token', rights: all };
    const attempts = [
      await withBearer(value, 'GET', '/api/user/tokens'),
      await withBearer(value, 'POST', '/api/user/tokens', body),
      await withBearer(value, 'DELETE', `/api/user/tokens/${token.id}`),
      await session.get('/api/user/tokens'),
      await session.post('/api/user/tokens', body),
      await session.delete(`/api/user/tokens/${token.id}`),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 7, reason: 'Access denied' });
    }
    const list = await manager.get('/api/user/tokens');
    expect(list.body.tokens.map((x: { description: string }) => x.description)).not.toContain(
      'minted by a token',
    );
    expect(list.body.tokens.map((x: { id: number }) => x.id)).toContain(token.id);
  });

  it('an expired token is refused and no longer listed', async () => {
    const { token, value } = await create(manager, all);
    await t.server.ctx.db.kysely
      .updateTable('access_tokens')
      .set({ expires_at: 1000 })
      .where('id', '=', token.id)
      .execute();
    expect((await withBearer(value, 'GET', '/api/fleets')).status).toBe(401);
    expect((await t.anon.get(`/api/auth?access_token=${value}`)).status).toBe(401);
    const list = await manager.get('/api/user/tokens');
    expect(list.body.tokens.map((x: { id: number }) => x.id)).not.toContain(token.id);
  });

  it('logging out of a token session keeps the token', async () => {
    const { value } = await create(manager, all);
    const auth = await t.anon.get(`/api/auth?access_token=${value}`);
    const session = new Client(t.url, auth.body.session);
    expect((await session.get('/api/logout')).status).toBe(200);
    expect((await session.get('/api/fleets')).status).toBe(401);
    expect((await withBearer(value, 'GET', '/api/fleets')).status).toBe(200);
  });

  it('validates the description and the rights', async () => {
    const res = await manager.post('/api/user/tokens', {
      description: '',
      rights: { intervals: 'view', services: 'all', archive: 'none' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(4);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'body.description',
      'body.rights.services',
    ]);
  });
});
