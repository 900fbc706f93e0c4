import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CustomFieldsFixture, startCustomFieldsServer } from '../../test/customfields-fixture.js';

/**
 * The custom-fields API's contracts: a definition read with GET can be
 * written back as read, fleet and user fields in a body are never applied, and /api/openapi.json
 * documents every operation's reply.
 */
describe('custom fields: round trip, mass assignment, documented replies', () => {
  let fx: CustomFieldsFixture;

  beforeAll(async () => {
    fx = await startCustomFieldsServer();
  });
  afterAll(() => fx.t.close());

  const hostile = () => ({
    fid: fx.t.demo.otherFleetId,
    fleet_id: fx.t.demo.otherFleetId,
    cid: fx.t.demo.users.outsider,
    uid: fx.t.demo.users.outsider,
    acl: -1,
    su: 1,
    admin: 1,
  });
  const read = async (id: number) => (await fx.viewer.get(`/api/custom-fields/${id}`)).body;
  const fleetOf = async (id: number) =>
    (
      await fx.t.server.ctx.db.kysely
        .selectFrom('custom_fields')
        .select('fleet_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).fleet_id;

  it('writes a text field back as read, changing only the name', async () => {
    const made = await fx.define({ n: fx.unique('Round text'), tp: 1, t: 'u' });
    const before = await read(made.id);
    expect(before).toEqual(made);
    const name = fx.unique('Renamed text');
    const put = await fx.manager.put(`/api/custom-fields/${made.id}`, { ...before, n: name });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(await read(made.id)).toEqual({ ...before, n: name });
  });

  it('writes a list field back as read, changing only its options', async () => {
    const made = await fx.define({ n: fx.unique('Round list'), tp: 2, t: 's', s: { options: ['A', 'B'] } });
    const before = await read(made.id);
    const put = await fx.manager.put(`/api/custom-fields/${made.id}`, {
      ...before,
      s: { options: ['A', 'B', 'C'] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(await read(made.id)).toEqual({ ...before, s: { options: ['A', 'B', 'C'] } });
    // The list as read back lists every field unchanged but this one.
    const list = (await fx.viewer.get(fx.base)).body.custom_fields as any[];
    expect(list.find((f) => f.id === made.id)).toEqual(await read(made.id));
  });

  it('never applies fleet or user fields sent with a create or an update', async () => {
    const created = await fx.manager.post(fx.base, {
      ...hostile(),
      id: 1,
      n: fx.unique('Hostile'),
      tp: 1,
      t: 'd',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.id).not.toBe(1);
    expect(await fleetOf(created.body.id)).toBe(fx.fid);

    const other = await fx.define({ n: fx.unique('Other'), tp: 1, t: 'd' });
    const name = fx.unique('Hostile renamed');
    const updated = await fx.manager.put(`/api/custom-fields/${created.body.id}`, {
      ...(await read(created.body.id)),
      ...hostile(),
      id: other.id,
      n: name,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, n: name });
    expect(await fleetOf(created.body.id)).toBe(fx.fid);
    expect(await read(other.id)).toEqual(other);
    // The outsider's fleet did not gain it: asked through their session it does not exist.
    expect((await fx.outsider.get(`/api/custom-fields/${created.body.id}`)).status).toBe(404);
    const user = await fx.t.server.ctx.db.kysely
      .selectFrom('users')
      .select(['su', 'admin'])
      .where('id', '=', fx.t.demo.users.manager!)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ su: 0, admin: 0 });
  });

  it('documents every custom-fields operation with its reply in /api/openapi.json', async () => {
    const doc = (await fx.t.anon.get('/api/openapi.json')).body;
    const operations: [string, string][] = [
      ['get', '/api/fleets/{fid}/custom-fields'],
      ['post', '/api/fleets/{fid}/custom-fields'],
      ['get', '/api/custom-fields/{id}'],
      ['put', '/api/custom-fields/{id}'],
      ['delete', '/api/custom-fields/{id}'],
    ];
    for (const [method, path] of operations) {
      const reply = doc.paths[path]?.[method]?.responses?.['200']?.content?.['application/json']?.schema;
      expect(reply, `${method} ${path}`).toBeDefined();
    }
    const put = doc.paths['/api/custom-fields/{id}'].put;
    expect(put.responses['200'].content['application/json'].schema.required).toEqual([
      'id',
      'n',
      'tp',
      't',
      's',
    ]);
    expect(put.requestBody.content['application/json'].schema.properties.id.readOnly).toBe(true);
  });
});
