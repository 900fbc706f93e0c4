import { ErrorCode, RELEASE } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../server.js';
import { Client, listenAnother, startTestServer, type TestServer } from '../../test/harness.js';
import { FAULT_RETENTION_DAYS, FAULTS_PER_MINUTE, KEPT_FAULTS } from './faults.js';

describe('client fault reports (spec §8)', () => {
  let t: TestServer;
  let root: Client;
  let manager: Client;
  beforeAll(async () => {
    t = await startTestServer();
    [root, manager] = await Promise.all([t.login('root'), t.login('manager')]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes a report before login and one with a session, and shows both to super users only', async () => {
    const anonymous = await t.anon.post('/api/client_errors', {
      kind: 'error',
      release: RELEASE,
      message: 'TypeError: x is undefined',
      stack: 'at login (index.js:1:2)',
      url: '/login',
    });
    expect(anonymous.status).toBe(204);
    const signedIn = await manager.request(
      'POST',
      '/api/client_errors',
      { kind: 'rejection', release: RELEASE, message: 'Failed to fetch', url: '/services' },
      { 'user-agent': 'Fleetkeep-test/1.0' },
    );
    expect(signedIn.status).toBe(204);

    const list = await root.get('/api/admin/client_errors');
    expect(list.status).toBe(200);
    const [newest, older] = list.body.faults;
    expect(newest).toMatchObject({
      kind: 'rejection',
      release: RELEASE,
      message: 'Failed to fetch',
      url: '/services',
      user: 'manager',
      userAgent: 'Fleetkeep-test/1.0',
    });
    expect(older).toMatchObject({ kind: 'error', message: 'TypeError: x is undefined', user: null });
    expect(typeof newest.tm).toBe('number');

    const denied = await manager.get('/api/admin/client_errors');
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe(ErrorCode.accessDenied);
  });

  it('refuses an invalid report with every field named and stores nothing', async () => {
    const before = (await root.get('/api/admin/client_errors')).body.faults.length;
    const bad = await t.anon.post('/api/client_errors', { kind: 'panic', release: '', message: 3 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(ErrorCode.invalidInput);
    const named = JSON.stringify(bad.body.details);
    for (const field of ['kind', 'release', 'message']) expect(named).toContain(field);
    const tooBig = await t.anon.post('/api/client_errors', {
      kind: 'error',
      release: RELEASE,
      message: 'big',
      stack: 'x'.repeat(20_000),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toHaveProperty('error');
    expect((await root.get('/api/admin/client_errors')).body.faults.length).toBe(before);
  });

  it('takes no user, time or user agent from the body (mass assignment)', async () => {
    const res = await t.anon.post('/api/client_errors', {
      kind: 'error',
      release: RELEASE,
      message: 'posing as root',
      user: 'root',
      tm: 1,
      userAgent: 'forged',
      su: 1,
    });
    expect(res.status).toBe(204);
    const [newest] = (await root.get('/api/admin/client_errors')).body.faults;
    expect(newest).toMatchObject({ message: 'posing as root', user: null });
    expect(newest.tm).toBeGreaterThan(1);
    expect(newest.userAgent).not.toBe('forged');
  });

  it(`limits one address to ${FAULTS_PER_MINUTE} reports a minute with error 9`, async () => {
    // The earlier tests of this file used part of this address's minute.
    const statuses: number[] = [];
    for (let i = 0; i < FAULTS_PER_MINUTE + 1; i++) {
      const reply = await t.anon.post('/api/client_errors', {
        kind: 'warning',
        release: RELEASE,
        message: `loop ${i}`,
      });
      statuses.push(reply.status);
      if (reply.status === 429) {
        expect(reply.body.error).toBe(ErrorCode.tooManyRequests);
        break;
      }
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 204)).toBe(true);
  });

  describe('kept in the database', () => {
    let second: Server;
    let secondUrl: string;
    beforeAll(async () => {
      // A second instance on the same database, as behind a load balancer.
      ({ server: second, url: secondUrl } = await listenAnother({ ...t.config }));
    });
    afterAll(() => second.close());

    it('a report taken by one instance is read on the other', async () => {
      const rootOnSecond = new Client(secondUrl, root.ssid);
      const before = (await rootOnSecond.get('/api/admin/client_errors')).body.faults.length;
      // The first instance's budget for this address is used up by the test above: report to the second.
      const res = await new Client(secondUrl).post('/api/client_errors', {
        kind: 'error',
        release: RELEASE,
        message: 'Seen by every instance',
      });
      expect(res.status).toBe(204);
      const onFirst = (await root.get('/api/admin/client_errors')).body.faults;
      expect(onFirst[0].message).toBe('Seen by every instance');
      expect((await rootOnSecond.get('/api/admin/client_errors')).body.faults).toHaveLength(before + 1);
    });

    it(`keeps the newest ${KEPT_FAULTS}, none older than ${FAULT_RETENTION_DAYS} days`, async () => {
      const db = t.server.ctx.db.kysely;
      const old = Math.floor(Date.now() / 1000) - (FAULT_RETENTION_DAYS + 1) * 86_400;
      const row = (i: number, tm: number) => ({
        kind: 'warning',
        release: RELEASE,
        message: `filler ${i}`,
        user_agent: 'test',
        tm,
      });
      await db
        .insertInto('client_faults')
        .values([
          row(-1, old),
          ...Array.from({ length: KEPT_FAULTS + 10 }, (_, i) => row(i, old + 2 * 86_400)),
        ])
        .execute();
      const res = await new Client(secondUrl).post('/api/client_errors', {
        kind: 'error',
        release: RELEASE,
        message: 'The newest',
      });
      expect(res.status).toBe(204);
      const { faults } = (await root.get('/api/admin/client_errors')).body;
      expect(faults).toHaveLength(KEPT_FAULTS);
      expect(faults[0].message).toBe('The newest');
      expect(faults.at(-1).message).toBe('filler 11');
      const count = await db
        .selectFrom('client_faults')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(KEPT_FAULTS);
      expect(faults.some((f: { message: string }) => f.message === 'filler -1')).toBe(false);
    });
  });
});
