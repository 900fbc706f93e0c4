import { ACL_ALL, TZ_DST_EUROPE } from '@fleetkeep/core';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';

/** The first run on a database without users. */

const PASSWORD = 'first-run-password';

function setupBody(overrides: Record<string, unknown> = {}) {
  return {
    organisation: 'Baltic Haulage',
    name: 'Rita Root',
    login: 'rita',
    password: PASSWORD,
    lang: 'lt',
    ms: 1,
    fm: 2,
    // UTC+02:00 with the European daylight-saving rule (spec §5 "Time zone").
    tz: 120 | TZ_DST_EUROPE,
    cur: 'EUR',
    ...overrides,
  };
}

async function counts(t: TestServer) {
  const db = t.server.ctx.db.kysely;
  const count = async (table: 'users' | 'accounts' | 'fleets') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { users: await count('users'), accounts: await count('accounts'), fleets: await count('fleets') };
}

describe('first run', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('sets up once: super user, top account and first fleet, then 409', async () => {
    t = await startTestServer({ demo: false });
    expect((await t.anon.get('/api/setup')).body).toEqual({ needed: true });

    const res = await t.anon.post('/api/setup', setupBody());
    expect(res.status).toBe(200);
    expect(typeof res.body.access_token).toBe('string');
    expect((await t.anon.get('/api/setup')).body).toEqual({ needed: false });

    // The returned token opens a session at once (the web signs in with it).
    const direct = await t.anon.get(`/api/auth?access_token=${encodeURIComponent(res.body.access_token)}`);
    expect(direct.status).toBe(200);

    const again = await t.anon.post('/api/setup', setupBody({ login: 'mallory' }));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 10, reason: 'Fleetkeep is already set up' });
    expect(await counts(t)).toEqual({ users: 1, accounts: 1, fleets: 1 });

    const { auth, client: rita } = await t.signIn('rita', PASSWORD);
    expect(auth.su).toBe(1);
    expect(auth.admin).toBe(0);
    expect(auth.user.nm).toBe('Rita Root');
    expect(auth.model.s.lang).toBe('lt');
    expect(auth.fleets).toHaveLength(1);
    expect(auth.fleets[0]).toMatchObject({
      n: 'Baltic Haulage',
      tz: 120 | TZ_DST_EUROPE,
      cur: 'EUR',
      ms: 1,
      fm: 2,
      s: 1,
    });
    expect(auth.fid).toBe(auth.fleets[0].id);
    // The first user is also the first fleet's manager (docs/product.md "Working alone"): every right,
    // and the fleet's operational routes answer them.
    expect(auth.fleets[0].acl).toBe(ACL_ALL);
    expect((await rita.get(`/api/fleets/${auth.fid}/services`)).status).toBe(200);
    const unit = await rita.post(`/api/fleets/${auth.fid}/units`, { nm: 'Truck 1', uid: 'rita-1' });
    expect(unit.status, JSON.stringify(unit.body)).toBe(200);
    // The access list keeps them: saved back as read, it is accepted.
    const members = await rita.get(`/api/fleets/${auth.fid}/users`);
    expect(members.body.users).toEqual([
      { id: auth.user.id, nm: 'Rita Root', login: 'rita', acl: ACL_ALL, ao: 0 },
    ]);
    const saved = await rita.put(`/api/fleets/${auth.fid}/users`, {
      users: [{ id: auth.user.id, acl: ACL_ALL }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const account = await t.server.ctx.db.kysely.selectFrom('accounts').selectAll().executeTakeFirstOrThrow();
    expect(account).toMatchObject({ name: 'Baltic Haulage', parent_id: null, active: 1 });
    expect(auth.fleets[0].aid).toBe(account.id);
    const user = await t.server.ctx.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('of two concurrent set-ups exactly one succeeds and one user exists', async () => {
    t = await startTestServer({ demo: false });
    const server = t;
    const replies = await Promise.all([
      server.anon.post('/api/setup', setupBody({ login: 'first', organisation: 'First Org' })),
      server.anon.post('/api/setup', setupBody({ login: 'second', organisation: 'Second Org' })),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(replies.find((r) => r.status === 409)?.body.error).toBe(10);
    expect(await counts(t)).toEqual({ users: 1, accounts: 1, fleets: 1 });
    const winner = replies[0]!.status === 200 ? 'first' : 'second';
    const { auth } = await t.signIn(winner, PASSWORD);
    expect(auth.su).toBe(1);
  });

  it('refuses invalid input with 400 details and writes nothing', async () => {
    t = await startTestServer({ demo: false });
    const cases: [Record<string, unknown>, string][] = [
      [{ password: 'short-pw1' }, 'body.password'],
      [{ lang: 'xx' }, 'body.lang'],
      [{ tz: -60 }, 'body.tz'],
      [{ tz: 24 * 60 }, 'body.tz'],
      [{ tz: 0x10000000 }, 'body.tz'],
      [{ ms: 2 }, 'body.ms'],
      [{ fm: 0 }, 'body.fm'],
      [{ organisation: '  ' }, 'body.organisation'],
      [{ login: '' }, 'body.login'],
    ];
    for (const [overrides, field] of cases) {
      const res = await t.anon.post('/api/setup', setupBody(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body.error).toBe(4);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    expect(await counts(t)).toEqual({ users: 0, accounts: 0, fleets: 0 });
    expect((await t.anon.get('/api/setup')).body).toEqual({ needed: true });
  });

  it('is not needed on a database with users (the demo)', async () => {
    t = await startTestServer();
    expect((await t.anon.get('/api/setup')).body).toEqual({ needed: false });
    const res = await t.anon.post('/api/setup', setupBody());
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(10);
    expect((await t.anon.post('/api/login', { username: 'rita', password: PASSWORD })).status).toBe(401);
  });
});
