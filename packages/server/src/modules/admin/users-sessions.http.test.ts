import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../../test/events-client.js';
import { accountOf, type Client, createUnit, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * What user administration does to open sockets (spec §4 user event 32, forced logout) and the one
 * deletion it refuses (admin/users.ts).
 */
describe('admin users: sockets and kept history', () => {
  let t: TestServer;
  let admin: Client;
  let demoAccount: number;
  const PASSWORD = 'a-good-password';

  beforeAll(async () => {
    t = await startTestServer();
    admin = await t.login('admin');
    demoAccount = await accountOf(t, 'admin');
  });
  afterAll(() => t.close());

  const create = async (nm: string) => {
    const res = await admin.post(`/api/admin/accounts/${demoAccount}/users`, { nm, password: PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as number;
  };
  const loggedOut = (events: EventsClient) =>
    events.next((e) => e.s === 'user' && (e.d as { type?: number }).type === 32);

  for (const [what, act] of [
    ['deactivation', (id: number) => admin.put(`/api/admin/users/${id}`, { active: 0 })],
    [
      'password reset',
      (id: number) => admin.put(`/api/admin/users/${id}/password`, { password: 'another-password' }),
    ],
    ['deletion', (id: number) => admin.delete(`/api/admin/users/${id}`)],
  ] as const) {
    it(`${what} closes the user's open sockets with the logout event`, async () => {
      const name = `socket-${what.replace(/\W/g, '-')}`;
      const id = await create(name);
      const { client } = await t.signIn(name, PASSWORD);
      const events = await EventsClient.connect(t.url, client.ssid);
      expect((await act(id)).status).toBe(200);
      const logout = await loggedOut(events);
      expect(logout.fid).toBeNull();
      expect(await events.closed()).toBe(4001);
    });
  }

  it('an edit that does not deactivate leaves the sessions alone', async () => {
    const id = await create('stays');
    const { client } = await t.signIn('stays', PASSWORD);
    expect((await admin.put(`/api/admin/users/${id}`, { n: 'Still here', lang: 'it' })).status).toBe(200);
    expect((await client.get('/api/fleets')).status).toBe(200);
  });

  it('refuses to delete a user whose counter corrections are on record (409); deactivation remains', async () => {
    const id = await create('corrector');
    const unit = await createUnit(t, { accountId: demoAccount, fleetId: t.demo.fleetId, name: 'Corrected' });
    await t.server.ctx.db.kysely
      .insertInto('counter_corrections')
      .values({ unit_id: unit, user_id: id, tm: 1, field: 'mileage', old_value: 1, new_value: 2 })
      .execute();
    const res = await admin.delete(`/api/admin/users/${id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(10);
    expect((await admin.put(`/api/admin/users/${id}`, { active: 0 })).status).toBe(200);
  });
});
