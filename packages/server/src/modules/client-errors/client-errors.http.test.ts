import { ErrorCode, RELEASE } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { FAULTS_PER_MINUTE } from './faults.js';

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
});
