import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * The intervals API's contracts: a record read with GET can be written back
 * as read (spec §7 "generic store operations: update"), fields a caller may never set are never
 * applied, and /api/openapi.json documents every operation's reply.
 */
describe('intervals: round trip, mass assignment, documented replies', () => {
  let t: TestServer;
  let manager: Client;
  let fleet: string;
  let fid: number;
  let otherFid: number;
  let managerId: number;
  let outsiderId: number;
  let unitIds: number[];
  let driverId: number;
  let trailerId: number;
  let seq = 0;

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    fid = t.demo.fleetId;
    otherFid = t.demo.otherFleetId;
    fleet = `/api/fleets/${fid}`;
    managerId = t.demo.users.manager!;
    outsiderId = t.demo.users.outsider!;
    unitIds = (await manager.get(`${fleet}/units`)).body.units.map((u: { id: number }) => u.id);
    driverId = (await manager.get(`${fleet}/drivers`)).body.drivers[0].id;
    trailerId = (await manager.get(`${fleet}/trailers`)).body.trailers[0].id;
  });
  afterAll(() => t.close());

  /** Fields only the server sets (fleet, creator) or that belong to users, sent by a hostile caller. */
  const hostile = () => ({
    fid: otherFid,
    fleet_id: otherFid,
    cid: outsiderId,
    uid: outsiderId,
    creator_id: outsiderId,
    acl: -1,
    su: 1,
    admin: 1,
  });
  const readInterval = async (id: number) =>
    ((await manager.get(`${fleet}/intervals`)).body.intervals as any[]).find((i) => i.id === id);
  const intervalRow = (id: number) =>
    t.server.ctx.db.kysely
      .selectFrom('intervals')
      .select(['fleet_id', 'creator_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  /** The manager's user row is untouched by anything a body says about `su`/`admin`. */
  const expectUserUnchanged = async () => {
    const user = await t.server.ctx.db.kysely
      .selectFrom('users')
      .select(['su', 'admin'])
      .where('id', '=', managerId)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ su: 0, admin: 0 });
  };
  const makeInterval = async () => {
    const res = await manager.post(`${fleet}/intervals`, {
      n: `Round trip ${++seq}`,
      description: 'Before',
      cnme: 1,
      cnmd: 10000,
      cnmo: 500,
      de: 1,
      dd: 6,
      du: 'm',
      do: 14,
      li: [
        { n: 'Round trip filter', t: 2, q: 1.5, c: '9.125' },
        { n: 'Round trip labour', t: 1, q: 1, c: 40 },
      ],
      u: [
        { id: unitIds[0], t: 'u', lcnm: 1234.5 },
        { id: driverId, t: 'd' },
        { id: trailerId, t: 't' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  /** Everything but `tm`, which the server sets on every write. */
  const withoutTime = ({ tm: _tm, ...rest }: any) => rest;

  it('writes an interval back as read, changing only the one field', async () => {
    const made = await makeInterval();
    const before = await readInterval(made.id);
    expect(before).toEqual(made);
    const put = await manager.put(`${fleet}/intervals/${made.id}`, { ...before, description: 'After' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const after = await readInterval(made.id);
    expect(withoutTime(after)).toEqual({ ...withoutTime(before), description: 'After' });
    expect(after.tm).toBeGreaterThanOrEqual(before.tm);
    // The baselines and line items as read stay exactly as they were.
    expect(after.u).toEqual(before.u);
    expect(after.li).toEqual(before.li);
  });

  it('writes assignments back as read, changing only the one baseline', async () => {
    const made = await makeInterval();
    const url = `${fleet}/intervals/${made.id}/units`;
    const before = (await manager.get(url)).body;
    expect(before.units).toHaveLength(3);
    const changed = before.units.map((u: any, i: number) => (i === 1 ? { ...u, cnt: u.cnt + 3 } : u));
    const put = await manager.put(url, { ...before, units: changed });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await manager.get(url)).body).toEqual({ units: changed });
  });

  it.each([
    ['units', () => unitIds[0]!],
    ['drivers', () => driverId],
    ['trailers', () => trailerId],
  ])(
    'writes the bases of one of the %s back as read, changing only the one value',
    async (kind, objectId) => {
      const made = await makeInterval();
      const url = `${fleet}/${kind}/${objectId()}/bases`;
      const before = (await manager.get(url)).body;
      const index = before.bases.findIndex((b: any) => b.ivid === made.id);
      expect(index).toBeGreaterThanOrEqual(0);
      const changed = before.bases.map((b: any, i: number) =>
        i === index ? { ...b, lceh: b.lceh + 7.25 } : b,
      );
      const put = await manager.put(url, { ...before, bases: changed });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect((await manager.get(url)).body).toEqual({ bases: changed });
    },
  );

  it('never applies fleet, creator or user fields sent with a create or an update', async () => {
    const plain = await makeInterval();
    expect(plain.c).toBe(managerId);
    const created = await manager.post(`${fleet}/intervals`, {
      ...hostile(),
      id: 1,
      c: outsiderId,
      tm: 1,
      n: `Hostile ${++seq}`,
      cnme: 1,
      cnmd: 1000,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.c).toBe(managerId);
    expect(created.body.id).not.toBe(1);
    expect(await intervalRow(created.body.id)).toEqual({ fleet_id: fid, creator_id: managerId });

    // The creator is stored and never changed: another `c` is refused (400 naming it), nothing written.
    const creator = await manager.put(`${fleet}/intervals/${plain.id}`, {
      ...(await readInterval(plain.id)),
      c: outsiderId,
      cnmd: 12000,
    });
    expect(creator.status).toBe(400);
    expect(creator.body.details).toEqual([{ field: 'body.c', message: 'Cannot be changed' }]);
    expect((await readInterval(plain.id)).cnmd).toBe(plain.cnmd);
    const updated = await manager.put(`${fleet}/intervals/${plain.id}`, {
      ...(await readInterval(plain.id)),
      ...hostile(),
      id: created.body.id,
      cnmd: 12000,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id: plain.id, c: managerId, cnmd: 12000 });
    expect(await intervalRow(plain.id)).toEqual({ fleet_id: fid, creator_id: managerId });
    expect((await readInterval(created.body.id)).cnmd).toBe(1000);
    await expectUserUnchanged();
  });

  it('never applies fleet fields sent with assignments, bases or an import', async () => {
    const made = await makeInterval();
    const units = await manager.put(`${fleet}/intervals/${made.id}/units`, {
      ...hostile(),
      units: [{ ...hostile(), id: unitIds[1], t: 'u', cnt: 2 }],
    });
    expect(units.status, JSON.stringify(units.body)).toBe(200);
    const bases = await manager.put(`${fleet}/units/${unitIds[1]}/bases`, {
      ...hostile(),
      bases: [{ ...hostile(), ivid: made.id, interval_id: made.id + 1, cnt: 5 }],
    });
    expect(bases.status, JSON.stringify(bases.body)).toBe(200);
    const rows = await t.server.ctx.db.kysely
      .selectFrom('assignments')
      .select(['fleet_id', 'interval_id', 'object_id', 'cnt'])
      .where('interval_id', '=', made.id)
      .execute();
    expect(rows).toEqual([{ fleet_id: fid, interval_id: made.id, object_id: unitIds[1], cnt: 5 }]);

    const name = `Imported hostile ${++seq}`;
    const imported = await manager.post(`${fleet}/intervals/batch`, {
      ...hostile(),
      intervals: [{ ...hostile(), c: outsiderId, n: name, cnme: 1, cnmd: 500 }],
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const [row] = imported.body.intervals;
    expect(row).toMatchObject({ n: name, c: managerId });
    expect(await intervalRow(row.id)).toEqual({ fleet_id: fid, creator_id: managerId });
    await expectUserUnchanged();
  });

  it('documents every intervals operation with its request and reply in /api/openapi.json', async () => {
    const doc = (await t.anon.get('/api/openapi.json')).body;
    const operations: [string, string][] = [
      ['get', '/api/fleets/{fid}/intervals'],
      ['post', '/api/fleets/{fid}/intervals'],
      ['post', '/api/fleets/{fid}/intervals/batch'],
      ['put', '/api/fleets/{fid}/intervals/{id}'],
      ['delete', '/api/fleets/{fid}/intervals/{id}'],
      ['get', '/api/fleets/{fid}/intervals/{id}/units'],
      ['put', '/api/fleets/{fid}/intervals/{id}/units'],
      ...['units', 'drivers', 'trailers'].flatMap((kind): [string, string][] => [
        ['get', `/api/fleets/{fid}/${kind}/{id}/bases`],
        ['put', `/api/fleets/{fid}/${kind}/{id}/bases`],
      ]),
    ];
    for (const [method, path] of operations) {
      const reply = doc.paths[path]?.[method]?.responses?.['200']?.content?.['application/json']?.schema;
      expect(reply, `${method} ${path}`).toBeDefined();
    }
    const put = doc.paths['/api/fleets/{fid}/intervals/{id}'].put;
    const reply = put.responses['200'].content['application/json'].schema;
    expect(reply.properties.u.items.required).toEqual(
      expect.arrayContaining(['id', 't', 'lcnm', 'lceh', 'ltm', 'cnt']),
    );
    // The read-only fields of the record are documented as accepted and ignored.
    const body = put.requestBody.content['application/json'].schema;
    for (const key of ['id', 'c', 'tm']) expect(body.properties[key]?.readOnly, key).toBe(true);
  });
});
