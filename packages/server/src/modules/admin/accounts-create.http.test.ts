import { ADMIN_ACCOUNT_NAME_MAX } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type Client, startTestServer, type TestServer } from '../../test/harness.js';

/** Creating and renaming subordinate accounts (admin/accounts.ts). */
describe('admin accounts: create and rename', () => {
  let t: TestServer;
  let root: Client;
  let admin: Client;
  let topAccount: number;
  let demoAccount: number;
  let otherAccount: number;

  beforeAll(async () => {
    t = await startTestServer();
    [root, admin] = await Promise.all([t.login('root'), t.login('admin')]);
    topAccount = await accountOf(t, 'root');
    demoAccount = await accountOf(t, 'admin');
    otherAccount = await accountOf(t, 'outsider');
  });
  afterAll(() => t.close());

  const listed = async (client: Client, id: number) =>
    (await client.get('/api/admin/accounts')).body.accounts.find((a: { id: number }) => a.id === id);

  it('an account admin creates an account below its own, and one below that; both are listed', async () => {
    const sub = await admin.post('/api/admin/accounts', { n: '  Depot North  ' });
    expect(sub.status).toBe(200);
    expect(sub.body).toEqual({
      id: expect.any(Number),
      n: 'Depot North',
      parent: demoAccount,
      s: 1,
      active: 1,
      fleets: [],
    });
    const nested = await admin.post('/api/admin/accounts', { n: 'Yard 1', parent: sub.body.id });
    expect(nested.status).toBe(200);
    expect(nested.body).toMatchObject({ n: 'Yard 1', parent: sub.body.id, s: 1, active: 1 });
    expect(await listed(admin, sub.body.id)).toEqual(sub.body);
    expect(await listed(admin, nested.body.id)).toEqual(nested.body);
    // The new account is administered at once: its users can be listed.
    expect((await admin.get(`/api/admin/accounts/${nested.body.id}/users`)).body).toEqual({ users: [] });
  });

  it('names are unique among siblings (409), free elsewhere, and at most 128 characters', async () => {
    expect((await admin.post('/api/admin/accounts', { n: 'Twin' })).status).toBe(200);
    const twin = await admin.post('/api/admin/accounts', { n: 'TWIN' });
    expect(twin.status).toBe(409);
    expect(twin.body.error).toBe(10);
    const elsewhere = await root.post('/api/admin/accounts', { n: 'Twin', parent: otherAccount });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.parent).toBe(otherAccount);
    const long = await admin.post('/api/admin/accounts', { n: 'x'.repeat(ADMIN_ACCOUNT_NAME_MAX + 1) });
    expect(long.status).toBe(400);
    expect(long.body.details.map((d: { field: string }) => d.field)).toEqual(['body.n']);
    expect((await admin.post('/api/admin/accounts', { n: '   ' })).status).toBe(400);
    expect((await admin.post('/api/admin/accounts', { n: 'x'.repeat(ADMIN_ACCOUNT_NAME_MAX) })).status).toBe(
      200,
    );
  });

  it('an account admin cannot create outside its subtree nor a top account; the super user can', async () => {
    for (const parent of [otherAccount, topAccount, null, 999999]) {
      const res = await admin.post('/api/admin/accounts', { n: 'Not mine', parent });
      expect(res.status, String(parent)).toBe(403);
      expect(res.body.error).toBe(7);
    }
    const top = await root.post('/api/admin/accounts', { n: 'Second organisation', parent: null });
    expect(top.status).toBe(200);
    expect(top.body).toMatchObject({ parent: null, s: 1, active: 1 });
    const below = await root.post('/api/admin/accounts', { n: 'Below top' });
    expect(below.body.parent).toBe(topAccount);
    for (const name of ['manager', 'viewer', 'outsider']) {
      const res = await (await t.login(name)).post('/api/admin/accounts', { n: 'Mine' });
      expect(res.status, name).toBe(403);
    }
  });

  it('renames with n, keeping the activation; s and n together do both', async () => {
    const { id } = (await admin.post('/api/admin/accounts', { n: 'Old name' })).body;
    const renamed = await admin.put(`/api/admin/accounts/${id}`, { n: 'New name' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ id, n: 'New name', parent: demoAccount, s: 1, active: 1 });
    const both = await admin.put(`/api/admin/accounts/${id}`, { n: 'Newer name', s: 0 });
    expect(both.body).toEqual({ id, n: 'Newer name', parent: demoAccount, s: 0, active: 0 });
    expect(await listed(admin, id)).toMatchObject({ n: 'Newer name', s: 0, active: 0 });
    // Round trip: the account as read, renamed.
    const read = await listed(admin, id);
    expect((await admin.put(`/api/admin/accounts/${id}`, { ...read, n: 'Round trip', s: 1 })).status).toBe(
      200,
    );
    expect(await listed(admin, id)).toEqual({ ...read, n: 'Round trip', s: 1, active: 1 });
  });

  it('refuses a rename to a sibling’s name, of its own account, outside the subtree, or empty', async () => {
    const a = (await admin.post('/api/admin/accounts', { n: 'Sibling A' })).body.id;
    await admin.post('/api/admin/accounts', { n: 'Sibling B' });
    const clash = await admin.put(`/api/admin/accounts/${a}`, { n: 'sibling b' });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe(10);
    expect((await admin.put(`/api/admin/accounts/${demoAccount}`, { n: 'Mine now' })).status).toBe(400);
    expect((await admin.put(`/api/admin/accounts/${otherAccount}`, { n: 'Mine now' })).status).toBe(403);
    expect((await admin.put(`/api/admin/accounts/${a}`, { n: '' })).status).toBe(400);
    expect((await admin.put(`/api/admin/accounts/${a}`, {})).status).toBe(400);
    expect(await listed(admin, a)).toMatchObject({ n: 'Sibling A' });
    expect(await listed(root, otherAccount)).toMatchObject({ n: expect.not.stringMatching('Mine now') });
  });

  it('an account made elsewhere (another instance), unknown to the cached tree, is found on the next call', async () => {
    await admin.get('/api/admin/accounts'); // the tree is cached now
    // Written past this instance's cache, as another instance would.
    const { id } = await t.server.ctx.db.kysely
      .insertInto('accounts')
      .values({ name: 'Made elsewhere', parent_id: demoAccount, active: 1, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const activated = await admin.put(`/api/admin/accounts/${id}`, { s: 1 });
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);
    expect(activated.body).toMatchObject({ id, n: 'Made elsewhere', s: 1 });
  });
});
