import { Acl } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type Client, createFleet, startTestServer, type TestServer } from '../../test/harness.js';

/** The user calls of spec §7: current fleet switch and settings. */
describe('user', () => {
  let t: TestServer;
  let manager: Client;
  let root: Client;

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    root = await t.login('root');
  });
  afterAll(() => t.close());

  describe('PUT /api/user/fleet', () => {
    it('refuses an unknown fleet with error 3', async () => {
      const res = await manager.put('/api/user/fleet', { fid: 999999 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 3, reason: 'Fleet cannot be set' });
    });

    it('refuses the current fleet with error 3', async () => {
      const res = await manager.put('/api/user/fleet', { fid: t.demo.fleetId });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(3);
    });

    it('refuses a fleet the user cannot see with error 3: the manager has only one fleet', async () => {
      const fleets = await manager.get('/api/fleets');
      expect(fleets.body.fleets.map((f: { id: number }) => f.id)).toEqual([t.demo.fleetId]);
      const res = await manager.put('/api/user/fleet', { fid: t.demo.otherFleetId });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(3);
    });

    it('validates the body', async () => {
      const res = await manager.put('/api/user/fleet', { fid: 'one' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(4);
      expect(res.body.details[0].field).toBe('body.fid');
    });

    it('switches to a second fleet the user became a member of, and back', async () => {
      // A demo user can join only fleets of the demo account (or below), so the second fleet is new there.
      const second = await createFleet(t, await accountOf(t, 'manager'), 'Demo second fleet');
      const managerId = t.demo.users.manager!;
      const grant = await root.put(`/api/fleets/${second}/users`, {
        users: [{ id: managerId, acl: Acl.viewInterval | Acl.viewService }],
      });
      expect(grant.status).toBe(200);

      const fleets = await manager.get('/api/fleets');
      expect(fleets.body.fleets.map((f: { id: number }) => f.id)).toEqual([t.demo.fleetId, second]);

      const res = await manager.put('/api/user/fleet', { fid: second });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ fid: second });
      expect((await manager.put('/api/user/fleet', { fid: second })).body.error).toBe(3);
      const signedIn = await t.signIn('manager');
      expect(signedIn.auth.fid).toBe(second);

      expect((await manager.put('/api/user/fleet', { fid: t.demo.fleetId })).status).toBe(200);
      expect((await t.signIn('manager')).auth.fid).toBe(t.demo.fleetId);
      expect((await root.put(`/api/fleets/${second}/users`, { users: [] })).status).toBe(200);
    });

    it('changes only the caller’s current fleet, whatever user the body names (mass assignment)', async () => {
      const second = await createFleet(t, await accountOf(t, 'manager'), 'Demo third fleet');
      const managerId = t.demo.users.manager!;
      await root.put(`/api/fleets/${second}/users`, { users: [{ id: managerId, acl: Acl.viewInterval }] });
      const current = async (name: string) =>
        (
          await t.server.ctx.db.kysely
            .selectFrom('users')
            .select('fid')
            .where('name', '=', name)
            .executeTakeFirstOrThrow()
        ).fid;
      const viewerBefore = await current('viewer');
      const res = await manager.put('/api/user/fleet', {
        fid: second,
        uid: t.demo.users.viewer,
        id: t.demo.users.viewer,
        user_id: t.demo.users.viewer,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ fid: second });
      expect(await current('manager')).toBe(second);
      expect(await current('viewer')).toBe(viewerBefore);
      expect((await manager.put('/api/user/fleet', { fid: t.demo.fleetId })).status).toBe(200);
      await root.put(`/api/fleets/${second}/users`, { users: [] });
    });

    it('falls back to a fleet the user still has when the current one is taken away', async () => {
      const second = await createFleet(t, await accountOf(t, 'viewer'), 'Viewer second fleet');
      const viewerId = t.demo.users.viewer!;
      await root.put(`/api/fleets/${second}/users`, { users: [{ id: viewerId, acl: Acl.viewInterval }] });
      const viewer = await t.login('viewer');
      expect((await viewer.put('/api/user/fleet', { fid: second })).status).toBe(200);
      await root.put(`/api/fleets/${second}/users`, { users: [] });
      expect((await t.signIn('viewer')).auth.fid).toBe(t.demo.fleetId);
    });
  });

  describe('PATCH /api/user/settings', () => {
    let mechanic: Client;
    beforeAll(async () => {
      mechanic = await t.login('mechanic');
    });

    it('merges a change into the defaults and replies with the merged settings', async () => {
      const res = await mechanic.patch('/api/user/settings', { lang: 'de' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        lang: 'de',
        notification: { enabled: 31 },
        dateFormat: 'DD.MM.YYYY',
        timeFormat: 'HH:mm',
        layer: 'osm',
      });
    });

    it('keeps earlier changes and merges nested objects one level deep', async () => {
      await mechanic.patch('/api/user/settings', { dateFormat: 'YYYY-MM-DD' });
      const notification = await mechanic.patch('/api/user/settings', { notification: { enabled: 5 } });
      expect(notification.body).toMatchObject({
        lang: 'de',
        dateFormat: 'YYYY-MM-DD',
        notification: { enabled: 5 },
      });

      const help = { x: 10, y: 20, w: 350, h: 400, state: 'minimized' };
      await mechanic.patch('/api/user/settings', { help });
      const moved = await mechanic.patch('/api/user/settings', { help: { x: 30, y: 40, w: 350, h: 400 } });
      expect(moved.body.help).toEqual({ x: 30, y: 40, w: 350, h: 400, state: 'minimized' });

      await mechanic.patch('/api/user/settings', { dashboard: { order: ['map', 'status'], hidden: [] } });
      const dashboard = await mechanic.patch('/api/user/settings', {
        dashboard: { order: ['status', 'map'], hidden: ['map'] },
      });
      expect(dashboard.status).toBe(200);
      expect(dashboard.body.dashboard).toEqual({ order: ['status', 'map'], hidden: ['map'] });
    });

    it('removes a key set to null', async () => {
      const res = await mechanic.patch('/api/user/settings', { help: null });
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('help');
      expect(res.body.lang).toBe('de');
    });

    it('refuses a bad language with 400 error 4 naming the field, and changes nothing', async () => {
      const res = await mechanic.patch('/api/user/settings', { lang: 'xx', layer: 'satellite' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(4);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['body.lang']);
      const auth = (await t.signIn('mechanic')).auth;
      expect(auth.model.s.lang).toBe('de');
      expect(auth.model.s.layer).toBe('osm');
    });

    it('lists every bad field', async () => {
      const res = await mechanic.patch('/api/user/settings', {
        dateFormat: 'YYYY/MM/DD',
        timeFormat: 'HH',
        notification: { enabled: 64 },
        blob: 'x'.repeat(20000),
      });
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'body.blob',
        'body.dateFormat',
        'body.notification.enabled',
        'body.timeFormat',
      ]);
    });

    it('a settings key never changes who the user is (mass assignment): unknown keys are refused', async () => {
      const before = (await t.signIn('mechanic')).auth.model.s;
      const res = await mechanic.patch('/api/user/settings', {
        lang: 'fr',
        su: 1,
        admin: 1,
        acl: 1023,
        fid: t.demo.otherFleetId,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(4);
      expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'body.acl',
        'body.admin',
        'body.fid',
        'body.su',
      ]);
      const { auth } = await t.signIn('mechanic');
      expect(auth.model.s).toEqual(before);
      expect([auth.su, auth.admin, auth.fid]).toEqual([0, 0, t.demo.fleetId]);
      expect(auth.fleets.map((f: { id: number }) => f.id)).toEqual([t.demo.fleetId]);
      const row = await t.server.ctx.db.kysely
        .selectFrom('users')
        .select(['su', 'admin', 'fid'])
        .where('name', '=', 'mechanic')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ su: 0, admin: 0, fid: t.demo.fleetId });
    });

    it('is what GET /api/auth answers in model.s, for that user only', async () => {
      const last = await mechanic.patch('/api/user/settings', { timeFormat: 'hh:mm A' });
      const auth = (await t.signIn('mechanic')).auth;
      expect(auth.model.s).toEqual(last.body);
      expect((await t.signIn('viewer')).auth.model.s.lang).toBe('en');
    });
  });
});
