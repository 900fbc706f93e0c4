import { PASSWORD_MIN_LENGTH } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type Client, createUser, startTestServer, type TestServer } from '../../test/harness.js';

/** Users of an account (admin/users.ts): CRUD, deactivation, passwords, subtrees. */
describe('admin users', () => {
  let t: TestServer;
  let root: Client;
  let admin: Client;
  let demoAccount: number;
  let otherAccount: number;
  const PASSWORD = 'a-good-password';

  beforeAll(async () => {
    t = await startTestServer();
    [root, admin] = await Promise.all([t.login('root'), t.login('admin')]);
    demoAccount = await accountOf(t, 'admin');
    otherAccount = await accountOf(t, 'outsider');
  });
  afterAll(() => t.close());

  const usersUrl = (account: number) => `/api/admin/accounts/${account}/users`;
  const create = async (nm: string, extra: Record<string, unknown> = {}) => {
    const res = await admin.post(usersUrl(demoAccount), {
      nm,
      n: `${nm} full`,
      password: PASSWORD,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: number; nm: string };
  };
  const loginAs = (username: string, password = PASSWORD) =>
    t.anon.post('/api/login', { username, password });
  const signIn = async (name: string, password = PASSWORD) => (await t.signIn(name, password)).client;
  const stored = (id: number) =>
    t.server.ctx.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

  it('lists the users of an account with their login, name, language and flags', async () => {
    const res = await admin.get(usersUrl(demoAccount));
    expect(res.status).toBe(200);
    const names = res.body.users.map((u: { nm: string }) => u.nm);
    expect(names).toEqual(expect.arrayContaining(['admin', 'manager', 'mechanic', 'viewer']));
    expect(names).not.toContain('outsider');
    expect(res.body.users.find((u: { nm: string }) => u.nm === 'admin')).toMatchObject({
      id: t.demo.users.admin,
      lang: 'en',
      admin: 1,
      active: 1,
      su: 0,
      created: expect.any(Number),
    });
  });

  it('creates a user who can log in; the login is unique across the installation (409)', async () => {
    const made = await admin.post(usersUrl(demoAccount), {
      nm: 'dora',
      n: 'Dora Driver',
      password: PASSWORD,
      lang: 'de',
    });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({
      id: expect.any(Number),
      nm: 'dora',
      n: 'Dora Driver',
      lang: 'de',
      admin: 0,
      active: 1,
      su: 0,
      created: expect.any(Number),
    });
    expect((await loginAs('dora')).status).toBe(200);
    for (const nm of ['dora', 'DORA', 'outsider']) {
      const dup = await admin.post(usersUrl(demoAccount), { nm, password: PASSWORD });
      expect(dup.status, nm).toBe(409);
      expect(dup.body.error).toBe(10);
    }
    // Across accounts too.
    expect((await root.post(usersUrl(otherAccount), { nm: 'Dora', password: PASSWORD })).status).toBe(409);
  });

  it(`refuses a password shorter than ${PASSWORD_MIN_LENGTH} characters and an empty login`, async () => {
    const short = await admin.post(usersUrl(demoAccount), {
      nm: 'shorty',
      password: 'x'.repeat(PASSWORD_MIN_LENGTH - 1),
    });
    expect(short.status).toBe(400);
    expect(short.body.details.map((d: { field: string }) => d.field)).toEqual(['body.password']);
    expect((await admin.post(usersUrl(demoAccount), { nm: ' ', password: PASSWORD })).status).toBe(400);
    expect((await loginAs('shorty', 'x'.repeat(PASSWORD_MIN_LENGTH - 1))).status).toBe(401);
    const reset = await admin.put(`/api/admin/users/${t.demo.users.viewer}/password`, {
      password: 'too-short',
    });
    expect(reset.status).toBe(400);
  });

  it('edits login, name, language and admin flag; takes the record as read (round trip)', async () => {
    const { id } = await create('eddie');
    const read = () =>
      admin.get(usersUrl(demoAccount)).then((r) => r.body.users.find((u: { id: number }) => u.id === id));
    const before = await read();
    const res = await admin.put(`/api/admin/users/${id}`, {
      ...before,
      nm: 'edwin',
      n: 'Edwin E',
      lang: 'fr',
      admin: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, nm: 'edwin', n: 'Edwin E', lang: 'fr', admin: 1 });
    expect(await read()).toEqual(res.body);
    expect((await loginAs('edwin')).status).toBe(200);
    expect((await loginAs('eddie')).status).toBe(401);
    const clash = await admin.put(`/api/admin/users/${id}`, { nm: 'Manager' });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe(10);
  });

  it('never applies su, account or id from a body (mass assignment)', async () => {
    const { id } = await create('mallory');
    const before = await stored(id);
    // `su` is stored and never set here: another value is refused (400 naming it), nothing written.
    const promote = await admin.put(`/api/admin/users/${id}`, { su: 1, n: 'Mallory' });
    expect(promote.status).toBe(400);
    expect(promote.body.details).toEqual([{ field: 'body.su', message: 'Cannot be changed' }]);
    expect(await stored(id)).toEqual(before);
    const res = await admin.put(`/api/admin/users/${id}`, {
      su: 0,
      id: t.demo.users.admin,
      account_id: otherAccount,
      password_hash: 'x',
      created: 1,
      n: 'Mallory',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, su: 0, n: 'Mallory' });
    expect(await stored(id)).toEqual({ ...before, full_name: 'Mallory' });
    const made = await admin.post(usersUrl(demoAccount), {
      nm: 'mallory2',
      password: PASSWORD,
      su: 1,
      account_id: otherAccount,
      id: 1,
    });
    expect(made.status).toBe(200);
    expect(await stored(made.body.id)).toMatchObject({ su: 0, account_id: demoAccount });
  });

  it('deactivation refuses the login and ends the sessions; reactivation lets the user back', async () => {
    const { id } = await create('dave');
    const session = await signIn('dave');
    expect((await session.get('/api/fleets')).status).toBe(200);
    const off = await admin.put(`/api/admin/users/${id}`, { active: 0 });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(0);
    expect((await session.get('/api/fleets')).status).toBe(401);
    const refused = await loginAs('dave');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 7, reason: 'User is deactivated' });
    // A wrong password still says only that.
    expect((await loginAs('dave', 'wrong-password')).body.error).toBe(8);
    expect((await admin.put(`/api/admin/users/${id}`, { active: 1 })).body.active).toBe(1);
    expect((await loginAs('dave')).status).toBe(200);
    expect((await (await signIn('dave')).get('/api/fleets')).status).toBe(200);
  });

  it('deactivation ends the API tokens too', async () => {
    const { id } = await create('tokenuser');
    const session = await signIn('tokenuser');
    const token = await session.post('/api/user/tokens', {
      description: 'gateway',
      rights: { intervals: 'view', services: 'none', archive: 'none' },
    });
    expect(token.status).toBe(200);
    const bearer = () =>
      t.anon.request('GET', '/api/fleets', undefined, { authorization: `Bearer ${token.body.value}` });
    expect((await bearer()).status).toBe(200);
    await admin.put(`/api/admin/users/${id}`, { active: 0 });
    expect((await bearer()).status).toBe(401);
  });

  it('a password reset ends the user’s sessions; the new password works, the old does not', async () => {
    const { id } = await create('paula');
    const session = await signIn('paula');
    const res = await admin.put(`/api/admin/users/${id}/password`, { password: 'a-new-password' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: 0 });
    expect((await session.get('/api/fleets')).status).toBe(401);
    expect((await loginAs('paula')).status).toBe(401);
    expect((await loginAs('paula', 'a-new-password')).status).toBe(200);
  });

  it('deletes a user with sessions and fleet memberships; nobody deletes or deactivates themselves', async () => {
    const { id } = await create('gone');
    await t.server.ctx.db.kysely
      .insertInto('fleet_users')
      .values({ fleet_id: t.demo.fleetId, user_id: id, acl: 1 })
      .execute();
    const session = await signIn('gone');
    const res = await admin.delete(`/api/admin/users/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: 0 });
    expect(await stored(id)).toBeUndefined();
    expect((await session.get('/api/fleets')).status).toBe(401);
    const members = await t.server.ctx.db.kysely
      .selectFrom('fleet_users')
      .select('user_id')
      .where('user_id', '=', id)
      .execute();
    expect(members).toEqual([]);
    expect(
      (await admin.get(usersUrl(demoAccount))).body.users.map((u: { id: number }) => u.id),
    ).not.toContain(id);
    expect((await loginAs('gone')).status).toBe(401);

    const self = t.demo.users.admin!;
    expect((await admin.delete(`/api/admin/users/${self}`)).status).toBe(400);
    expect((await admin.put(`/api/admin/users/${self}`, { active: 0 })).status).toBe(400);
    expect((await admin.put(`/api/admin/users/${self}`, { admin: 0 })).status).toBe(400);
    expect((await stored(self))?.active).toBe(1);
  });

  it('an account admin may grant the admin flag within its subtree', async () => {
    const made = await create('deputy', { admin: 1 });
    const deputy = await signIn('deputy');
    expect((await deputy.get(usersUrl(demoAccount))).status).toBe(200);
    expect(made).toMatchObject({ nm: 'deputy' });
  });

  it('the demo admin cannot touch Northwind’s users nor super users; root can do everything', async () => {
    const outsider = t.demo.users.outsider!;
    const denied = [
      await admin.get(usersUrl(otherAccount)),
      await admin.post(usersUrl(otherAccount), { nm: 'intruder', password: PASSWORD }),
      await admin.put(`/api/admin/users/${outsider}`, { n: 'Hacked' }),
      await admin.put(`/api/admin/users/${outsider}/password`, { password: 'hacked-password' }),
      await admin.delete(`/api/admin/users/${outsider}`),
      await admin.put(`/api/admin/users/${t.demo.users.root}`, { n: 'Hacked' }),
      await admin.put('/api/admin/users/999999', { n: 'Nobody' }),
    ];
    expect(denied.map((r) => r.status)).toEqual(denied.map(() => 403));
    // A super user placed inside the demo account is still out of the account admin's reach.
    const su = await createUser(t, { name: 'inner-su', accountId: demoAccount });
    await t.server.ctx.db.kysely.updateTable('users').set({ su: 1 }).where('id', '=', su).execute();
    expect((await admin.put(`/api/admin/users/${su}`, { n: 'Demoted' })).status).toBe(403);
    expect((await admin.delete(`/api/admin/users/${su}`)).status).toBe(403);
    expect((await admin.put(`/api/admin/users/${su}/password`, { password: PASSWORD })).status).toBe(403);
    expect((await stored(su))?.full_name).toBe('inner-su');

    expect((await root.get(usersUrl(otherAccount))).status).toBe(200);
    const renamed = await root.put(`/api/admin/users/${outsider}`, { n: 'Olive Outsider' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.n).toBe('Olive Outsider');
    expect((await root.put(`/api/admin/users/${su}`, { n: 'Kept' })).status).toBe(200);
    expect((await root.delete(`/api/admin/users/${su}`)).status).toBe(200);
  });

  it('a user who is no account admin gets 403 everywhere', async () => {
    for (const name of ['manager', 'viewer', 'outsider']) {
      const client = await t.login(name);
      const own = await accountOf(t, name);
      const replies = [
        await client.get(usersUrl(own)),
        await client.post(usersUrl(own), { nm: `by-${name}`, password: PASSWORD }),
        await client.put(`/api/admin/users/${t.demo.users.viewer}`, { n: 'x' }),
        await client.put(`/api/admin/users/${t.demo.users.viewer}/password`, { password: PASSWORD }),
        await client.delete(`/api/admin/users/${t.demo.users.mechanic}`),
      ];
      expect(
        replies.map((r) => r.status),
        name,
      ).toEqual([403, 403, 403, 403, 403]);
    }
  });
});
