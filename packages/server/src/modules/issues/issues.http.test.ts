import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { attachmentsTester } from '../../test/attachments.js';
import { eventsSince, outboxMark } from '../../test/domain-events.js';
import { EventsClient } from '../../test/events-client.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/** The issues API through the real server (docs/product.md "Issues"). */
describe('issues', () => {
  let t: TestServer;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let outsider: Client;
  let api: string;
  let unit: { id: number; name: string; mileage: number; engine_hours: number };
  let trailerId: number;
  let foreignUnitId: number;

  const db = () => t.server.ctx.db.kysely;
  const report = async (client: Client, body: object) => {
    const res = await client.post(api, {
      object_type: 'u',
      object_id: unit.id,
      title: 'Brake noise',
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
    outsider = await t.login('outsider');
    api = `/api/fleets/${t.demo.fleetId}/issues`;
    unit = await db()
      .selectFrom('units')
      .select(['id', 'name', 'mileage', 'engine_hours'])
      .where('fleet_id', '=', t.demo.fleetId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    trailerId = (
      await db()
        .selectFrom('trailers')
        .select('id')
        .where('fleet_id', '=', t.demo.fleetId)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    foreignUnitId = (
      await db()
        .selectFrom('units')
        .select('id')
        .where('fleet_id', '=', t.demo.otherFleetId)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports an issue with the unit’s counters, the reporter and an issue.reported event; live to the fleet', async () => {
    const mark = await outboxMark(db());
    const events = await EventsClient.connect(t.url, manager.ssid);
    const before = now();
    const made = await report(viewer, { description: 'Squeals when braking', priority: 'high' });
    const live = await events.next((e) => e.s === 'issue' && e.t === 'c');
    events.close();
    expect(made).toMatchObject({
      object_type: 'u',
      object_id: unit.id,
      object_name: unit.name,
      title: 'Brake noise',
      description: 'Squeals when braking',
      priority: 'high',
      status: 'open',
      note: '',
      reported_by: { id: t.demo.users.viewer, nm: 'Vera Viewer' },
      mileage: Number(unit.mileage),
      engine_hours: Number(unit.engine_hours),
      work_order_id: null,
      inspection_id: null,
      ended_at: null,
      ats: 0,
    });
    expect(made.reported_at).toBeGreaterThanOrEqual(before);
    expect((live.d as any).id).toBe(made.id);
    const reported = await eventsSince(db(), mark, ['issue.reported']);
    expect(reported).toEqual([
      expect.objectContaining({
        type: 'issue.reported',
        fid: t.demo.fleetId,
        by: t.demo.users.viewer,
        issueId: made.id,
        objectType: 'u',
        objectId: unit.id,
        priority: 'high',
        status: 'open',
        inspectionId: null,
      }),
    ]);
    const read = await viewer.get(`${api}/${made.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(made);
  });

  it('a trailer’s issue has no counters unless given; given counters and time are kept', async () => {
    const onTrailer = await report(manager, { object_type: 't', object_id: trailerId, title: 'Light out' });
    expect(onTrailer).toMatchObject({
      object_type: 't',
      priority: 'medium',
      mileage: null,
      engine_hours: null,
    });
    const given = await report(manager, { mileage: 1234.5, engine_hours: 77, reported_at: 1_700_000_000 });
    expect(given).toMatchObject({ mileage: 1234.5, engine_hours: 77, reported_at: 1_700_000_000 });
  });

  it('refuses bad input with the fields named, writing nothing', async () => {
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('issues')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const n = await count();
    const cases: [object, string][] = [
      [{ title: '' }, 'body.title'],
      [{ title: 'x'.repeat(129) }, 'body.title'],
      [{ priority: 'urgent' }, 'body.priority'],
      [{ object_type: 'd' }, 'body.object_type'],
      [{ reported_at: now() + 3600 }, 'body.reported_at'],
      [{ mileage: -1 }, 'body.mileage'],
      [{ extra: 1 }, 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await manager.post(api, { object_type: 'u', object_id: unit.id, title: 'T', ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(4);
      expect(res.body.details.map((d: any) => d.field).join(' '), JSON.stringify(body)).toContain(field);
    }
    const foreign = await manager.post(api, { object_type: 'u', object_id: foreignUnitId, title: 'T' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: 5, reason: 'Unit not found' });
    expect(await count()).toBe(n);
  });

  it('GET → PUT round trip; the status is refused unless equal; edits record issue.changed', async () => {
    const made = await report(manager, { priority: 'low' });
    const mark = await outboxMark(db());
    const read = (await manager.get(`${api}/${made.id}`)).body;
    const put = await mechanic.put(`${api}/${made.id}`, {
      ...read,
      title: 'Brake noise, front left',
      priority: 'critical',
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      title: 'Brake noise, front left',
      priority: 'critical',
      status: 'open',
    });
    expect(put.body.updated).toBeGreaterThanOrEqual(read.updated);
    const again = await manager.put(`${api}/${made.id}`, put.body);
    expect(again.status).toBe(200);
    const status = await manager.put(`${api}/${made.id}`, { ...read, status: 'resolved' });
    expect(status.status).toBe(400);
    expect(status.body.details).toEqual([{ field: 'body.status', message: 'Cannot be changed' }]);
    const changed = await eventsSince(db(), mark, ['issue.changed']);
    expect(changed).toHaveLength(2);
    expect(changed[0]).toMatchObject({ issueId: made.id, priority: 'critical', before: 'open' });
    const moved = await manager.put(`${api}/${made.id}`, { object_id: foreignUnitId });
    expect(moved.status).toBe(404);
  });

  it('resolve, close with a note, reopen: the rules of core issues.ts, 409 otherwise', async () => {
    const made = await report(viewer, {});
    const mark = await outboxMark(db());
    const noNote = await manager.post(`${api}/${made.id}/close`, {});
    expect(noNote.status).toBe(400);
    expect(noNote.body.details[0].field).toBe('body.note');
    const closed = await mechanic.post(`${api}/${made.id}/close`, { note: 'Normal noise of new pads' });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      status: 'closed',
      note: 'Normal noise of new pads',
      ended_by: { id: t.demo.users.mechanic },
    });
    expect(closed.body.ended_at).toBeGreaterThan(0);
    const twice = await manager.post(`${api}/${made.id}/resolve`, {});
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({
      error: 10,
      details: [{ id: made.id, reason: 'not_allowed', value: 'closed' }],
    });
    const reopened = await manager.post(`${api}/${made.id}/reopen`, {});
    expect(reopened.body).toMatchObject({ status: 'open', note: '', ended_at: null, ended_by: null });
    const resolved = await manager.post(`${api}/${made.id}/resolve`, { note: 'Pads replaced' });
    expect(resolved.body).toMatchObject({ status: 'resolved', note: 'Pads replaced' });
    const types = (await eventsSince(db(), mark, ['issue.closed', 'issue.changed', 'issue.resolved'])).map(
      (e: any) => e.type,
    );
    expect(types).toEqual(['issue.closed', 'issue.changed', 'issue.resolved']);
    const viewerTry = await viewer.post(`${api}/${made.id}/reopen`, {});
    expect(viewerTry.status).toBe(403);
  });

  it('lists with filters, words, sort and paging', async () => {
    await db().deleteFrom('issues').execute();
    const a = await report(manager, { title: 'Oil leak', priority: 'critical', reported_at: 1000 });
    const b = await report(manager, { title: 'Mirror cracked', priority: 'low', reported_at: 2000 });
    const c = await report(manager, {
      object_type: 't',
      object_id: trailerId,
      title: 'Tyre 100% worn',
      priority: 'high',
      reported_at: 3000,
    });
    await manager.post(`${api}/${b.id}/resolve`, {});
    const ids = async (query: string) => {
      const res = await viewer.get(`${api}${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { ids: res.body.issues.map((i: any) => i.id), total: res.body.total };
    };
    expect(await ids('')).toEqual({ ids: [c.id, b.id, a.id], total: 3 });
    expect(await ids('?status=open,workorder')).toEqual({ ids: [c.id, a.id], total: 2 });
    expect(await ids('?priority=critical,high&sort=priority')).toEqual({ ids: [a.id, c.id], total: 2 });
    expect(await ids(`?object_type=u&object_id=${unit.id}`)).toEqual({ ids: [b.id, a.id], total: 2 });
    expect(await ids('?search=OIL')).toEqual({ ids: [a.id], total: 1 });
    expect(await ids('?search=100%25')).toEqual({ ids: [c.id], total: 1 });
    expect(await ids('?search=0%25')).toEqual({ ids: [c.id], total: 1 });
    expect(await ids('?search=_')).toEqual({ ids: [], total: 0 });
    expect(await ids('?limit=1&offset=1')).toEqual({ ids: [b.id], total: 3 });
    const bad = await viewer.get(`${api}?status=done`);
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('querystring.status');
    const noType = await viewer.get(`${api}?object_id=${unit.id}`);
    expect(noType.status).toBe(400);
  });

  it('another fleet’s issue is not found; an outsider cannot list the fleet', async () => {
    const made = await report(manager, {});
    const theirs = `/api/fleets/${t.demo.otherFleetId}/issues`;
    const foreign = await outsider.post(theirs, {
      object_type: 'u',
      object_id: foreignUnitId,
      title: 'Theirs',
    });
    expect(foreign.status).toBe(200);
    for (const [method, url] of [
      ['get', `${api}/${foreign.body.id}`],
      ['put', `${api}/${foreign.body.id}`],
      ['delete', `${api}/${foreign.body.id}`],
      ['post', `${api}/${foreign.body.id}/close`],
    ] as const) {
      const res = await (manager as any)[method](
        url,
        method === 'put' ? { title: 'x' } : method === 'post' ? { note: 'n' } : undefined,
      );
      expect(res.status, `${method} ${url} ${JSON.stringify(res.body)}`).toBe(404);
      expect(res.body.error).toBe(5);
    }
    expect((await outsider.get(`${api}/${made.id}`)).status).toBe(403);
    expect((await outsider.get(api)).status).toBe(403);
    const mine = (await manager.get(api)).body.issues.map((i: any) => i.id);
    expect(mine).not.toContain(foreign.body.id);
  });

  it('photos: the reporter adds them while open, managers any time; caps of service attachments; gone with the issue', async () => {
    const files = attachmentsTester(t, api, 'issue');
    const png = { name: 'brake.png', type: 'image/png', data: new Uint8Array([137, 80, 78, 71, 1, 2, 3]) };
    const mine = await report(viewer, {});
    const up = await files.upload(viewer, mine.id, [png]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.attachments).toEqual([expect.objectContaining({ name: 'brake.png', size: 7 })]);
    expect((await viewer.get(`${api}/${mine.id}`)).body.ats).toBe(1);
    const theirs = await report(manager, {});
    expect((await files.upload(viewer, theirs.id, [png])).status).toBe(403);
    expect((await files.upload(mechanic, theirs.id, [png])).status).toBe(200);
    await manager.post(`${api}/${mine.id}/close`, { note: 'Not a defect' });
    expect((await files.upload(viewer, mine.id, [png])).status).toBe(403);
    const many = Array.from({ length: 21 }, (_, i) => ({ ...png, name: `p${i}.png` }));
    const capped = await files.upload(manager, theirs.id, many);
    expect(capped.status).toBe(413);
    expect(capped.body.error).toBe(2);
    expect(await files.stored(theirs.id)).toBe(1);
    const download = await viewer.get(`${api}/${mine.id}/attachments/${up.body.attachments[0].id}`);
    expect(download.status).toBe(200);
    expect((await manager.delete(`${api}/${mine.id}`)).status).toBe(200);
    expect(await files.stored(mine.id)).toBe(0);
    expect((await manager.get(`${api}/${mine.id}`)).status).toBe(404);
  });
});
