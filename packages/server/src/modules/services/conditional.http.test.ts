import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { recompute } from '../../engine/index.js';
import type { Server } from '../../server.js';
import { ingestReading } from '../../telematics/ingest.js';
import { attachmentsTester } from '../../test/attachments.js';
import { assign, createInterval, setCounters } from '../../test/engine-fixtures.js';
import {
  Client,
  listenAnother,
  type Reply,
  startTestServer,
  TEST_DB,
  type TestServer,
} from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * Conditional reads of the services lists (http/etag.ts, migration 020): every writer
 * changes the tag, an unchanged list answers 304 with no body, another fleet's write changes nothing,
 * and on PostgreSQL a write through one instance is seen by the other's very next conditional read.
 */
describe(`services lists with ETag on ${TEST_DB}`, () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let outsider: Client;
  let uid: number;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    outsider = await t.login('outsider');
    uid = await fx.unit(5000, 300);
  });
  afterAll(async () => {
    await t?.close();
  });

  const read = (client: Client, url: string, tag?: string) =>
    client.request('GET', url, undefined, tag ? { 'if-none-match': tag } : {});
  const tagOf = (res: Reply) => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tag = res.headers.get('etag');
    expect(tag).toMatch(/^".+"$/);
    return tag as string;
  };
  const active = () => fx.base;
  const ofUnit = () => `${fx.base}?object_type=u&object_id=${uid}`;
  const archive = () => `${fx.base}/archived?from=${fx.iso(-30)}&to=${fx.iso(0)}`;
  const lists = () => [active(), ofUnit(), archive()];

  /** The tags of the three lists, each checked to answer 304 with no body while nothing changes. */
  async function unchangedTags(): Promise<string[]> {
    const tags = [];
    for (const url of lists()) {
      const tag = tagOf(await read(manager, url));
      const again = await read(manager, url, tag);
      expect(again.status).toBe(304);
      expect(again.body).toBeUndefined();
      expect(again.headers.get('etag')).toBe(tag);
      tags.push(tag);
    }
    return tags;
  }

  /** After a write: each list named answers 200 to its old tag, with a new tag. */
  async function expectChanged(before: string[], urls = lists()) {
    for (const url of urls) {
      const i = lists().indexOf(url);
      const res = await read(manager, url, before[i]);
      expect(res.status, url).toBe(200);
      expect(tagOf(res)).not.toBe(before[i]);
    }
  }

  const create = (body: object) => manager.post(fx.base, { n: 'Tagged', t: 'u', uid, ...body });

  it('answers 304 with no body to the current tag, in any tag list form, and 200 otherwise', async () => {
    await create({ f: 1 });
    const res = await read(manager, active());
    const tag = tagOf(res);
    expect(res.body.services.length).toBeGreaterThan(0);
    expect((await read(manager, active(), `"other", W/${tag}`)).status).toBe(304);
    expect((await read(manager, active(), '*')).status).toBe(304);
    expect((await read(manager, active(), '"other"')).status).toBe(200);
    // Another variant of the same list (another object, another range) has another tag.
    expect((await read(manager, `${fx.base}?object_type=u&object_id=${uid + 1}`, tag)).status).toBe(200);
    expect(tagOf(await read(manager, ofUnit()))).not.toBe(tag);
  });

  it('checks access before the tag: no 304 for a caller without the fleet', async () => {
    const tag = tagOf(await read(manager, active()));
    expect((await read(outsider, active(), tag)).status).toBe(403);
  });

  it('service create, update, status change and delete each change the tags', async () => {
    let tags = await unchangedTags();
    const due = await create({ f: 1 });
    expect(due.status, JSON.stringify(due.body)).toBe(200);
    // The revision is the fleet's services collection: every list of the fleet changes its tag.
    await expectChanged(tags);

    tags = await unchangedTags();
    expect((await manager.put(`${fx.base}/${due.body.id}`, { n: 'Renamed' })).status).toBe(200);
    await expectChanged(tags, [active(), ofUnit()]);
    const listed = (await read(manager, active())).body.services.find(
      (s: { id: number }) => s.id === due.body.id,
    );
    expect(listed.n).toBe('Renamed');

    tags = await unchangedTags();
    expect((await manager.post(`${fx.base}/status/batch`, { f: 2, services: [due.body.id] })).status).toBe(
      200,
    );
    await expectChanged(tags, [active(), ofUnit()]);

    tags = await unchangedTags();
    const closed = await create({ f: 8, start_date: fx.iso(-2), end_date: fx.iso(-1) });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    await expectChanged(tags, [archive()]);
    tags = await unchangedTags();
    expect((await manager.delete(`${fx.base}/archived/${closed.body.id}`)).status).toBe(200);
    await expectChanged(tags, [archive()]);
    const archived = (await read(manager, archive())).body.services.map((s: { id: number }) => s.id);
    expect(archived).not.toContain(closed.body.id);
  });

  it('an import changes the tags', async () => {
    const tags = await unchangedTags();
    const res = await manager.post(`${fx.base}/batch`, { services: [{ n: 'Imported', t: 'u', uid, f: 1 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectChanged(tags, [active(), ofUnit()]);
  });

  it('an attachment added to a service changes the tags (the reply counts them)', async () => {
    const due = await create({ f: 1 });
    const tags = await unchangedTags();
    const files = attachmentsTester(t, fx.base, 'service');
    const up = await files.upload(manager, due.body.id, [{ name: 'a.txt', data: new Uint8Array([1, 2, 3]) }]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    await expectChanged(tags, [active(), ofUnit()]);
    const listed = (await read(manager, active())).body.services.find(
      (s: { id: number }) => s.id === due.body.id,
    );
    expect(listed.ats).toBe(1);
  });

  it('the status engine’s change of a service changes the tags', async () => {
    const unit = await fx.unit(1000, 100);
    const iv = await createInterval(fx.db, fx.fleetId, 'Tagged 10k', { cnme: 1, cnmd: 10000, cnmo: 500 });
    const a = await assign(fx.db, {
      fleetId: fx.fleetId,
      intervalId: iv,
      type: 'u',
      id: unit,
      lcnm: 1000,
      ltm: now(),
    });
    await setCounters(fx.db, unit, 10600, 100);
    expect(await recompute(t.server.ctx, { objects: [{ type: 'u', id: unit }] })).toMatchObject({
      created: 1,
    });
    // Past the limit: the counters' change is a change of its own (current_mileage); the engine's
    // recomputation then marks the service overdue, a write of the services only.
    await setCounters(fx.db, unit, 11100, 100);
    const tags = await unchangedTags();
    expect(await recompute(t.server.ctx, { assignmentIds: [a] })).toMatchObject({ changed: 1 });
    await expectChanged(tags, [active()]);
  });

  it('ingestion that moves a unit’s counters changes the tags (the reply carries current_mileage)', async () => {
    const { device_id: deviceId } = await fx.unitRow(uid);
    const tags = await unchangedTags();
    const at = now();
    const reading = {
      deviceId,
      time: at,
      lat: 52.5,
      lon: 13.4,
      speed: 0,
      course: 0,
      altitude: null,
      ignition: null,
      odometerKm: 5000,
      hours: null,
      params: {},
    };
    expect((await ingestReading(t.server.ctx, reading, at)).status).toBe('accepted');
    expect(
      (await ingestReading(t.server.ctx, { ...reading, time: at + 60, odometerKm: 5100 }, at + 60)).status,
    ).toBe('accepted');
    const { mileage } = await fx.unitRow(uid);
    await expectChanged(tags, [active(), ofUnit(), archive()]);
    const listed = (await read(manager, ofUnit())).body.services[0];
    expect(listed.current_mileage).toBe(mileage);
  });

  it('a unit rename does not change them (the reply carries no unit name)', async () => {
    const tags = await unchangedTags();
    await fx.db.updateTable('units').set({ name: 'Renamed unit' }).where('id', '=', uid).execute();
    for (const [i, url] of lists().entries()) expect((await read(manager, url, tags[i])).status).toBe(304);
  });

  it('another fleet’s writes do not change them', async () => {
    const tags = await unchangedTags();
    const other = `/api/fleets/${t.demo.otherFleetId}/services`;
    const otherUnit = await fx.db
      .selectFrom('units')
      .select('id')
      .where('fleet_id', '=', t.demo.otherFleetId)
      .executeTakeFirstOrThrow();
    const res = await outsider.post(other, { n: 'Elsewhere', t: 'u', uid: otherUnit.id, f: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await setCounters(fx.db, otherUnit.id, 999_999, 9_999);
    for (const [i, url] of lists().entries()) expect((await read(manager, url, tags[i])).status).toBe(304);
  });

  it('a change of the fleet zone changes the archive’s tag (its days are the fleet’s)', async () => {
    const tags = await unchangedTags();
    const { tz } = await fx.db
      .selectFrom('fleets')
      .select('tz')
      .where('id', '=', fx.fleetId)
      .executeTakeFirstOrThrow();
    try {
      await fx.db.updateTable('fleets').set({ tz: 600 }).where('id', '=', fx.fleetId).execute();
      expect((await read(manager, archive(), tags[2])).status).toBe(200);
    } finally {
      await fx.db.updateTable('fleets').set({ tz }).where('id', '=', fx.fleetId).execute();
    }
  });

  /**
   * A second instance on the same database (PostgreSQL; on SQLite, one instance by design, the same
   * server): a write through A is seen by B's very next conditional read, never a stale 304.
   */
  describe('across instances', () => {
    let second: Server | undefined;
    let b: Client;
    let dataDir: string;

    beforeAll(async () => {
      if (TEST_DB === 'postgres') {
        dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-etag-'));
        const another = await listenAnother({ ...t.config, dataDir });
        second = another.server;
        const url = another.url;
        b = new Client(url, manager.ssid);
      } else b = manager;
    });
    afterAll(async () => {
      await second?.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('B answers 200 with A’s write at once, then 304 to the new tag', async () => {
      const before = await read(b, active());
      const tag = tagOf(before);
      expect((await read(b, active(), tag)).status).toBe(304);
      for (let i = 0; i < 5; i++) {
        const created = await create({ f: 1, n: `Across ${i}` });
        const res = await read(b, active(), tag);
        expect(res.status).toBe(200);
        expect(res.body.services.map((s: { id: number }) => s.id)).toContain(created.body.id);
        const next = tagOf(res);
        expect((await read(b, active(), next)).status).toBe(304);
      }
    });
  });
});
