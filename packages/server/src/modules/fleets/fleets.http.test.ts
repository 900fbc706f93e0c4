import { ACL_ALL, Acl, aclNames, withWorkshopRights } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../../test/events-client.js';
import {
  accountOf,
  type Client,
  createAccount,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/** Fleet settings and the fleet access list (spec §6, §7 "Fleet"; PRODUCT.md "Administration"). */
describe('fleets', () => {
  let t: TestServer;
  let admin: Client;
  let manager: Client;
  let viewer: Client;
  let fleetUrl: string;

  beforeAll(async () => {
    t = await startTestServer();
    [admin, manager, viewer] = await Promise.all([t.login('admin'), t.login('manager'), t.login('viewer')]);
    fleetUrl = `/api/fleets/${t.demo.fleetId}`;
  });
  afterAll(() => t.close());

  const fieldsOf = (body: any) => body.details.map((d: { field: string }) => d.field).sort();

  describe('GET /api/fleets', () => {
    it('lists each user’s fleets with the effective acl', async () => {
      const acl = async (name: string) =>
        (await (await t.login(name)).get('/api/fleets')).body.fleets.map((f: any) => [f.id, f.acl]);
      const { fleetId, otherFleetId } = t.demo;
      expect(await acl('root')).toEqual([
        [fleetId, Acl.admin],
        [otherFleetId, Acl.admin],
      ]);
      expect(await acl('admin')).toEqual([[fleetId, Acl.admin]]);
      expect(await acl('manager')).toEqual([[fleetId, ACL_ALL]]);
      // The workshop rights follow the service rights (docs/product.md "Workshop rights").
      expect(await acl('mechanic')).toEqual([
        [fleetId, withWorkshopRights(Acl.viewInterval | Acl.viewService | Acl.manageService)],
      ]);
      expect(await acl('viewer')).toEqual([
        [fleetId, withWorkshopRights(Acl.viewInterval | Acl.viewService)],
      ]);
      expect(await acl('outsider')).toEqual([[otherFleetId, ACL_ALL]]);
    });

    it('carries the fleet fields of spec §3', async () => {
      const fleet = (await manager.get('/api/fleets')).body.fleets[0];
      expect(fleet).toEqual({
        id: t.demo.fleetId,
        n: 'Demo Logistics fleet',
        acl: ACL_ALL,
        tz: 180,
        cur: 'EUR',
        ms: 0,
        fm: 1,
        mdd: 4800,
        aid: expect.any(Number),
        s: 1,
      });
    });
  });

  describe('PUT /api/fleets/{id}', () => {
    it('changes the settings and answers the fleet', async () => {
      const res = await admin.put(fleetUrl, { n: '  Renamed fleet  ', cur: 'USD', ms: 1, fm: 2, tz: 120 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: t.demo.fleetId, n: 'Renamed fleet', cur: 'USD', ms: 1, fm: 2 });
      expect(res.body.tz).toBe(120);
      expect((await manager.get('/api/fleets')).body.fleets[0]).toMatchObject({ n: 'Renamed fleet', ms: 1 });
      const back = await admin.put(fleetUrl, {
        n: 'Demo Logistics fleet',
        cur: 'EUR',
        ms: 0,
        fm: 1,
        tz: 180,
      });
      expect(back.body).toMatchObject({ n: 'Demo Logistics fleet', cur: 'EUR', ms: 0, fm: 1, tz: 180 });
    });

    it('sets the daily distance limit of meter readings (meterDailyDistanceMax), within its range', async () => {
      const res = await admin.put(fleetUrl, { mdd: 3000 });
      expect(res.status).toBe(200);
      expect(res.body.mdd).toBe(3000);
      expect((await manager.get('/api/fleets')).body.fleets[0].mdd).toBe(3000);
      for (const mdd of [0, 100_001, '10']) {
        const bad = await admin.put(fleetUrl, { mdd });
        expect(bad.status, String(mdd)).toBe(400);
        expect(fieldsOf(bad.body)).toEqual(['body.mdd']);
      }
      expect((await admin.put(fleetUrl, { mdd: 4800 })).body.mdd).toBe(4800);
    });

    it('accepts a name of 128 characters and refuses 129', async () => {
      const ok = await admin.put(fleetUrl, { n: 'n'.repeat(128) });
      expect(ok.status).toBe(200);
      const long = await admin.put(fleetUrl, { n: 'n'.repeat(129) });
      expect(long.status).toBe(400);
      expect(fieldsOf(long.body)).toEqual(['body.n']);
      const blank = await admin.put(fleetUrl, { n: '   ' });
      expect(fieldsOf(blank.body)).toEqual(['body.n']);
      await admin.put(fleetUrl, { n: 'Demo Logistics fleet' });
    });

    it('takes ms 0 or 1 and fm 1 or 2 only', async () => {
      for (const body of [{ ms: 2 }, { ms: -1 }, { ms: '1' }]) {
        const res = await admin.put(fleetUrl, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(fieldsOf(res.body)).toEqual(['body.ms']);
      }
      for (const body of [{ fm: 0 }, { fm: 3 }]) {
        const res = await admin.put(fleetUrl, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(fieldsOf(res.body)).toEqual(['body.fm']);
      }
      const fleet = (await manager.get('/api/fleets')).body.fleets[0];
      expect(fleet).toMatchObject({ ms: 0, fm: 1 });
    });

    it('changes nothing when any field is bad', async () => {
      const res = await admin.put(fleetUrl, { n: 'Half applied', ms: 3 });
      expect(res.status).toBe(400);
      expect((await manager.get('/api/fleets')).body.fleets[0].n).toBe('Demo Logistics fleet');
    });

    it('is for fleet admins only', async () => {
      const res = await viewer.put(fleetUrl, { cur: 'GBP' });
      expect(res.status).toBe(403);
      expect((await manager.get('/api/fleets')).body.fleets[0].cur).toBe('EUR');
    });
  });

  describe('fleet access list', () => {
    let seeded: { id: number; acl: number; ao: number }[];
    let demoAccountId: number;
    const ids = () => t.demo.users as Record<string, number>;
    const put = (users: { id: number; acl: number; ao?: number }[], client = admin) =>
      client.put(`${fleetUrl}/users`, { users });
    const withAcl = (name: string, acl: number) =>
      seeded.map((u) => (u.id === ids()[name] ? { ...u, acl } : u));

    beforeAll(async () => {
      const res = await admin.get(`${fleetUrl}/users`);
      seeded = res.body.users.map((u: { id: number; acl: number; ao: number }) => ({
        id: u.id,
        acl: u.acl,
        ao: u.ao,
      }));
      demoAccountId = await accountOf(t, 'admin');
    });

    it('lists members with login, name and acl, and the account’s other users as candidates', async () => {
      const extra = await createUser(t, { name: 'new-hire', accountId: demoAccountId });
      const res = await admin.get(`${fleetUrl}/users`);
      expect(res.status).toBe(200);
      const byLogin = Object.fromEntries(res.body.users.map((u: any) => [u.login, u]));
      expect(Object.keys(byLogin).sort()).toEqual(['admin', 'driver', 'manager', 'mechanic', 'viewer']);
      expect(byLogin.mechanic).toEqual({
        id: ids().mechanic,
        nm: 'Mike Mechanic',
        login: 'mechanic',
        acl: withWorkshopRights(Acl.viewInterval | Acl.viewService | Acl.manageService),
        ao: 0,
      });
      // Super users and users of other accounts are never candidates.
      expect(res.body.candidates).toEqual([{ id: extra, nm: 'new-hire', login: 'new-hire' }]);
    });

    it('replaces the list; the new acl takes effect at once', async () => {
      const viewerAcl = Acl.viewInterval | Acl.manageInterval | Acl.viewService;
      const res = await put(withAcl('viewer', viewerAcl));
      expect(res.status).toBe(200);
      expect(res.body.users.find((u: any) => u.login === 'viewer').acl).toBe(viewerAcl);
      expect((await viewer.get('/api/fleets')).body.fleets[0].acl).toBe(viewerAcl);
      expect((await put(seeded)).status).toBe(200);
      expect((await viewer.get('/api/fleets')).body.fleets[0].acl).toBe(
        withWorkshopRights(Acl.viewInterval | Acl.viewService),
      );
    });

    it('removing a member takes the fleet away from that user', async () => {
      expect((await put(seeded.filter((u) => u.id !== ids().viewer))).status).toBe(200);
      expect((await viewer.get('/api/fleets')).body.fleets).toEqual([]);
      expect((await viewer.get(`${fleetUrl}/units`)).status).toBe(403);
      expect((await put(seeded)).status).toBe(200);
      expect((await viewer.get(`${fleetUrl}/units`)).status).toBe(200);
    });

    it.each([
      ['manageService without viewService and viewInterval', Acl.manageService, 66],
      ['manageInterval without viewInterval', Acl.manageInterval, Acl.viewInterval],
      ['viewService without viewInterval', Acl.viewService, Acl.viewInterval],
      ['viewNotification without viewInterval and viewService', Acl.viewNotification, 66],
      ['archiveEdit without the service bits', Acl.archiveEdit | Acl.viewInterval, 192],
      ['archiveDelete without archiveEdit', 2 | 64 | 128 | Acl.archiveDelete, Acl.archiveEdit],
    ])('refuses %s (spec §6) with 400 naming what is missing', async (_name, acl, missing) => {
      const res = await put(withAcl('viewer', acl));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(4);
      const index = seeded.findIndex((u) => u.id === ids().viewer);
      expect(res.body.details).toEqual([
        {
          field: `body.users.${index}.acl`,
          message: `Permission dependencies are not met, missing: ${aclNames(missing)}`,
          row: index,
        },
      ]);
    });

    it('refuses bits spec §6 does not define', async () => {
      const res = await put(withAcl('viewer', Acl.viewInterval | 8));
      expect(res.status).toBe(400);
      expect(res.body.details[0]).toMatchObject({ message: 'Unknown permission bits: 8' });
      const tooHigh = await put(withAcl('viewer', ACL_ALL + 1));
      expect(tooHigh.status).toBe(400);
      const index = seeded.findIndex((u) => u.id === ids().viewer);
      expect(fieldsOf(tooHigh.body)).toEqual([`body.users.${index}.acl`]);
    });

    it('refuses unknown users, super users, users of another account and duplicates, all at once', async () => {
      const subAccount = await createAccount(t, 'Demo branch', demoAccountId);
      const below = await createUser(t, { name: 'sub-account-user', accountId: subAccount });
      const res = await put([
        ...seeded,
        { id: 999999, acl: 2 },
        { id: ids().root!, acl: 2 },
        { id: ids().outsider!, acl: 2 },
        { id: ids().viewer!, acl: 2 },
      ]);
      expect(res.status).toBe(400);
      const n = seeded.length;
      expect(res.body.details).toEqual([
        { field: `body.users.${n}.id`, message: 'Unknown user', row: n },
        { field: `body.users.${n + 1}.id`, message: 'Unknown user', row: n + 1 },
        { field: `body.users.${n + 2}.id`, message: 'Unknown user', row: n + 2 },
        { field: `body.users.${n + 3}.id`, message: 'Duplicate user', row: n + 3 },
      ]);
      // A user of an account below the fleet's account may join.
      const ok = await put([...seeded, { id: below, acl: Acl.viewInterval }]);
      expect(ok.status).toBe(200);
      expect((await put(seeded)).status).toBe(200);
    });

    it('changes nothing when any entry is bad', async () => {
      const before = (await admin.get(`${fleetUrl}/users`)).body.users;
      const res = await put([...withAcl('viewer', ACL_ALL), { id: 999999, acl: 2 }]);
      expect(res.status).toBe(400);
      expect((await admin.get(`${fleetUrl}/users`)).body.users).toEqual(before);
    });

    it('lets a member with the admin bit edit the list, not others', async () => {
      expect((await put(seeded, manager)).status).toBe(200);
      const res = await put(withAcl('viewer', ACL_ALL), viewer);
      expect(res.status).toBe(403);
      expect((await viewer.get(`${fleetUrl}/users`)).status).toBe(403);
    });
  });

  describe('who is told about a change (spec §4 fleet dialogs)', () => {
    it('a settings change reaches the other users as an update and the saving session as its own', async () => {
      const [mine, theirs] = await Promise.all([
        EventsClient.connect(t.url, admin.ssid),
        EventsClient.connect(t.url, manager.ssid),
      ]);
      try {
        const res = await admin.put(fleetUrl, { cur: 'GBP' });
        expect(res.status).toBe(200);
        const isUpdate = (e: { s: string; t: string; fid: number | null }) =>
          e.s === 'fleet' && e.t === 'u' && e.fid === t.demo.fleetId;
        const other = await theirs.next(isUpdate);
        expect(other.own).toBeUndefined();
        expect(other).not.toHaveProperty('by');
        const own = await mine.next(isUpdate);
        expect(own.own).toBe(1);
        expect(own).not.toHaveProperty('by');
      } finally {
        await admin.put(fleetUrl, { cur: 'EUR' });
        mine.close();
        theirs.close();
      }
    });

    it('a save that changes nothing tells nobody', async () => {
      const theirs = await EventsClient.connect(t.url, manager.ssid);
      try {
        const fleet = (await admin.get('/api/fleets')).body.fleets[0];
        const res = await admin.put(fleetUrl, {
          n: fleet.n,
          cur: fleet.cur,
          tz: fleet.tz,
          ms: fleet.ms,
          fm: fleet.fm,
        });
        expect(res.status).toBe(200);
        await t.server.ctx.bus.publish({ t: 'u', s: 'fleet', fid: t.demo.fleetId, d: { marker: true } });
        await theirs.next((e) => (e.d as { marker?: boolean }).marker === true);
        expect(
          theirs.received.filter((e) => e.s === 'fleet' && !(e.d as { marker?: boolean }).marker),
        ).toEqual([]);
      } finally {
        theirs.close();
      }
    });

    it('an access-list change sends user event 64 to the users whose rights changed, and to no one else', async () => {
      const before = (await admin.get(`${fleetUrl}/users`)).body.users as {
        id: number;
        login: string;
        acl: number;
      }[];
      const viewerRow = before.find((u) => u.login === 'viewer');
      if (!viewerRow) throw new Error('demo data missing: the viewer is no member');
      const [viewerEvents, managerEvents] = await Promise.all([
        EventsClient.connect(t.url, viewer.ssid),
        EventsClient.connect(t.url, manager.ssid),
      ]);
      try {
        const changed = before.map((u) => ({
          id: u.id,
          acl: u.id === viewerRow.id ? Acl.viewInterval : u.acl,
        }));
        expect((await admin.put(`${fleetUrl}/users`, { users: changed })).status).toBe(200);
        const event = await viewerEvents.next(
          (e) => e.s === 'user' && (e.d as { type?: number }).type === 64,
        );
        expect(event.d).toEqual({ type: 64, fid: t.demo.fleetId });
        // The manager's rights did not change: a marker event published afterwards arrives first.
        await t.server.ctx.bus.publish({ t: 'u', s: 'fleet', fid: t.demo.fleetId, d: { marker: true } });
        await managerEvents.next((e) => (e.d as { marker?: boolean }).marker === true);
        expect(
          managerEvents.received.some((e) => e.s === 'user' && (e.d as { type?: number }).type === 64),
        ).toBe(false);
      } finally {
        await admin.put(`${fleetUrl}/users`, { users: before.map((u) => ({ id: u.id, acl: u.acl })) });
        viewerEvents.close();
        managerEvents.close();
      }
    });
  });
});
