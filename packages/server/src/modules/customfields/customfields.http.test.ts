import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CustomFieldsFixture,
  issueFields as fields,
  startCustomFieldsServer,
} from '../../test/customfields-fixture.js';
import { EventsClient } from '../../test/events-client.js';
import type { Client, TestServer } from '../../test/harness.js';

/** Custom field definitions (spec §3 "Custom field", §7 "Custom fields"; PRODUCT.md "Administration"). */
describe('custom fields', () => {
  let t: TestServer;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let outsider: Client;
  let fid: number;
  let base: string;
  let unique: CustomFieldsFixture['unique'];
  let define: CustomFieldsFixture['define'];

  beforeAll(async () => {
    ({ t, manager, mechanic, viewer, outsider, fid, base, unique, define } = await startCustomFieldsServer());
  });
  afterAll(() => t.close());

  it('creates, lists sorted naturally and case-insensitively, reads, updates and deletes', async () => {
    const made: { n: string }[] = [];
    for (const n of ['Zone 10', 'zone 9', 'Axle', 'colour']) made.push(await define({ n, tp: 1, t: 'd' }));
    const list = await viewer.get(base);
    expect(list.status).toBe(200);
    const names = (list.body.custom_fields as any[])
      .map((f) => f.n)
      .filter((n) => made.some((m) => m.n === n));
    expect(names).toEqual(['Axle', 'colour', 'zone 9', 'Zone 10']);

    const created = await define({
      n: '  Tyre brand  ',
      tp: 2,
      t: 'u',
      s: { options: [' Michelin ', 'Nokian'] },
    });
    expect(created).toEqual({
      id: created.id,
      n: 'Tyre brand',
      tp: 2,
      t: 'u',
      s: { options: ['Michelin', 'Nokian'] },
    });
    expect((await viewer.get(`/api/custom-fields/${created.id}`)).body).toEqual(created);
    const changed = await manager.put(`/api/custom-fields/${created.id}`, {
      n: 'Tyres',
      s: { options: ['Michelin', 'Nokian', 'Pirelli'] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      n: 'Tyres',
      tp: 2,
      t: 'u',
      s: { options: ['Michelin', 'Nokian', 'Pirelli'] },
    });
    // A list becoming a text drops its options; a text has none on the wire.
    const text = await manager.put(`/api/custom-fields/${created.id}`, { tp: 1 });
    expect(text.body).toMatchObject({ tp: 1, s: {} });
    expect(text.body.s.options).toBeUndefined();
    expect((await manager.put(`/api/custom-fields/${created.id}`, { t: 's' })).status).toBe(400);
    expect((await manager.delete(`/api/custom-fields/${created.id}`)).body).toEqual({ error: 0, values: 0 });
    expect((await viewer.get(`/api/custom-fields/${created.id}`)).status).toBe(404);
    expect((await manager.delete(`/api/custom-fields/${created.id}`)).status).toBe(404);
  });

  it('refuses a duplicate name per fleet and owner type, case-insensitively (error 10)', async () => {
    const name = unique('Insurer');
    await define({ n: name, tp: 1, t: 'u' });
    const dup = await manager.post(base, { n: name.toUpperCase(), tp: 1, t: 'u' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 10, details: [{ field: 'body.n' }] });
    // Another owner type may use the name; a rename onto an existing name is refused too.
    const other = await define({ n: name, tp: 1, t: 't' });
    const second = await define({ n: unique('Insurer other'), tp: 1, t: 'u' });
    const renamed = await manager.put(`/api/custom-fields/${second.id}`, { n: ` ${name.toLowerCase()} ` });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error).toBe(10);
    expect((await manager.put(`/api/custom-fields/${other.id}`, { n: name })).status).toBe(200);
  });

  it('checks list options: non-empty, distinct, each non-empty and at most 128 characters; none for text', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await manager.post(base, { n: unique('Opt'), t: 's', ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe(4);
      return fields(res.body);
    };
    expect(await bad({ tp: 2 })).toEqual(['body.s.options']);
    expect(await bad({ tp: 2, s: { options: [] } })).toEqual(['body.s.options']);
    expect(await bad({ tp: 2, s: { options: ['a', '  '] } })).toEqual(['body.s.options.1']);
    expect(await bad({ tp: 2, s: { options: ['Diesel', 'diesel '] } })).toEqual(['body.s.options.1']);
    expect(await bad({ tp: 2, s: { options: ['x'.repeat(129)] } })).toEqual(['body.s.options.0']);
    expect(await bad({ tp: 1, s: { options: ['a'] } })).toEqual(['body.s.options']);
    expect(await bad({ tp: 3 })).toEqual(['body.tp']);
    const wrongOwner = await manager.post(base, { n: unique('Opt'), tp: 1, t: 'x' });
    expect(fields(wrongOwner.body)).toEqual(['body.t']);
    const noName = await manager.post(base, { n: '  ', tp: 1, t: 'u' });
    expect(fields(noName.body)).toEqual(['body.n']);
    // A text field becoming a list needs its options.
    const f = await define({ n: unique('Opt'), tp: 1, t: 's' });
    expect(fields((await manager.put(`/api/custom-fields/${f.id}`, { tp: 2 })).body)).toEqual([
      'body.s.options',
    ]);
  });

  it('needs the admin bit to write; any member reads; the outsider sees nothing', async () => {
    const f = await define({ n: unique('Perm'), tp: 1, t: 'u' });
    expect((await mechanic.post(base, { n: unique('Perm'), tp: 1, t: 'u' })).status).toBe(403);
    expect((await viewer.put(`/api/custom-fields/${f.id}`, { n: 'x' })).status).toBe(403);
    expect((await viewer.delete(`/api/custom-fields/${f.id}`)).status).toBe(403);
    expect((await mechanic.get(`/api/custom-fields/${f.id}`)).status).toBe(200);

    expect((await outsider.get(base)).status).toBe(403);
    // A field of another fleet answers like an unknown id.
    for (const res of [
      await outsider.get(`/api/custom-fields/${f.id}`),
      await outsider.put(`/api/custom-fields/${f.id}`, { n: 'stolen' }),
      await outsider.delete(`/api/custom-fields/${f.id}?safe=0`),
      await outsider.get('/api/custom-fields/999999'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 5, reason: 'Custom field not found' });
    }
    expect((await viewer.get(`/api/custom-fields/${f.id}`)).body.n).toBe(f.n);
    // The outsider's own fleet lists only its own fields.
    const own = `/api/fleets/${t.demo.otherFleetId}/custom-fields`;
    const theirs = await define({ n: unique('Northwind'), tp: 1, t: 'u' }, outsider, own);
    const ownList = (await outsider.get(own)).body.custom_fields as any[];
    expect(ownList.map((x) => x.id)).toEqual([theirs.id]);
    expect(((await manager.get(base)).body.custom_fields as any[]).some((x) => x.id === theirs.id)).toBe(
      false,
    );
    expect((await manager.get(`/api/custom-fields/${theirs.id}`)).status).toBe(404);
  });

  it('publishes create, update and delete events of the customfield collection to members only', async () => {
    const events = await EventsClient.connect(t.url, viewer.ssid!);
    const theirs = await EventsClient.connect(t.url, outsider.ssid!);
    try {
      const f = await define({ n: unique('Evented'), tp: 1, t: 'd' });
      const c = await events.next((e) => e.s === 'customfield' && e.t === 'c' && (e.d as any).id === f.id);
      expect(c).toMatchObject({ fid, d: { n: f.n, tp: 1, t: 'd', s: {} } });
      await manager.put(`/api/custom-fields/${f.id}`, { n: `${f.n} 2` });
      await events.next((e) => e.s === 'customfield' && e.t === 'u' && (e.d as any).n === `${f.n} 2`);
      await manager.delete(`/api/custom-fields/${f.id}`);
      await events.next((e) => e.s === 'customfield' && e.t === 'd' && (e.d as any).id === f.id);
      expect(theirs.received.some((e) => e.s === 'customfield')).toBe(false);
    } finally {
      events.close();
      theirs.close();
    }
  });
});
