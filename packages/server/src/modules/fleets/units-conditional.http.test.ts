import { ACL_ALL } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import type { Server } from '../../server.js';
import { ingestReading } from '../../telematics/ingest.js';
import {
  accountOf,
  Client,
  createUnit,
  createUser,
  listenAnother,
  type Reply,
  startTestServer,
  TEST_DB,
  type TestServer,
} from '../../test/harness.js';

/**
 * Conditional reads of a fleet's units list (http/etag.ts, migration 026): nothing
 * changing keeps the tag and answers 304 with no body; every change of a unit the list shows (a write
 * through the API, a telematics reading, a unit created, moved or deleted, a plain SQL update) changes
 * it. Every change is made through instance A and read back at once through instance B, which holds the
 * old body under the old tag: both share one database (on SQLite the same file).
 */
describe(`units list with ETag across instances on ${TEST_DB}`, () => {
  let t: TestServer;
  let second: Server;
  let admin: Client;
  let onB: Client;
  let outsider: Client;
  let accountId: number;
  let n = 0;

  beforeAll(async () => {
    t = await startTestServer();
    const another = await listenAnother({ ...t.config });
    second = another.server;
    const urlB = another.url;
    admin = await t.login('admin');
    onB = new Client(urlB, (await t.login('manager')).ssid);
    outsider = await t.login('outsider');
    accountId = await accountOf(t, 'manager');
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const list = (fleetId = t.demo.fleetId) => `/api/fleets/${fleetId}/units`;
  const read = (client: Client, url: string, tag?: string) =>
    client.request('GET', url, undefined, tag ? { 'if-none-match': tag } : {});
  const tagOf = (res: Reply) => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tag = res.headers.get('etag');
    expect(tag).toMatch(/^".+"$/);
    return tag as string;
  };

  /** The current tag through B, checked to answer 304 with no body while nothing changes. */
  async function unchangedTag(url = list()): Promise<string> {
    const tag = tagOf(await read(onB, url));
    for (let i = 0; i < 2; i++) {
      const again = await read(onB, url, tag);
      expect(again.status).toBe(304);
      expect(again.body).toBeUndefined();
      expect(again.headers.get('etag')).toBe(tag);
    }
    return tag;
  }

  /** B answers the old tag with 200, a new tag and the list as it is now. */
  async function changed(before: string, url = list()) {
    const res = await read(onB, url, before);
    expect(res.status, url).toBe(200);
    expect(tagOf(res)).not.toBe(before);
    return res.body.units as { id: number; nm: string; fid: number; pos: { y: number } | null }[];
  }

  const unit = (fleetId: number | null = t.demo.fleetId) =>
    createUnit(t, { accountId, fleetId, name: `tagged unit ${++n}` });

  it('answers 304 with no body to the current tag, in any tag list form, and 200 otherwise', async () => {
    const tag = await unchangedTag();
    expect((await read(onB, list(), `"other", W/${tag}`)).status).toBe(304);
    expect((await read(onB, list(), '*')).status).toBe(304);
    const other = await read(onB, list(), '"other"');
    expect(other.status).toBe(200);
    expect(other.body.units.length).toBeGreaterThan(0);
    // Another fleet's list has its own tag.
    expect(tagOf(await read(outsider, list(t.demo.otherFleetId)))).not.toBe(tag);
  });

  it('checks access before the tag: no 304 for a caller without the fleet', async () => {
    const tag = await unchangedTag();
    const res = await read(outsider, list(), tag);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 7 });
  });

  it('reads its tag with the access revision: access lost on A is refused on B at once, never a 304', async () => {
    // The units list reads the access revision and its tag in one query (http/auth-hook.ts); a member
    // whose membership goes, or whose session ends, must not get the unchanged list's 304 from B.
    const name = `tag-member-${++n}`;
    const userId = await createUser(t, {
      name,
      accountId,
      memberships: [{ fleetId: t.demo.fleetId, acl: ACL_ALL }],
    });
    const member = (await t.signIn(name)).client;
    const memberOnB = new Client(onB.baseUrl, member.ssid);
    const tag = tagOf(await read(memberOnB, list()));
    expect((await read(memberOnB, list(), tag)).status).toBe(304);
    await t.server.ctx.db.kysely
      .deleteFrom('fleet_users')
      .where('user_id', '=', userId)
      .where('fleet_id', '=', t.demo.fleetId)
      .execute();
    expect((await read(memberOnB, list(), tag)).status).toBe(403);
    await t.server.ctx.db.kysely
      .insertInto('fleet_users')
      .values({ fleet_id: t.demo.fleetId, user_id: userId, acl: ACL_ALL })
      .execute();
    expect((await read(memberOnB, list(), tag)).status).toBe(304);
    expect((await member.get('/api/logout')).status).toBe(200);
    expect((await read(memberOnB, list(), tag)).status).toBe(401);
    // A request without a credential, or with a malformed fleet id, reads no tag and answers as before.
    expect(
      (await new Client(onB.baseUrl).request('GET', list(), undefined, { 'if-none-match': tag })).status,
    ).toBe(401);
    expect((await read(onB, '/api/fleets/x/units', tag)).status).toBe(400);
  });

  it('a unit created, renamed through the API or changed in SQL changes the tag at once', async () => {
    let tag = await unchangedTag();
    const id = await unit();
    expect((await changed(tag)).map((u) => u.id)).toContain(id);

    tag = await unchangedTag();
    const renamed = await admin.put(`${list()}/${id}`, { nm: 'Renamed across' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await changed(tag)).find((u) => u.id === id)?.nm).toBe('Renamed across');

    tag = await unchangedTag();
    await t.server.ctx.db.kysely
      .updateTable('units')
      .set({ name: 'Renamed in SQL' })
      .where('id', '=', id)
      .execute();
    expect((await changed(tag)).find((u) => u.id === id)?.nm).toBe('Renamed in SQL');
  });

  it('a telematics reading changes the tag: the list shows the new position', async () => {
    const id = await unit();
    const { device_id: deviceId } = await t.server.ctx.db.kysely
      .selectFrom('units')
      .select('device_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const tag = await unchangedTag();
    const at = now();
    const reading = {
      deviceId,
      time: at,
      lat: 52.5,
      lon: 13.4,
      speed: 10,
      course: 0,
      altitude: null,
      ignition: null,
      odometerKm: null,
      hours: null,
      params: {},
    };
    expect((await ingestReading(t.server.ctx, reading, at)).status).toBe('accepted');
    expect((await changed(tag)).find((u) => u.id === id)?.pos?.y).toBe(52.5);
  });

  it('a unit moved to another fleet changes both fleets’ tags; a unit deleted changes its fleet’s', async () => {
    const id = await unit();
    const tag = await unchangedTag();
    const otherTag = tagOf(await read(outsider, list(t.demo.otherFleetId)));
    expect((await read(outsider, list(t.demo.otherFleetId), otherTag)).status).toBe(304);
    await t.server.ctx.db.kysely
      .updateTable('units')
      .set({ fleet_id: t.demo.otherFleetId })
      .where('id', '=', id)
      .execute();
    expect((await changed(tag)).map((u) => u.id)).not.toContain(id);
    expect((await read(outsider, list(t.demo.otherFleetId), otherTag)).status).toBe(200);

    const gone = await unit();
    const before = await unchangedTag();
    const deleted = await admin.delete(`${list()}/${gone}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await changed(before)).map((u) => u.id)).not.toContain(gone);
  });

  it('a change in another fleet or outside any fleet keeps the tag', async () => {
    const tag = await unchangedTag();
    const elsewhere = await unit(null);
    await t.server.ctx.db.kysely
      .updateTable('units')
      .set({ name: 'Still elsewhere' })
      .where('id', '=', elsewhere)
      .execute();
    expect((await read(onB, list(), tag)).status).toBe(304);
  });
});
