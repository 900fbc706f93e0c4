import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../../test/harness.js';

async function authOf(t: TestServer, user: string) {
  const login = await t.anon.post('/api/login', { username: user, password: DEMO_PASSWORD });
  const auth = await t.anon.get(`/api/auth?access_token=${login.body.access_token}`);
  expect(auth.status).toBe(200);
  return auth.body;
}

describe('application configuration of the auth reply (spec §3)', () => {
  let plain: TestServer;
  let configured: TestServer;
  beforeAll(async () => {
    [plain, configured] = await Promise.all([
      startTestServer(),
      startTestServer({
        config: {
          notice: { en: 'Maintenance tonight', ru: 'Работы сегодня ночью' },
          shutdown: { sdf: 1_767_225_600, sdt: 1_769_904_000 },
          forumUrl: 'https://forum.example/{lang}/',
          publicUrl: 'https://fleet.example.com',
          osmandPort: 5055,
          teltonikaPort: 5027,
        },
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain.close(), configured.close()]);
  });

  it('answers null fields when nothing is configured', async () => {
    const auth = await authOf(plain, 'manager');
    expect(auth.config).toMatchObject({ notification: null, shutdownNotification: null, forum: null });
    // The test servers listen on no tracker port: the checklist offers the HTTP address only.
    expect(auth.config.trackers).toEqual({ url: plain.config.publicUrl, osmand: null, teltonika: null });
  });

  it('carries the notice, the shutdown dates and the forum to every user kind', async () => {
    for (const user of ['manager', 'viewer', 'admin', 'root']) {
      const auth = await authOf(configured, user);
      expect(auth.config).toEqual({
        notification: { en: 'Maintenance tonight', ru: 'Работы сегодня ночью' },
        shutdownNotification: { sdf: 1_767_225_600, sdt: 1_769_904_000 },
        forum: { url: 'https://forum.example/{lang}/', langs: ['en', 'ru'] },
        trackers: { url: 'https://fleet.example.com', osmand: 5055, teltonika: 5027 },
      });
    }
  });
});

describe('configuration variables (loadConfig)', () => {
  it('reads plain text and JSON notices', () => {
    expect(loadConfig({ FLEETKEEP_NOTICE: 'Down at 22:00' }).notice).toEqual({ en: 'Down at 22:00' });
    expect(loadConfig({ FLEETKEEP_NOTICE: '{"de":"Wartung","en":"Maintenance"}' }).notice).toEqual({
      de: 'Wartung',
      en: 'Maintenance',
    });
    expect(loadConfig({}).notice).toBeNull();
  });

  it('reads the shutdown dates as Unix seconds, the end optional', () => {
    expect(loadConfig({ FLEETKEEP_SHUTDOWN_FROM: '2026-01-01' }).shutdown).toEqual({
      sdf: 1_767_225_600,
      sdt: null,
    });
    expect(
      loadConfig({ FLEETKEEP_SHUTDOWN_FROM: '2026-01-01', FLEETKEEP_SHUTDOWN_TO: '2026-02-01' }).shutdown,
    ).toEqual({ sdf: 1_767_225_600, sdt: 1_769_904_000 });
  });

  it('fails loudly on bad values, naming the variable', () => {
    expect(() => loadConfig({ FLEETKEEP_NOTICE: '{"en":' })).toThrow(/FLEETKEEP_NOTICE/);
    expect(() => loadConfig({ FLEETKEEP_NOTICE: '{"en":1}' })).toThrow(/FLEETKEEP_NOTICE/);
    expect(() => loadConfig({ FLEETKEEP_SHUTDOWN_FROM: '2026-13-01' })).toThrow(/FLEETKEEP_SHUTDOWN_FROM/);
    expect(() => loadConfig({ FLEETKEEP_SHUTDOWN_FROM: '01.01.2026' })).toThrow(/FLEETKEEP_SHUTDOWN_FROM/);
    expect(() => loadConfig({ FLEETKEEP_SHUTDOWN_TO: '2026-01-01' })).toThrow(/FLEETKEEP_SHUTDOWN_TO/);
    expect(() =>
      loadConfig({ FLEETKEEP_SHUTDOWN_FROM: '2026-02-01', FLEETKEEP_SHUTDOWN_TO: '2026-01-01' }),
    ).toThrow(/FLEETKEEP_SHUTDOWN_TO/);
    expect(() => loadConfig({ FORUM_URL: 'forum' })).toThrow(/FORUM_URL/);
    expect(loadConfig({ FORUM_URL: 'https://forum.example/' }).forumUrl).toBe('https://forum.example/');
  });
});
