import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * The services contract: a service read with GET writes back as it is (the
 * read-only fields, `f`'s server bits 4/128/256/512/1024 among them, are ignored), fields a caller may
 * never set are never applied, and every operation documents its reply in /api/openapi.json.
 */
describe('services contract', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let managerId: number;
  let otherUnit: number;
  let fieldId: number;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    managerId = t.demo.users.manager!;
    otherUnit = (
      await fx.db
        .selectFrom('units')
        .select('id')
        .where('fleet_id', '=', t.demo.otherFleetId)
        .executeTakeFirstOrThrow()
    ).id;
    const t0 = now();
    fieldId = (
      await fx.db
        .insertInto('custom_fields')
        .values({
          fleet_id: fx.fleetId,
          name: 'contract field',
          type: 1,
          options: '[]',
          owner_type: 's',
          created_at: t0,
          updated_at: t0,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t?.close());

  const read = async (id: number) => {
    const res = await manager.get(`${fx.base}/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Record<string, unknown>;
  };
  const create = async (body: Record<string, unknown>) => {
    const res = await manager.post(fx.base, { n: 'Contract', t: 'u', uid: await fx.unit(), ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as number;
  };
  const full = {
    description: 'as read',
    li: [{ n: 'Contract part', t: 2, q: 2, c: 3.5 }],
    limit_mileage: 9000,
  };
  /** The stored columns a caller may never set. */
  const guarded = (id: number) =>
    fx.db
      .selectFrom('services')
      .select(['fleet_id', 'creator_id', 'created_at', 'object_id', 'interval_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** Only `changed` (and `updated`, the server's time of the write) differ between two reads. */
  function expectOnly(before: Record<string, unknown>, after: Record<string, unknown>, changed: object) {
    const { updated: _a, ...rest } = after;
    const { updated: _b, ...expected } = { ...before, ...changed };
    expect(rest).toEqual(expected);
  }

  describe('round trip: GET → change one field → PUT the record as read', () => {
    it('PUT .../services/{id}: a manual Due service (f 129) with line items and custom values', async () => {
      const id = await create({ f: 1, ...full, notify_days: 2, cf: [{ id: fieldId, v: 'x' }] });
      const before = await read(id);
      expect(before.f).toBe(129);
      const res = await manager.put(`${fx.base}/${id}`, { ...before, description: 'changed' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectOnly(before, await read(id), { description: 'changed' });
    });

    it('PUT .../services/{id}: an overdue service whose planned date has passed keeps its flags', async () => {
      const id = await create({ f: 1 });
      await fx.db
        .updateTable('services')
        .set({ f: 1 | 4 | 1024, planned_date: fx.day(-3) })
        .where('id', '=', id)
        .execute();
      const before = await read(id);
      const res = await manager.put(`${fx.base}/${id}`, { ...before, n: 'renamed' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectOnly(before, await read(id), { n: 'renamed' });
    });

    it('PUT .../services/batch: open services as read, one field each', async () => {
      const due = await create({ f: 1, ...full });
      const busy = await create({ f: 2, start_date: fx.iso(-2) });
      const before = [await read(due), await read(busy)];
      const res = await manager.put(`${fx.base}/batch`, {
        services: [
          { ...before[0], limit_mileage: 9500 },
          { ...before[1], description: 'batch' },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectOnly(before[0]!, await read(due), { limit_mileage: 9500 });
      expectOnly(before[1]!, await read(busy), { description: 'batch' });
    });

    it('PUT .../services/archived/{id}: closed and rejected services as read', async () => {
      const closed = await create({
        f: 8,
        start_date: fx.iso(-3),
        end_date: fx.iso(-2),
        mileage: 4000,
        ...full,
        cf: [{ id: fieldId, v: 'y' }],
      });
      const rejected = await create({ f: 1, manual_cost: 12.5 });
      expect((await manager.post(`${fx.base}/${rejected}/status`, { f: 16 })).status).toBe(200);
      for (const [id, change] of [
        [closed, { description: 'corrected' }],
        [rejected, { manual_cost: 13 }],
      ] as const) {
        const before = await read(id);
        const res = await manager.put(`${fx.base}/archived/${id}`, { ...before, ...change });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const totals = 'manual_cost' in change ? { total_cost: change.manual_cost } : {};
        expectOnly(before, await read(id), { ...change, ...totals });
      }
    });
  });

  describe('the status asked for with the record as read', () => {
    it('moves as the transition rules say; the server bits of f are ignored', async () => {
      const due = await read(await create({ f: 1, notify_days: 3 }));
      const started = await manager.put(`${fx.base}/${due.id}`, { ...due, f: 2 });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect(started.body).toMatchObject({ f: 2, start_date: fx.today(), notify_days: null });
      const closed = await manager.put(`${fx.base}/${due.id}`, { ...started.body, f: 8 });
      expect(closed.body).toMatchObject({ f: 8, end_date: fx.today() });
      // 129 and 1|4|256 name Due: an In progress service goes back to Due, by hand (128).
      const busy = await read(await create({ f: 2 }));
      const back = await manager.put(`${fx.base}/${busy.id}`, { ...busy, f: 1 | 4 | 256 });
      expect(back.body).toMatchObject({ f: 129, limit_date: fx.today() });
      const rejected = await manager.put(`${fx.base}/${busy.id}`, { ...back.body, f: 16 | 128 });
      expect(rejected.body.f).toBe(16);
    });

    it('refuses a status that is none of the four, with the field', async () => {
      const id = await create({ f: 1 });
      for (const f of [0, 3, 4, 32, 128, 2 ** 31, -1, 1.5, '1']) {
        const res = await manager.put(`${fx.base}/${id}`, { f });
        expect(res.status, `f = ${f}`).toBe(400);
        expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['body.f']);
      }
      const batch = await manager.put(`${fx.base}/batch`, { services: [{ id, f: 8 | 16 }] });
      expect(batch.status).toBe(400);
      expect((await read(id)).f).toBe(129);
    });
  });

  describe('mass assignment: fleet, owner, creator, acl, su and admin are never applied', () => {
    const foreign = () => ({
      fid: t.demo.otherFleetId,
      fleet_id: t.demo.otherFleetId,
      cid: 1,
      creator_id: 1,
      account_id: 1,
      acl: -1,
      su: 1,
      admin: 1,
    });

    it('POST .../services and .../services/batch', async () => {
      const one = await manager.post(fx.base, {
        n: 'Mass',
        t: 'u',
        uid: await fx.unit(),
        f: 1,
        ...foreign(),
      });
      expect(one.status, JSON.stringify(one.body)).toBe(200);
      const rows = await manager.post(`${fx.base}/batch`, {
        services: [{ n: 'Mass', t: 'u', uid: await fx.unit(), f: 8, ...foreign() }],
      });
      expect(rows.status, JSON.stringify(rows.body)).toBe(200);
      for (const id of [one.body.id, rows.body.services[0].id])
        expect(await guarded(id)).toMatchObject({ fleet_id: fx.fleetId, creator_id: managerId });
    });

    it('PUT .../services/{id}, .../batch, status calls and archive corrections', async () => {
      const id = await create({ f: 1 });
      const stored = await guarded(id);
      // The creator `cid` is a stored field no write changes: another value is refused, nothing written.
      const creator = await manager.put(`${fx.base}/${id}`, { description: 'a', ...foreign() });
      expect(creator.status).toBe(400);
      expect(creator.body.details).toEqual([{ field: 'body.cid', message: 'Cannot be changed' }]);
      const batchCreator = await manager.put(`${fx.base}/batch`, {
        services: [{ id, n: 'b', ...foreign() }],
      });
      expect(batchCreator.status).toBe(400);
      expect((await read(id)).description).toBe('');
      const { cid: _cid, ...others } = foreign();
      const put = await manager.put(`${fx.base}/${id}`, { description: 'a', tm: 1, ats: 7, ...others });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const batch = await manager.put(`${fx.base}/batch`, {
        services: [{ id, n: 'b', cid: managerId, ...others }],
      });
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      // The owner is no field of a write: another object, of this fleet or another, is refused.
      const owner = await manager.put(`${fx.base}/${id}`, { uid: otherUnit });
      expect(owner.status).toBe(400);
      const confirm = await manager.put(`${fx.base}/${id}/confirm`, { f: 16, ...foreign() });
      expect(confirm.body.f).toBe(2);
      const status = await manager.post(`${fx.base}/status/batch`, { f: 8, services: [id], ...foreign() });
      expect(status.status, JSON.stringify(status.body)).toBe(200);
      expect(await guarded(id)).toEqual(stored);
      const after = await read(id);
      expect(after).toMatchObject({ description: 'a', n: 'b', f: 8, cid: managerId, ats: 0 });
      expect(after.tm).toBe(stored.created_at);

      const url = `${fx.base}/archived/${id}`;
      // The archive correction names every field it takes: unknown keys are refused.
      for (const key of ['fid', 'fleet_id', 'acl', 'su', 'admin', 'creator_id']) {
        const res = await manager.put(url, { description: 'c', [key]: 1 });
        expect(res.status, key).toBe(400);
      }
      // Creator and owner cannot be corrected: other values are refused, the stored ones pass.
      const moved = await manager.put(url, { description: 'c', cid: 1, uid: otherUnit, t: 'd' });
      expect(moved.status).toBe(400);
      expect(moved.body.details.map((d: { field: string }) => d.field)).toEqual([
        'body.t',
        'body.uid',
        'body.cid',
      ]);
      const ok = await manager.put(url, { description: 'c', cid: managerId, uid: stored.object_id, t: 'u' });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(await guarded(id)).toEqual(stored);
      expect(await read(id)).toMatchObject({ description: 'c', t: 'u', cid: managerId });
    });

    it('POST .../{id}/status, DELETE .../archived, attachments', async () => {
      const id = await create({ f: 1 });
      const stored = await guarded(id);
      const rejected = await manager.post(`${fx.base}/${id}/status`, { f: 16, ...foreign() });
      expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
      expect(await guarded(id)).toEqual(stored);
      // Attachments take file parts only: a form field is refused and nothing is stored.
      const form = new FormData();
      form.append('file', new Blob(['ok']), 'a.txt');
      form.append('fid', String(t.demo.otherFleetId));
      const upload = await fetch(`${t.url}${fx.base}/${id}/attachments`, {
        method: 'POST',
        headers: { authorization: `SSID ${manager.ssid}` },
        body: form,
      });
      expect(upload.status).toBe(400);
      expect((await read(id)).ats).toBe(0);
      const gone = await manager.delete(`${fx.base}/archived/batch`, { services: [id], ...foreign() });
      expect(gone.body).toEqual({ error: 0, deleted: 1 });
    });
  });

  it('documents every services and statistics operation, and the read-only fields of a write', async () => {
    const doc = (await t.anon.get('/api/openapi.json')).body;
    const service = '/api/fleets/{fid}/services';
    const operations = [
      ['get', service],
      ['post', service],
      ['post', `${service}/batch`],
      ['put', `${service}/batch`],
      ['post', `${service}/status/batch`],
      ['get', `${service}/archived`],
      ['put', `${service}/archived/{id}`],
      ['delete', `${service}/archived/batch`],
      ['delete', `${service}/archived/{id}`],
      ['get', `${service}/{id}`],
      ['put', `${service}/{id}`],
      ['put', `${service}/{id}/confirm`],
      ['post', `${service}/{id}/status`],
      ['get', `${service}/{id}/attachments`],
      ['post', `${service}/{id}/attachments`],
      ['get', `${service}/{id}/attachments/{aid}`],
      ['delete', `${service}/{id}/attachments/{aid}`],
      ['get', '/api/fleets/{fid}/statistics'],
      ['get', '/api/fleets/{fid}/units/{uid}/statistics'],
    ] as const;
    const undocumented = operations.filter(
      ([method, path]) =>
        !doc.paths[path]?.[method]?.responses?.['200']?.content?.['application/json']?.schema,
    );
    expect(undocumented).toEqual([]);
    const wire = doc.paths[`${service}/{id}`].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(wire.properties)).toEqual(
      expect.arrayContaining(['id', 'f', 'li', 'ats', 'ins', 'cf']),
    );
    const body = doc.paths[`${service}/{id}`].put.requestBody.content['application/json'].schema;
    expect(body.properties.tm.readOnly).toBe(true);
    expect(body.properties.f.type).toBe('integer');
    const archive = doc.paths[`${service}/archived/{id}`].put.requestBody.content['application/json'].schema;
    expect(archive.properties.uid.readOnly).toBe(true);
    expect(archive.additionalProperties).toBe(false);
  });
});
