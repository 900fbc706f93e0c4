import { ACL_ALL, Acl, FLEET_CURRENCY_MAX } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../../test/events-client.js';
import {
  accountOf,
  type Client,
  createAccount,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/** POST /api/fleets: who may create where, the creator's acl, validation, events. */
describe('creating fleets', () => {
  let t: TestServer;
  let root: Client;
  let admin: Client;
  let manager: Client;
  let outsider: Client;
  let demoAccount: number;
  let northwindAccount: number;

  beforeAll(async () => {
    t = await startTestServer();
    [root, admin, manager, outsider] = await Promise.all([
      t.login('root'),
      t.login('admin'),
      t.login('manager'),
      t.login('outsider'),
    ]);
    demoAccount = await accountOf(t, 'admin');
    northwindAccount = await accountOf(t, 'outsider');
  });
  afterAll(() => t.close());

  const listed = async (client: Client, id: number) =>
    ((await client.get('/api/fleets')).body.fleets as { id: number }[]).find((f) => f.id === id);
  const membership = (fleetId: number) =>
    t.server.ctx.db.kysely
      .selectFrom('fleet_users')
      .select(['fleet_id', 'user_id', 'acl'])
      .where('fleet_id', '=', fleetId)
      .execute();

  it('an account admin creates one in its own account, joins it with every right and sees it listed', async () => {
    const body = { n: 'Admin fleet', tz: 120, cur: 'USD', ms: 1, fm: 2, mdd: 3000 };
    const res = await admin.post('/api/fleets', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), ...body, acl: ACL_ALL, aid: demoAccount, s: 1 });
    expect(await listed(admin, res.body.id)).toEqual(res.body);
    const admin_ = await t.server.ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('name', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(await membership(res.body.id)).toEqual([
      { fleet_id: res.body.id, user_id: admin_.id, acl: ACL_ALL },
    ]);
    // Nobody else of the account is a member: the manager does not see it.
    expect(await listed(manager, res.body.id)).toBeUndefined();
  });

  it('a name another fleet of the account has is refused on create and rename; other accounts may share it', async () => {
    const first = await admin.post('/api/fleets', { n: 'Depot North' });
    expect(first.status).toBe(200);
    const before = await t.server.ctx.db.kysely.selectFrom('fleets').select('id').execute();
    const again = await admin.post('/api/fleets', { n: '  depot NORTH ' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: 10,
      details: [{ field: 'body.n', reason: 'Name is taken' }],
    });
    expect(await t.server.ctx.db.kysely.selectFrom('fleets').select('id').execute()).toEqual(before);

    const second = await admin.post('/api/fleets', { n: 'Depot South' });
    expect(second.status).toBe(200);
    const rename = await admin.put(`/api/fleets/${second.body.id}`, { n: 'Depot north' });
    expect(rename.status).toBe(409);
    expect(rename.body.details).toEqual([{ field: 'body.n', reason: 'Name is taken' }]);
    // Its own name, in another case, is no clash.
    expect((await admin.put(`/api/fleets/${first.body.id}`, { n: 'DEPOT NORTH' })).status).toBe(200);
    // Another account may have a fleet of that name.
    expect((await root.post('/api/fleets', { n: 'Depot North', aid: northwindAccount })).status).toBe(200);
  });

  it('the super user creates in any account, with defaults, and joins none', async () => {
    const own = await root.post('/api/fleets', { n: '  Root fleet  ' });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ n: 'Root fleet', tz: 0, cur: '', ms: 0, fm: 1, acl: Acl.admin, s: 1 });
    expect(await membership(own.body.id)).toEqual([]);
    expect(await listed(root, own.body.id)).toEqual(own.body);

    const there = await root.post('/api/fleets', { n: 'Northwind 2', aid: northwindAccount });
    expect(there.status).toBe(200);
    expect(there.body).toMatchObject({ aid: northwindAccount, acl: Acl.admin });
    // Northwind's own users are not members of it; its account admin would see it by role.
    expect(await listed(outsider, there.body.id)).toBeUndefined();
  });

  it("an account admin creates below its account but not in another account's", async () => {
    const sub = await createAccount(t, 'Demo branch', demoAccount);
    const below = await admin.post('/api/fleets', { n: 'Branch fleet', aid: sub });
    expect(below.status).toBe(200);
    expect(below.body).toMatchObject({ aid: sub, acl: ACL_ALL });

    const before = await t.server.ctx.db.kysely.selectFrom('fleets').select('id').execute();
    const foreign = await admin.post('/api/fleets', { n: 'Stolen', aid: northwindAccount });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ error: 7, reason: 'Access denied' });
    const unknown = await admin.post('/api/fleets', { n: 'Nowhere', aid: 999_999 });
    expect(unknown.status).toBe(403);
    expect(await t.server.ctx.db.kysely.selectFrom('fleets').select('id').execute()).toEqual(before);
  });

  it('a fleet admin who is no account admin, and a member of another account, are refused', async () => {
    for (const client of [manager, outsider]) {
      const res = await client.post('/api/fleets', { n: 'Nope' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 7, reason: 'Access denied' });
    }
  });

  it('validates as PUT /api/fleets/{id} does', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'body.n'],
      [{ n: '   ' }, 'body.n'],
      [{ n: 'x'.repeat(129) }, 'body.n'],
      [{ n: 'ok', cur: 'x'.repeat(FLEET_CURRENCY_MAX + 1) }, 'body.cur'],
      [{ n: 'ok', fm: 3 }, 'body.fm'],
      [{ n: 'ok', ms: 2 }, 'body.ms'],
      [{ n: 'ok', tz: 1.5 }, 'body.tz'],
      [{ n: 'ok', aid: 'demo' }, 'body.aid'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.post('/api/fleets', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(4);
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('takes no id, acl or state from the body', async () => {
    const res = await admin.post('/api/fleets', {
      n: 'Mass',
      id: 1,
      acl: 0,
      s: 0,
      account_id: northwindAccount,
    });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe(1);
    expect(res.body).toMatchObject({ n: 'Mass', acl: ACL_ALL, s: 1, aid: demoAccount });
    const first = await root.get('/api/fleets');
    expect(first.body.fleets.find((f: { id: number }) => f.id === 1).n).not.toBe('Mass');
  });

  it("announces the new fleet to the creator's open sessions", async () => {
    const { client, auth } = await t.signIn('admin');
    const events = await EventsClient.connect(t.url, auth.session);
    try {
      const res = await client.post('/api/fleets', { n: 'Announced' });
      const event = await events.next((e) => e.s === 'fleet' && e.t === 'c' && e.fid === res.body.id);
      expect(event.d).toMatchObject({ id: res.body.id, n: 'Announced', aid: demoAccount });
    } finally {
      events.close();
    }
  });
});
