import { ACL_ALL } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountOf,
  type Client,
  createAccount,
  createFleet,
  DEMO_PASSWORD,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/** Account activation (spec §7 "Admin", PRODUCT.md "Administration"). */
describe('admin accounts', () => {
  let t: TestServer;
  let root: Client;
  let admin: Client;
  let outsider: Client;
  let topAccount: number;
  let demoAccount: number;
  let otherAccount: number;
  let subAccount: number;
  let subSubAccount: number;
  let subFleet: number;

  beforeAll(async () => {
    t = await startTestServer();
    [root, admin, outsider] = await Promise.all([t.login('root'), t.login('admin'), t.login('outsider')]);
    topAccount = await accountOf(t, 'root');
    demoAccount = await accountOf(t, 'admin');
    otherAccount = await accountOf(t, 'outsider');
    subAccount = await createAccount(t, 'Demo Subsidiary', demoAccount);
    subSubAccount = await createAccount(t, 'Demo Depot', subAccount);
    subFleet = await createFleet(t, subAccount, 'Subsidiary fleet');
  });
  afterAll(() => t.close());

  const ids = (body: { accounts: { id: number }[] }) => body.accounts.map((a) => a.id).sort((a, b) => a - b);
  const northwindAcl = async (client: Client) =>
    (await client.get('/api/fleets')).body.fleets.find((f: { id: number }) => f.id === t.demo.otherFleetId);

  it('an account admin sees the accounts below its own, not its own nor others', async () => {
    const res = await admin.get('/api/admin/accounts');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([subAccount, subSubAccount]);
    const sub = res.body.accounts.find((a: { id: number }) => a.id === subAccount);
    expect(sub).toEqual({
      id: subAccount,
      n: 'Demo Subsidiary',
      parent: demoAccount,
      s: 1,
      active: 1,
      fleets: [{ id: subFleet, n: 'Subsidiary fleet' }],
    });
    // Its own account comes apart, to manage its users (it cannot suspend itself).
    expect(res.body.own).toEqual({ id: demoAccount, n: 'Demo Logistics' });
  });

  it('the super user sees every account but its own', async () => {
    const res = await root.get('/api/admin/accounts');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(
      [demoAccount, otherAccount, subAccount, subSubAccount].sort((a, b) => a - b),
    );
    expect(ids(res.body)).not.toContain(topAccount);
    expect(res.body.own.id).toBe(topAccount);
  });

  it('refuses users who are no account admin, fleet admins included', async () => {
    for (const name of ['manager', 'mechanic', 'viewer', 'outsider']) {
      const client = await t.login(name);
      const list = await client.get('/api/admin/accounts');
      expect(list.status, name).toBe(403);
      expect(list.body).toEqual({ error: 7, reason: 'Access denied' });
      const put = await client.put(`/api/admin/accounts/${subAccount}`, { s: 0 });
      expect(put.status, name).toBe(403);
    }
  });

  it('suspending Northwind takes its fleet from its users; reactivating gives it back', async () => {
    expect((await northwindAcl(outsider)).acl).toBe(ACL_ALL);

    const off = await root.put(`/api/admin/accounts/${otherAccount}`, { s: 0 });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: otherAccount, s: 0, active: 0 });

    // Its users' sessions ended with the suspension (suspension.http.test.ts), and they
    // cannot log in again while it lasts.
    for (const path of ['units', 'drivers', 'trailers', 'users']) {
      const res = await outsider.get(`/api/fleets/${t.demo.otherFleetId}/${path}`);
      expect(res.status, path).toBe(401);
      expect(res.body.error).toBe(1);
    }
    expect((await outsider.put(`/api/fleets/${t.demo.otherFleetId}`, { cur: 'GBP' })).status).toBe(401);
    const refused = await t.anon.post('/api/login', { username: 'outsider', password: DEMO_PASSWORD });
    expect(refused.body).toEqual({ error: 7, reason: 'Account is suspended' });
    // Those above keep the administrative view, and see it suspended.
    expect(await northwindAcl(root)).toMatchObject({ acl: 1, s: 0 });
    const update = await root.put(`/api/fleets/${t.demo.otherFleetId}`, { cur: 'EUR' });
    expect(update.status).toBe(200);
    expect(update.body).toMatchObject({ acl: 1, s: 0 });
    const listed = (await root.get('/api/admin/accounts')).body.accounts.find(
      (a: { id: number }) => a.id === otherAccount,
    );
    expect(listed).toMatchObject({ s: 0, active: 0 });

    const on = await root.put(`/api/admin/accounts/${otherAccount}`, { s: 1 });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ id: otherAccount, s: 1, active: 1 });
    outsider = await t.login('outsider');
    expect(await northwindAcl(outsider)).toMatchObject({ acl: ACL_ALL, s: 1 });
    expect((await outsider.get(`/api/fleets/${t.demo.otherFleetId}/units`)).status).toBe(200);
  });

  it('an account admin suspends an account below, and everything below that goes with it', async () => {
    const off = await admin.put(`/api/admin/accounts/${subAccount}`, { s: 0 });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: subAccount, s: 0, active: 0 });
    const list = (await admin.get('/api/admin/accounts')).body.accounts;
    expect(list.find((a: { id: number }) => a.id === subSubAccount)).toMatchObject({ s: 1, active: 0 });
    expect((await admin.put(`/api/admin/accounts/${subAccount}`, { s: 1 })).body).toMatchObject({
      active: 1,
    });
    const after = (await admin.get('/api/admin/accounts')).body.accounts;
    expect(after.find((a: { id: number }) => a.id === subSubAccount)).toMatchObject({ s: 1, active: 1 });
  });

  it('an account admin cannot change its own account nor one outside its subtree', async () => {
    const own = await admin.put(`/api/admin/accounts/${demoAccount}`, { s: 0 });
    expect(own.status).toBe(400);
    expect(own.body.error).toBe(4);
    const foreign = await admin.put(`/api/admin/accounts/${otherAccount}`, { s: 0 });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe(7);
    const top = await admin.put(`/api/admin/accounts/${topAccount}`, { s: 0 });
    expect(top.status).toBe(403);
    // Nothing changed: the demo users still work, Northwind is still active.
    expect((await admin.get(`/api/fleets/${t.demo.fleetId}/units`)).status).toBe(200);
    expect((await northwindAcl(outsider)).s).toBe(1);
  });

  it('suspending an account takes its own admin’s rights too, until it is reactivated', async () => {
    const fleetUrl = `/api/fleets/${t.demo.fleetId}`;
    expect((await root.put(`/api/admin/accounts/${demoAccount}`, { s: 0 })).status).toBe(200);
    try {
      // Not "above" its own account: the admin's session ends like every other user's of it.
      expect((await admin.get('/api/fleets')).status).toBe(401);
      expect((await admin.put(fleetUrl, { n: 'Still mine' })).status).toBe(401);
      expect((await admin.put(`/api/admin/accounts/${subAccount}`, { s: 0 })).status).toBe(401);
      const refused = await t.anon.post('/api/login', { username: 'admin', password: DEMO_PASSWORD });
      expect(refused.status).toBe(403);
      // Those above keep the administrative view.
      expect((await root.get(`${fleetUrl}/users`)).status).toBe(200);
    } finally {
      expect((await root.put(`/api/admin/accounts/${demoAccount}`, { s: 1 })).status).toBe(200);
    }
    admin = await t.login('admin');
    expect((await admin.get('/api/fleets')).body.fleets.map((f: { id: number }) => f.id)).toEqual([
      t.demo.fleetId,
      subFleet,
    ]);
    expect((await admin.get('/api/admin/accounts')).status).toBe(200);
    const list = (await admin.get('/api/admin/accounts')).body.accounts;
    expect(list.find((a: { id: number }) => a.id === subAccount)).toMatchObject({ s: 1, active: 1 });
  });

  it('the super user cannot suspend its own account either', async () => {
    const res = await root.put(`/api/admin/accounts/${topAccount}`, { s: 0 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(4);
  });

  it('an unknown account answers like a foreign one; a bad state is invalid input', async () => {
    const unknown = await root.put('/api/admin/accounts/999999', { s: 1 });
    expect(unknown.status).toBe(403);
    const bad = await root.put(`/api/admin/accounts/${subAccount}`, { s: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['body.s']);
  });

  it('takes the account as read with s changed; only the activation changes (round trip)', async () => {
    const read = async () =>
      (await admin.get('/api/admin/accounts')).body.accounts.find(
        (a: { id: number }) => a.id === subSubAccount,
      );
    const before = await read();
    const off = await admin.put(`/api/admin/accounts/${subSubAccount}`, { ...before, s: 0 });
    expect(off.status).toBe(200);
    expect(await read()).toEqual({ ...before, s: 0, active: 0 });
    expect((await admin.put(`/api/admin/accounts/${subSubAccount}`, before)).status).toBe(200);
    expect(await read()).toEqual(before);
  });

  it('never applies parent, id or fleets from a body (mass assignment; renaming: accounts-create test)', async () => {
    const stored = () =>
      t.server.ctx.db.kysely
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', subSubAccount)
        .executeTakeFirstOrThrow();
    const before = await stored();
    // The parent is stored and no update moves an account: another `parent` is refused, naming it.
    for (const parent of [null, topAccount]) {
      const moved = await admin.put(`/api/admin/accounts/${subSubAccount}`, { s: 0, parent });
      expect(moved.status).toBe(400);
      expect(moved.body.details).toEqual([{ field: 'body.parent', message: 'Cannot be changed' }]);
      expect(await stored()).toEqual(before);
    }
    const res = await admin.put(`/api/admin/accounts/${subSubAccount}`, {
      s: 1,
      id: subAccount,
      parent: subAccount,
      parent_id: topAccount,
      active: 0,
      fleets: [{ id: t.demo.otherFleetId, n: 'x' }],
      su: 1,
      admin: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: subSubAccount, n: 'Demo Depot', parent: subAccount, s: 1, active: 1 });
    expect(await stored()).toEqual(before);
    const fleet = await t.server.ctx.db.kysely
      .selectFrom('fleets')
      .select('account_id')
      .where('id', '=', t.demo.otherFleetId)
      .executeTakeFirstOrThrow();
    expect(fleet.account_id).toBe(otherAccount);
  });
});
