import { ACL_ALL, Acl } from '@fleetkeep/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Server } from '../server.js';
import {
  accountOf,
  Client,
  createAccount,
  createFleet,
  createUser,
  DEMO_PASSWORD,
  listenAnother,
  startTestServer,
  TEST_DB,
  type TestServer,
} from '../test/harness.js';

/**
 * The session and fleet-access memory of auth/cache.ts never serves a stale answer:
 * every change is made through instance A (or straight in the database) and read back at once through
 * instance B, which remembered the old answer a moment before. Both instances share one database (on
 * SQLite the same file), each with its own memory and its own bus.
 */
describe(`access memory across instances on ${TEST_DB}`, () => {
  let t: TestServer;
  let second: Server;
  let urlB: string;
  let admin: Client;
  let n = 0;

  beforeAll(async () => {
    t = await startTestServer();
    ({ server: second, url: urlB } = await listenAnother({ ...t.config }));
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  /** A fresh member of the demo fleet, signed in: its session on A and the same session on B. */
  async function member(acl: number = ACL_ALL) {
    const name = `cache-user-${++n}`;
    const id = await createUser(t, {
      name,
      accountId: await accountOf(t, 'manager'),
      memberships: [{ fleetId: t.demo.fleetId, acl }],
    });
    const { client } = await t.signIn(name);
    return { id, name, onA: client, onB: new Client(urlB, client.ssid) };
  }

  const units = () => `/api/fleets/${t.demo.fleetId}/units`;
  const services = () => `/api/fleets/${t.demo.fleetId}/services`;

  /** Reads twice through B so that B answers from its memory when the change comes. */
  async function warm(client: Client, path: string) {
    expect((await client.get(path)).status).toBe(200);
    expect((await client.get(path)).status).toBe(200);
  }

  let fleetUsersBefore: { id: number; acl: number }[];
  beforeEach(async () => {
    const res = await admin.get(`/api/fleets/${t.demo.fleetId}/users`);
    fleetUsersBefore = res.body.users.map((u: { id: number; acl: number }) => ({ id: u.id, acl: u.acl }));
  });

  async function setAcl(userId: number, acl: number | null) {
    const res = await admin.get(`/api/fleets/${t.demo.fleetId}/users`);
    const users = (res.body.users as { id: number; acl: number }[])
      .map((u) => ({ id: u.id, acl: u.id === userId ? acl : u.acl }))
      .filter((u): u is { id: number; acl: number } => u.acl !== null);
    expect((await admin.put(`/api/fleets/${t.demo.fleetId}/users`, { users })).status).toBe(200);
  }

  it('logout on A: the session is refused on B at once', async () => {
    const user = await member();
    await warm(user.onB, units());
    expect((await user.onA.get('/api/logout')).status).toBe(200);
    expect((await user.onB.get(units())).status).toBe(401);
  });

  it('a password change on A ends the other sessions on B at once; the changing session stays', async () => {
    const user = await member();
    const other = (await t.signIn(user.name)).client;
    const otherOnB = new Client(urlB, other.ssid);
    await warm(otherOnB, units());
    await warm(user.onB, units());
    const res = await user.onA.put('/api/user/password', {
      old: DEMO_PASSWORD,
      new: 'a-brand-new-password-1',
    });
    expect(res.status).toBe(200);
    expect((await otherOnB.get(units())).status).toBe(401);
    expect((await user.onB.get(units())).status).toBe(200);
  });

  it('removing the membership on A: refused on B at once', async () => {
    const user = await member();
    await warm(user.onB, units());
    await setAcl(user.id, null);
    expect((await user.onB.get(units())).status).toBe(403);
    expect((await user.onB.get('/api/fleets')).body.fleets).toEqual([]);
  });

  it('lowering the acl on A: the read it needed is refused on B at once, the rest still answers', async () => {
    const user = await member();
    await warm(user.onB, services());
    await setAcl(user.id, Acl.viewInterval);
    expect((await user.onB.get(services())).status).toBe(403);
    expect((await user.onB.get(units())).status).toBe(200);
    const fleets = (await user.onB.get('/api/fleets')).body.fleets;
    expect(fleets.map((f: { acl: number }) => f.acl)).toEqual([Acl.viewInterval]);
  });

  it('raising the acl on A: granted on B at once', async () => {
    const user = await member(Acl.viewInterval);
    expect((await user.onB.get(services())).status).toBe(403);
    await warm(user.onB, units());
    await setAcl(user.id, Acl.viewInterval | Acl.viewService);
    expect((await user.onB.get(services())).status).toBe(200);
  });

  it('deactivating the user on A: refused on B at once', async () => {
    const user = await member();
    await warm(user.onB, units());
    expect((await admin.put(`/api/admin/users/${user.id}`, { active: 0 })).status).toBe(200);
    expect((await user.onB.get(units())).status).toBe(401);
  });

  it('suspending the account on A: its users are refused on B at once', async () => {
    const account = await createAccount(t, `cache-account-${++n}`, await accountOf(t, 'admin'));
    const fleet = await createFleet(t, account, `cache-fleet-${n}`);
    const name = `cache-sub-user-${n}`;
    await createUser(t, { name, accountId: account, memberships: [{ fleetId: fleet, acl: ACL_ALL }] });
    const onB = new Client(urlB, (await t.signIn(name)).client.ssid);
    await warm(onB, `/api/fleets/${fleet}/units`);
    expect((await admin.put(`/api/admin/accounts/${account}`, { s: 0 })).status).toBe(200);
    expect((await onB.get(`/api/fleets/${fleet}/units`)).status).toBe(401);
  });

  it('a personal API token deleted on A is refused on B at once', async () => {
    const user = await member();
    const created = await user.onA.post('/api/user/tokens', {
      description: 'cache test',
      rights: { intervals: 'view', services: 'view', archive: 'none' },
    });
    expect(created.status).toBe(200);
    const bearer = new Client(urlB);
    const read = () =>
      bearer.request('GET', units(), undefined, { authorization: `Bearer ${created.body.value}` });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    expect((await user.onA.delete(`/api/user/tokens/${created.body.token.id}`)).status).toBe(200);
    expect((await read()).status).toBe(401);
  });

  it('a fleet renamed on A is read with its new name on B at once', async () => {
    const user = await member();
    await warm(user.onB, '/api/fleets');
    const before = (await admin.get(`/api/fleets`)).body.fleets.find(
      (f: { id: number }) => f.id === t.demo.fleetId,
    );
    const renamed = `${before.n} (renamed)`;
    try {
      expect((await admin.put(`/api/fleets/${t.demo.fleetId}`, { ...before, n: renamed })).status).toBe(200);
      const fleets = (await user.onB.get('/api/fleets')).body.fleets;
      expect(fleets.map((f: { n: string }) => f.n)).toEqual([renamed]);
    } finally {
      await admin.put(`/api/fleets/${t.demo.fleetId}`, before);
    }
  });

  it('a change written straight into the database (no module, no bus) is seen on both at once', async () => {
    const user = await member();
    await warm(user.onA, units());
    await warm(user.onB, units());
    await t.server.ctx.db.kysely
      .deleteFrom('fleet_users')
      .where('user_id', '=', user.id)
      .where('fleet_id', '=', t.demo.fleetId)
      .execute();
    expect((await user.onB.get(units())).status).toBe(403);
    expect((await user.onA.get(units())).status).toBe(403);
    await t.server.ctx.db.kysely.updateTable('users').set({ active: 0 }).where('id', '=', user.id).execute();
    expect((await user.onB.get('/api/fleets')).status).toBe(401);
  });

  it('keeps the demo fleet access list as it was', async () => {
    // Guards the tests above: they change only the users they made.
    const res = await admin.get(`/api/fleets/${t.demo.fleetId}/users`);
    const now = res.body.users.map((u: { id: number; acl: number }) => ({ id: u.id, acl: u.acl }));
    expect(now.filter((u: { id: number }) => fleetUsersBefore.some((b) => b.id === u.id))).toEqual(
      fleetUsersBefore,
    );
  });
});
