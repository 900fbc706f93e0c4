import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, createUser, DEMO_PASSWORD, startTestServer, type TestServer } from '../test/harness.js';

/** Login is rate limited per user name and address (DESIGN §4): 10 failures, then 429 error 9. */
describe('login rate limiting', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
    const accountId = await accountOf(t, 'viewer');
    // Dedicated users, so that no other test's logins count against the limit.
    await createUser(t, { name: 'limited-user', accountId });
    await createUser(t, { name: 'recovering-user', accountId });
  });
  afterAll(() => t.close());

  const attempt = (username: string, password: string) => t.anon.post('/api/login', { username, password });

  it('refuses the 11th wrong password with 429 error 9, and a correct one after it', async () => {
    for (let i = 1; i <= 10; i++) {
      const res = await attempt('limited-user', `wrong-${i}`);
      expect(res.status, `attempt ${i}`).toBe(401);
      expect(res.body.error).toBe(8);
    }
    const eleventh = await attempt('limited-user', 'wrong-11');
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.error).toBe(9);
    expect(eleventh.body.details.retry_after).toBeGreaterThan(0);

    const correct = await attempt('limited-user', DEMO_PASSWORD);
    expect(correct.status).toBe(429);
    expect(correct.body.error).toBe(9);
    expect(correct.body).not.toHaveProperty('access_token');
  });

  it('counts the user name case-insensitively', async () => {
    const res = await attempt('LIMITED-USER', DEMO_PASSWORD);
    expect(res.status).toBe(429);
  });

  it('does not limit another user from the same address', async () => {
    const res = await attempt('viewer', DEMO_PASSWORD);
    expect(res.status).toBe(200);
    expect(typeof res.body.access_token).toBe('string');
  });

  it('forgets the failures after a successful login', async () => {
    for (let i = 0; i < 9; i++) expect((await attempt('recovering-user', 'wrong')).status).toBe(401);
    expect((await attempt('recovering-user', DEMO_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await attempt('recovering-user', 'wrong')).status).toBe(401);
    expect((await attempt('recovering-user', 'wrong')).status).toBe(429);
  });
});
