import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * The line-items API's contracts: an item read with GET can be written back
 * as read, fleet and user fields in a body are never applied, and /api/openapi.json documents every
 * operation's reply.
 */
describe('line items: round trip, mass assignment, documented replies', () => {
  let t: TestServer;
  let manager: Client;
  let fid: number;
  let otherFid: number;
  let base: string;
  let seq = 0;

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    fid = t.demo.fleetId;
    otherFid = t.demo.otherFleetId;
    base = `/api/fleets/${fid}/line_items`;
  });
  afterAll(() => t.close());

  const hostile = () => ({
    fleet_id: otherFid,
    cid: t.demo.users.outsider,
    uid: t.demo.users.outsider,
    acl: -1,
    su: 1,
    admin: 1,
  });
  const read = async (id: number) =>
    ((await manager.get(base)).body.line_items as any[]).find((i) => i.id === id);
  const fleetOf = async (id: number) =>
    (
      await t.server.ctx.db.kysely
        .selectFrom('line_items')
        .select('fleet_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).fleet_id;
  const expectUserUnchanged = async () => {
    const user = await t.server.ctx.db.kysely
      .selectFrom('users')
      .select(['su', 'admin'])
      .where('id', '=', t.demo.users.manager!)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ su: 0, admin: 0 });
  };

  it.each([
    ['part', 2],
    ['labour', 1],
    ['fuel', 4],
  ])('writes a %s item back as read, changing only the one field', async (_kind, kind) => {
    const made = await manager.post(base, { n: `Round trip ${++seq}`, t: kind, c: '12.125' });
    expect(made.status).toBe(200);
    const before = await read(made.body.id);
    expect(before).toEqual(made.body);
    const put = await manager.put(`${base}/${before.id}`, { ...before, c: 13.5 });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(await read(before.id)).toEqual({ ...before, c: 13.5 });
  });

  it('never applies fleet or user fields sent with a create, an update or an import', async () => {
    const created = await manager.post(base, {
      ...hostile(),
      fid: otherFid,
      id: 1,
      n: `Hostile ${++seq}`,
      t: 2,
      c: 1,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.id).not.toBe(1);
    expect(await fleetOf(created.body.id)).toBe(fid);

    const other = await manager.post(base, { n: `Other ${++seq}`, t: 2, c: 1 });
    const updated = await manager.put(`${base}/${created.body.id}`, {
      ...(await read(created.body.id)),
      ...hostile(),
      fid: otherFid,
      id: other.body.id,
      c: 2,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, c: 2 });
    expect(await fleetOf(created.body.id)).toBe(fid);
    expect(await read(other.body.id)).toEqual(other.body);

    // In the import each row names its fleet (DESIGN §5); other fleet fields change nothing.
    const imported = await manager.post('/api/line_items/batch', {
      ...hostile(),
      lineitems: [{ ...hostile(), fid, n: `Imported ${++seq}`, t: 'part', c: 3 }],
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(await fleetOf(imported.body.line_items[0].id)).toBe(fid);
    await expectUserUnchanged();
  });

  it('documents every line-items operation with its reply in /api/openapi.json', async () => {
    const doc = (await t.anon.get('/api/openapi.json')).body;
    const operations: [string, string][] = [
      ['get', '/api/fleets/{fid}/line_items'],
      ['get', '/api/fleets/{fid}/line_items/fuel_presets'],
      ['post', '/api/fleets/{fid}/line_items'],
      ['put', '/api/fleets/{fid}/line_items/{id}'],
      ['delete', '/api/fleets/{fid}/line_items/{id}'],
      ['post', '/api/line_items/batch'],
    ];
    for (const [method, path] of operations) {
      const reply = doc.paths[path]?.[method]?.responses?.['200']?.content?.['application/json']?.schema;
      expect(reply, `${method} ${path}`).toBeDefined();
    }
    const put = doc.paths['/api/fleets/{fid}/line_items/{id}'].put;
    expect(put.responses['200'].content['application/json'].schema.required).toEqual(['id', 'n', 't', 'c']);
    expect(put.requestBody.content['application/json'].schema.properties.id.readOnly).toBe(true);
  });
});
