import { SETTINGS_LAYOUT_ID_MAX, SETTINGS_LAYOUT_ITEMS_MAX, SETTINGS_TOTAL_MAX } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type Client, createUser, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * User settings take only their known keys, within a total size (twenty PATCHes of 60
 * keys stored 18 MB, then sent with every /api/auth); every key the web app writes keeps working.
 */
describe('user settings: known keys and size', () => {
  let t: TestServer;
  let client: Client;
  const name = 'settings-user';

  beforeAll(async () => {
    t = await startTestServer();
    await createUser(t, { name, accountId: await accountOf(t, 'viewer') });
    client = await t.login(name);
  });
  afterAll(() => t.close());

  const stored = async () =>
    (
      await t.server.ctx.db.kysely
        .selectFrom('users')
        .select('settings')
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).settings;
  const fieldsOf = (body: any): string[] => body.details.map((d: { field: string }) => d.field).sort();

  it('takes every key the web app writes (settings screen, map layer, dashboard layout) and the help window', async () => {
    const res = await client.patch('/api/user/settings', {
      lang: 'de',
      dateFormat: 'YYYY-MM-DD',
      timeFormat: 'HH:mm:ss',
      notification: { enabled: 7 },
      layer: 'gis',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const layout = { order: ['map', 'status', 'costs'], hidden: ['costs'] };
    expect((await client.patch('/api/user/settings', { dashboard: layout })).body.dashboard).toEqual(layout);
    const help = { x: 10, y: 20, w: 300, h: 400, state: 'normal' };
    const last = await client.patch('/api/user/settings', { help });
    expect(last.body).toEqual({
      lang: 'de',
      dateFormat: 'YYYY-MM-DD',
      timeFormat: 'HH:mm:ss',
      notification: { enabled: 7 },
      layer: 'gis',
      dashboard: layout,
      help,
    });
    expect((await t.signIn(name)).auth.model.s).toEqual(last.body);
    const cleared = await client.patch('/api/user/settings', { dashboard: null, help: null });
    expect(cleared.body).not.toHaveProperty('dashboard');
    expect(cleared.body).not.toHaveProperty('help');
  });

  it('refuses an unknown key with 400 error 4 naming it, and stores nothing of the body', async () => {
    const before = await stored();
    const res = await client.patch('/api/user/settings', { lang: 'fr', note: 'x', theme: { dark: true } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(4);
    expect(fieldsOf(res.body)).toEqual(['body.note', 'body.theme']);
    expect(await stored()).toBe(before);
  });

  it('refuses unknown keys inside a known one', async () => {
    const res = await client.patch('/api/user/settings', {
      notification: { enabled: 1, extra: 1 },
      dashboard: { order: [], hidden: [], blob: 'x' },
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(['body.dashboard.blob', 'body.notification.extra']);
  });

  it("the issue's flood: 60 made-up keys per PATCH are refused and nothing grows", async () => {
    const before = await stored();
    const body = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, 'x'.repeat(200)]));
    for (let i = 0; i < 3; i++) expect((await client.patch('/api/user/settings', body)).status).toBe(400);
    expect(await stored()).toBe(before);
  });

  it(`refuses settings over ${SETTINGS_TOTAL_MAX} bytes in all with 400 error 4 on body`, async () => {
    const before = await stored();
    const ids = Array.from({ length: SETTINGS_LAYOUT_ITEMS_MAX }, (_, i) =>
      `${i}`.padEnd(SETTINGS_LAYOUT_ID_MAX - 4, 'x'),
    );
    const res = await client.patch('/api/user/settings', { dashboard: { order: ids, hidden: ids } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 4, reason: 'Settings too large' });
    expect(fieldsOf(res.body)).toEqual(['body']);
    expect(await stored()).toBe(before);
    // Each list alone within its own limits, and the whole under the cap, is fine.
    const small = { order: ids.slice(0, 10), hidden: [] };
    expect((await client.patch('/api/user/settings', { dashboard: small })).status).toBe(200);
  });

  it('drops keys stored before the list was enforced: neither answered nor written back', async () => {
    const junk = {
      lang: 'it',
      blob: 'y'.repeat(50_000),
      nested: { a: { b: 1 } },
      dashboard: { period: 'month' },
    };
    await t.server.ctx.db.kysely
      .updateTable('users')
      .set({ settings: JSON.stringify(junk) })
      .where('name', '=', name)
      .execute();
    const auth = (await t.signIn(name)).auth;
    expect(auth.model.s.lang).toBe('it');
    expect(Object.keys(auth.model.s).sort()).toEqual([
      'dateFormat',
      'lang',
      'layer',
      'notification',
      'timeFormat',
    ]);
    const res = await client.patch('/api/user/settings', { layer: 'osm' });
    expect(res.status).toBe(200);
    expect(JSON.parse(await stored())).toEqual({ lang: 'it', layer: 'osm' });
  });
});
