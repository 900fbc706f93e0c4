import { LOGIN_ADDRESS_FAILURES_MAX, LOGIN_LOCK_SECONDS, LOGIN_PAIR_FAILURES_MAX } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS, LoginLimiter, type LoginLimits } from '../auth/rate-limit.js';
import type { Server } from '../server.js';
import {
  accountOf,
  Client,
  createUser,
  DEMO_PASSWORD,
  listenAnother,
  startTestServer,
  type TestServer,
} from '../test/harness.js';

/**
 * The login throttle (DESIGN §4; core contracts/session.ts `LOGIN_*`): only failures count, per user
 * name and address, per address across names, and per user name across addresses with a high limit
 * (so that a few addresses cannot lock the owner out), in the database so that every instance shares
 * them; tries in flight cannot outrun the count; 429 `{error: 9}` with `Retry-After`; short locks; a
 * successful login clears the name's failures from its own address.
 * The server trusts X-Forwarded-For here (TRUST_PROXY), so each test names its own client addresses.
 */
describe('login rate limiting', () => {
  let t: TestServer;
  let accountId: number;
  let seq = 0;

  beforeAll(async () => {
    t = await startTestServer({ config: { trustProxy: true } });
    accountId = await accountOf(t, 'viewer');
  });
  afterAll(() => t.close());

  /** A user of its own, so that no other test's failures count against it. */
  const user = async (prefix: string) => {
    const name = `${prefix}-${++seq}`;
    await createUser(t, { name, accountId });
    return name;
  };
  /** A client address of its own (TEST-NET-2 and -3 ranges). */
  const address = (() => {
    let n = 0;
    return () => `198.51.${Math.floor(++n / 250)}.${(n % 250) + 1}`;
  })();
  const attempt = (username: string, password: string, from: string, base = t.url) =>
    new Client(base).request('POST', '/api/login', { username, password }, { 'x-forwarded-for': from });

  /** How many answers had each status. */
  const statuses = (answers: { status: number }[]) => {
    const out: Record<number, number> = {};
    for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
    return out;
  };

  const expectLocked = (res: Awaited<ReturnType<typeof attempt>>) => {
    expect(res.status, JSON.stringify(res.body)).toBe(429);
    expect(res.body.error).toBe(9);
    expect(res.body).not.toHaveProperty('access_token');
    const retry = Number(res.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(res.body.details.retry_after).toBe(retry);
    return retry;
  };

  /** A limiter with another per-name limit (the product's is too high to reach in a test). */
  const withNameMax = (max: number, limits: Partial<LoginLimits> = {}) =>
    new LoginLimiter({ ...limits, name: { ...LOGIN_LIMITS.name, max } });

  it(`refuses the ${LOGIN_PAIR_FAILURES_MAX + 1}th try after wrong passwords from one address with 429, Retry-After, and a right one too`, async () => {
    const name = await user('limited');
    const from = address();
    for (let i = 1; i <= LOGIN_PAIR_FAILURES_MAX; i++) {
      const res = await attempt(name, `wrong-${i}`, from);
      expect(res.status, `attempt ${i}`).toBe(401);
      expect(res.body.error).toBe(8);
    }
    // The first lock lasts LOGIN_LOCK_SECONDS from the last failure (auth/rate-limit.ts `lockedUntil`).
    const retry = expectLocked(await attempt(name, 'wrong', from));
    expect(retry).toBeLessThanOrEqual(LOGIN_LOCK_SECONDS);
    expect(retry).toBeGreaterThanOrEqual(LOGIN_LOCK_SECONDS - 1);
    expectLocked(await attempt(name, DEMO_PASSWORD, from));
    // Case does not matter.
    expectLocked(await attempt(name.toUpperCase(), DEMO_PASSWORD, from));
  });

  it(`never locks the owner out: ${LOGIN_PAIR_FAILURES_MAX} wrong passwords from ${LOGIN_PAIR_FAILURES_MAX} addresses, then the right one from an ${LOGIN_PAIR_FAILURES_MAX + 1}th signs in`, async () => {
    const name = await user('spread');
    for (let i = 1; i <= LOGIN_PAIR_FAILURES_MAX; i++)
      expect((await attempt(name, `wrong-${i}`, address())).status, `attempt ${i}`).toBe(401);
    const ok = await attempt(name, DEMO_PASSWORD, address());
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(typeof ok.body.access_token).toBe('string');
  });

  it('lets the right password in from an address with no failures while a guessing address is throttled', async () => {
    const name = await user('owner');
    const guesser = address();
    // One address at its pair limit, and one failure from each of the others.
    for (let i = 1; i <= LOGIN_PAIR_FAILURES_MAX; i++)
      expect((await attempt(name, `wrong-${i}`, guesser)).status, `attempt ${i}`).toBe(401);
    for (let i = 1; i < LOGIN_PAIR_FAILURES_MAX; i++)
      expect((await attempt(name, `wrong-${i}`, address())).status, `address ${i}`).toBe(401);
    const ok = await attempt(name, DEMO_PASSWORD, address());
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(typeof ok.body.access_token).toBe('string');
    // The guesser's address stays throttled for that name.
    expectLocked(await attempt(name, DEMO_PASSWORD, guesser));
  });

  it('locks a name across all addresses at its high limit (injected lower here), with Retry-After, until the lock ends', async () => {
    const limiter = t.server.ctx.limiter;
    const max = 15;
    t.server.ctx.limiter = withNameMax(max, { lockMs: 1_000, lockMaxMs: 2_000 });
    try {
      const name = await user('distributed');
      for (let i = 1; i <= max; i++)
        expect((await attempt(name, `wrong-${i}`, address())).status, `attempt ${i}`).toBe(401);
      // Now even the right password from a fresh address waits.
      expect(expectLocked(await attempt(name, DEMO_PASSWORD, address()))).toBe(1);
      // Another user from a fresh address is not locked.
      expect((await attempt('viewer', DEMO_PASSWORD, address())).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await attempt(name, DEMO_PASSWORD, address())).status).toBe(200);
    } finally {
      t.server.ctx.limiter = limiter;
    }
  });

  it(`counts an address across names: ${LOGIN_ADDRESS_FAILURES_MAX} tries over as many names lock the address`, async () => {
    const from = address();
    for (let i = 1; i <= LOGIN_ADDRESS_FAILURES_MAX; i++) {
      expect((await attempt(`nobody-${seq}-${i}`, 'wrong', from)).status, `attempt ${i}`).toBe(401);
    }
    expectLocked(await attempt(`nobody-${seq}-last`, 'wrong', from));
    // Even a right password from that address waits; the same user from elsewhere does not.
    expectLocked(await attempt('viewer', DEMO_PASSWORD, from));
    expect((await attempt('viewer', DEMO_PASSWORD, address())).status).toBe(200);
  });

  it('lets 200 correct sign-ins from one address in, all at once (tries in flight are no failures)', async () => {
    const names = await Promise.all(Array.from({ length: 20 }, () => user('depot')));
    const from = address();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => attempt(names[i % names.length]!, DEMO_PASSWORD, from)),
    );
    expect(statuses(answers)).toEqual({ 200: 200 });
    // Nothing of them counts: the address still has all its failures to make before a lock.
    for (let i = 1; i <= LOGIN_ADDRESS_FAILURES_MAX; i++)
      expect((await attempt(`nobody-${seq}-depot-${i}`, 'wrong', from)).status, `attempt ${i}`).toBe(401);
    expectLocked(await attempt(names[0]!, DEMO_PASSWORD, from));
  }, 180_000); // 200 argon2 checks on a small shared machine

  it(`slows 25 wrong passwords for one name from one address sent at once: ${LOGIN_PAIR_FAILURES_MAX} are checked`, async () => {
    const name = await user('burst');
    const from = address();
    const answers = await Promise.all(Array.from({ length: 25 }, () => attempt(name, 'wrong', from)));
    expect(statuses(answers)).toEqual({ 401: LOGIN_PAIR_FAILURES_MAX, 429: 25 - LOGIN_PAIR_FAILURES_MAX });
    for (const res of answers.filter((a) => a.status === 429)) expectLocked(res);
    expectLocked(await attempt(name, DEMO_PASSWORD, from));
    expect((await attempt(name, DEMO_PASSWORD, address())).status).toBe(200);
  });

  it('slows wrong passwords for one name from many addresses sent at once at the per-name limit (injected lower here)', async () => {
    const limiter = t.server.ctx.limiter;
    t.server.ctx.limiter = withNameMax(12);
    try {
      const name = await user('spread-burst');
      const answers = await Promise.all(Array.from({ length: 30 }, () => attempt(name, 'wrong', address())));
      expect(statuses(answers)).toEqual({ 401: 12, 429: 18 });
      expectLocked(await attempt(name, DEMO_PASSWORD, address()));
    } finally {
      t.server.ctx.limiter = limiter;
    }
  });

  it(`slows 52 tries over 44 names from one address sent at once: ${LOGIN_ADDRESS_FAILURES_MAX} are checked`, async () => {
    const from = address();
    const answers = await Promise.all(
      Array.from({ length: 52 }, (_, i) => attempt(`nobody-${seq}-spray-${i % 44}`, 'wrong', from)),
    );
    expect(statuses(answers)).toEqual({
      401: LOGIN_ADDRESS_FAILURES_MAX,
      429: 52 - LOGIN_ADDRESS_FAILURES_MAX,
    });
    expectLocked(await attempt('viewer', DEMO_PASSWORD, from));
  });

  it('keeps the failures of a name from other addresses when its user signs in', async () => {
    const limiter = t.server.ctx.limiter;
    const max = 12;
    t.server.ctx.limiter = withNameMax(max);
    try {
      const name = await user('guessed');
      for (let i = 0; i < max - 1; i++) expect((await attempt(name, 'wrong', address())).status).toBe(401);
      expect((await attempt(name, DEMO_PASSWORD, address())).status).toBe(200);
      // The guessers' last try before the per-name lock, then the lock.
      expect((await attempt(name, 'wrong', address())).status).toBe(401);
      expectLocked(await attempt(name, 'wrong', address()));
    } finally {
      t.server.ctx.limiter = limiter;
    }
  });

  it('forgets the failures of a name from its address after a successful login', async () => {
    const name = await user('recovering');
    const from = address();
    for (let i = 0; i < LOGIN_PAIR_FAILURES_MAX - 1; i++)
      expect((await attempt(name, 'wrong', from)).status).toBe(401);
    expect((await attempt(name, DEMO_PASSWORD, from)).status).toBe(200);
    for (let i = 0; i < LOGIN_PAIR_FAILURES_MAX; i++)
      expect((await attempt(name, 'wrong', from)).status).toBe(401);
    expectLocked(await attempt(name, 'wrong', from));
  });

  it('lets the rightful user in once the short lock has passed; the lock grows with further failures', async () => {
    const limiter = t.server.ctx.limiter;
    t.server.ctx.limiter = new LoginLimiter({ lockMs: 1_000, lockMaxMs: 2_000 });
    try {
      const name = await user('waiting');
      const from = address();
      for (let i = 0; i < LOGIN_PAIR_FAILURES_MAX; i++)
        expect((await attempt(name, 'wrong', from)).status).toBe(401);
      expect(expectLocked(await attempt(name, DEMO_PASSWORD, from))).toBe(1);
      await new Promise((r) => setTimeout(r, 1_100));
      // One more failure after the lock: the next lock is twice as long.
      expect((await attempt(name, 'wrong', from)).status).toBe(401);
      expect(expectLocked(await attempt(name, DEMO_PASSWORD, from))).toBe(2);
      await new Promise((r) => setTimeout(r, 2_100));
      const ok = await attempt(name, DEMO_PASSWORD, from);
      expect(ok.status).toBe(200);
      expect(typeof ok.body.access_token).toBe('string');
    } finally {
      t.server.ctx.limiter = limiter;
    }
  });

  it('counts wrong current passwords of the own password change like failed logins', async () => {
    const name = await user('changing');
    const from = address();
    const { client } = await t.signIn(name);
    const change = () =>
      client.request(
        'PUT',
        '/api/user/password',
        { old: 'wrong-old', new: 'a-new-password-1' },
        { 'x-forwarded-for': from },
      );
    for (let i = 0; i < LOGIN_PAIR_FAILURES_MAX; i++) expect((await change()).status).toBe(400);
    expectLocked(await change());
    expectLocked(await attempt(name, DEMO_PASSWORD, from));
    expect((await attempt(name, DEMO_PASSWORD, address())).status).toBe(200);
  });

  describe('two instances on one database', () => {
    let second: Server;
    let secondUrl: string;

    beforeAll(async () => {
      ({ server: second, url: secondUrl } = await listenAnother({ ...t.config }));
    });
    afterAll(() => second.close());

    it('share the count: failures from one address on one instance lock that pair on the other', async () => {
      const name = await user('shared');
      const from = address();
      for (let i = 1; i <= LOGIN_PAIR_FAILURES_MAX; i++) {
        const base = i % 2 === 0 ? secondUrl : t.url;
        expect((await attempt(name, 'wrong', from, base)).status, `attempt ${i}`).toBe(401);
      }
      expectLocked(await attempt(name, DEMO_PASSWORD, from, t.url));
      expectLocked(await attempt(name, DEMO_PASSWORD, from, secondUrl));
      // The owner elsewhere signs in through either.
      expect((await attempt(name, DEMO_PASSWORD, address(), t.url)).status).toBe(200);
      expect((await attempt(name, DEMO_PASSWORD, address(), secondUrl)).status).toBe(200);
    });

    it('share the per-name count across addresses (injected lower here): failures on both lock the name on both', async () => {
      const limiters = [t.server.ctx.limiter, second.ctx.limiter];
      const max = 14;
      t.server.ctx.limiter = withNameMax(max);
      second.ctx.limiter = withNameMax(max);
      try {
        const name = await user('shared-name');
        for (let i = 1; i <= max; i++) {
          const base = i % 2 === 0 ? secondUrl : t.url;
          expect((await attempt(name, 'wrong', address(), base)).status, `attempt ${i}`).toBe(401);
        }
        expectLocked(await attempt(name, DEMO_PASSWORD, address(), t.url));
        expectLocked(await attempt(name, DEMO_PASSWORD, address(), secondUrl));
      } finally {
        [t.server.ctx.limiter, second.ctx.limiter] = limiters as [LoginLimiter, LoginLimiter];
      }
    });

    it('share the places of tries in flight: wrong passwords sent at once to both are checked at most the limit', async () => {
      const name = await user('shared-burst');
      const from = address();
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) => attempt(name, 'wrong', from, i % 2 ? secondUrl : t.url)),
      );
      expect(statuses(answers)).toEqual({ 401: LOGIN_PAIR_FAILURES_MAX, 429: 24 - LOGIN_PAIR_FAILURES_MAX });
    });

    it('let 100 correct sign-ins from one address in on both at once', async () => {
      const names = await Promise.all(Array.from({ length: 10 }, () => user('shared-depot')));
      const from = address();
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          attempt(names[i % names.length]!, DEMO_PASSWORD, from, i % 2 ? secondUrl : t.url),
        ),
      );
      expect(statuses(answers)).toEqual({ 200: 100 });
    }, 180_000);
  });
});
