import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountOf,
  type Client,
  createAccount,
  createUnit,
  createUser,
  startTestServer,
  type TestServer,
} from '../test/harness.js';
import { servicesFixture } from '../test/services-fixtures.js';
import { CANNOT_CHANGE } from './fixed-fields.js';

/**
 * Stored fields that an update cannot change (core `acceptingReadOnly`'s fixed keys) are refused, not
 * silently dropped (PRODUCT.md "Written-back records"): on every update route that has such a field, a
 * value other than the stored one answers 400 `{error: 4}` naming the field and writes nothing, even
 * the writable change sent with it; the stored value sent back (the record as read) is accepted.
 */
describe('fixed fields of updates: refused when they differ, accepted when equal', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let root: Client;
  let admin: Client;
  let fleet: string;
  let otherFleet: number;
  let managerId: number;
  let accountId: number;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    [manager, root, admin] = await Promise.all([t.login('manager'), t.login('root'), t.login('admin')]);
    fleet = `/api/fleets/${t.demo.fleetId}`;
    otherFleet = t.demo.otherFleetId;
    managerId = t.demo.users.manager!;
    accountId = await accountOf(t, 'admin');
  });
  afterAll(() => t?.close());

  const find = (list: { id: number }[], id: number) => {
    const found = list.find((x) => x.id === id);
    expect(found, `record ${id}`).toBeTruthy();
    return found as Record<string, unknown>;
  };

  interface Target {
    client: () => Client;
    url: string;
    read: () => Promise<Record<string, unknown>>;
    /** A writable change sent along, to show that nothing is half written on a refusal. */
    change: Record<string, unknown>;
    /** Each fixed field with a value other than the stored one. */
    differing: Record<string, unknown>;
  }

  /** Refused per field and all at once, naming the fields; nothing written; the stored values pass. */
  async function expectFixed(target: Target) {
    const before = await target.read();
    for (const [key, value] of Object.entries(target.differing)) {
      const res = await target.client().put(target.url, { ...target.change, [key]: value });
      expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body).toMatchObject({
        error: 4,
        details: [{ field: `body.${key}`, message: CANNOT_CHANGE }],
      });
      expect(await target.read()).toEqual(before);
    }
    const all = await target.client().put(target.url, { ...before, ...target.change, ...target.differing });
    expect(all.status).toBe(400);
    expect(all.body.details.map((d: { field: string }) => d.field).sort()).toEqual(
      Object.keys(target.differing)
        .map((k) => `body.${k}`)
        .sort(),
    );
    expect(await target.read()).toEqual(before);
    // The stored values, alone or in the record as read, are no change: the writable change applies.
    const equal = Object.fromEntries(Object.keys(target.differing).map((k) => [k, before[k]]));
    const ok = await target.client().put(target.url, { ...equal, ...target.change });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const after = await target.read();
    expect(after).toMatchObject({ ...equal, ...target.change });
    const asRead = await target.client().put(target.url, after);
    expect(asRead.status, JSON.stringify(asRead.body)).toBe(200);
  }

  it('PUT /api/admin/accounts/{id}: parent', async () => {
    const id = await createAccount(t, 'Fixed fields sub', accountId);
    await expectFixed({
      client: () => root,
      url: `/api/admin/accounts/${id}`,
      read: async () => find((await root.get('/api/admin/accounts')).body.accounts, id),
      change: { n: 'Fixed fields renamed' },
      differing: { parent: await accountOf(t, 'outsider') },
    });
  });

  it('PUT /api/admin/users/{id}: su', async () => {
    const id = await createUser(t, { accountId, name: 'fixed-fields-user' });
    await expectFixed({
      client: () => admin,
      url: `/api/admin/users/${id}`,
      read: async () => find((await admin.get(`/api/admin/accounts/${accountId}/users`)).body.users, id),
      change: { n: 'Fixed Fields' },
      differing: { su: 1 },
    });
  });

  it('PUT /api/fleets/{id}: aid', async () => {
    await expectFixed({
      client: () => admin,
      url: fleet,
      read: async () => find((await admin.get('/api/fleets')).body.fleets, t.demo.fleetId),
      change: { cur: 'EUR' },
      differing: { aid: await accountOf(t, 'outsider') },
    });
  });

  it('PUT /api/fleets/{fid}/units/{id}: fid and uid', async () => {
    const id = await createUnit(t, { accountId, fleetId: t.demo.fleetId, name: 'Fixed fields van' });
    await expectFixed({
      client: () => manager,
      url: `${fleet}/units/${id}`,
      read: async () => find((await manager.get(`${fleet}/units`)).body.units, id),
      change: { cnm: 1234 },
      differing: { fid: otherFleet, uid: 'another-device' },
    });
  });

  it('PUT /api/drivers/{id} and /api/trailers/{id}: fid', async () => {
    for (const kind of ['drivers', 'trailers'] as const) {
      const id = (await manager.get(`${fleet}/${kind}`)).body[kind][0].id as number;
      await expectFixed({
        client: () => manager,
        url: `/api/${kind}/${id}`,
        read: async () => find((await manager.get(`${fleet}/${kind}`)).body[kind], id),
        change: { ds: `fixed ${kind}` },
        differing: { fid: otherFleet },
      });
    }
  });

  it('PUT /api/custom-fields/{id}: t (owner type)', async () => {
    const made = await admin.post(`${fleet}/custom-fields`, { n: 'Fixed field', tp: 1, t: 'u' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await expectFixed({
      client: () => admin,
      url: `/api/custom-fields/${made.body.id}`,
      read: async () => (await admin.get(`/api/custom-fields/${made.body.id}`)).body,
      change: { n: 'Fixed field renamed' },
      differing: { t: 'd' },
    });
  });

  it('PUT .../intervals/{id}: c (creator)', async () => {
    const made = await manager.post(`${fleet}/intervals`, { n: 'Fixed interval', cnme: 1, cnmd: 10000 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.c).toBe(managerId);
    await expectFixed({
      client: () => manager,
      url: `${fleet}/intervals/${made.body.id}`,
      read: async () => find((await manager.get(`${fleet}/intervals`)).body.intervals, made.body.id),
      change: { description: 'fixed' },
      differing: { c: t.demo.users.admin },
    });
  });

  it('PUT .../fuel-fillings/{id}: cid (creator)', async () => {
    const unit = await fx.unit();
    const made = await manager.post(`${fleet}/fuel-fillings`, { uid: unit, volume: 40, price: 1.5 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await expectFixed({
      client: () => manager,
      url: `${fleet}/fuel-fillings/${made.body.id}`,
      read: async () => (await manager.get(`${fleet}/fuel-fillings/${made.body.id}`)).body,
      change: { description: 'fixed' },
      differing: { cid: t.demo.users.admin },
    });
  });

  describe('services', () => {
    const create = async (body: Record<string, unknown>) => {
      const res = await manager.post(fx.base, { n: 'Fixed service', t: 'u', uid: await fx.unit(), ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as Record<string, unknown> & { id: number };
    };
    const read = async (id: number) => (await manager.get(`${fx.base}/${id}`)).body;

    it('PUT .../services/{id}: t, uid, ivid, cid', async () => {
      const { ivid } = await fx.assignment(await fx.unit());
      const s = await create({ f: 1 });
      await expectFixed({
        client: () => manager,
        url: `${fx.base}/${s.id}`,
        read: () => read(s.id),
        change: { description: 'fixed' },
        differing: { t: 'd', uid: await fx.unit(), ivid, cid: t.demo.users.admin },
      });
    });

    it('PUT .../services/batch: a differing fixed field names its row; nothing of the batch is written', async () => {
      const [a, b] = [await create({ f: 1 }), await create({ f: 1 })];
      const res = await manager.put(`${fx.base}/batch`, {
        services: [
          { ...a, description: 'batch a' },
          { ...b, description: 'batch b', uid: await fx.unit(), cid: t.demo.users.admin },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        { field: 'body.services.1.uid', message: CANNOT_CHANGE, row: 1 },
        { field: 'body.services.1.cid', message: CANNOT_CHANGE, row: 1 },
      ]);
      expect(await read(a.id)).toEqual(a);
      expect(await read(b.id)).toEqual(b);
      const ok = await manager.put(`${fx.base}/batch`, {
        services: [
          { ...a, description: 'batch a' },
          { ...b, description: 'batch b' },
        ],
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect((await read(b.id)).description).toBe('batch b');
    });

    it('PUT .../services/archived/{id}: the name is corrected (alone and in the record as read)', async () => {
      const closed = await create({ f: 8, mileage: 100 });
      const alone = await manager.put(`${fx.base}/archived/${closed.id}`, { n: 'Corrected name' });
      expect(alone.status, JSON.stringify(alone.body)).toBe(200);
      expect(alone.body.n).toBe('Corrected name');
      const asRead = await read(closed.id);
      expect(asRead.n).toBe('Corrected name');
      const again = await manager.put(`${fx.base}/archived/${closed.id}`, {
        ...asRead,
        n: 'Corrected twice',
      });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(await read(closed.id)).toMatchObject({ n: 'Corrected twice', description: asRead.description });
      const blank = await manager.put(`${fx.base}/archived/${closed.id}`, { n: ' ' });
      expect(blank.status).toBe(400);
      expect((await read(closed.id)).n).toBe('Corrected twice');
    });

    it('PUT .../services/archived/{id}: status, plan, owner and creator are refused when they differ', async () => {
      const { ivid } = await fx.assignment(await fx.unit());
      const closed = await create({ f: 8, start_date: fx.iso(-2), end_date: fx.iso(-1) });
      await expectFixed({
        client: () => manager,
        url: `${fx.base}/archived/${closed.id}`,
        read: () => read(closed.id),
        change: { description: 'archive fixed' },
        differing: {
          f: 16,
          start_date: fx.day(-3),
          limit_date: fx.day(1),
          limit_mileage: 5000,
          limit_engine_hours: 50,
          notify_days: 3,
          t: 'd',
          uid: await fx.unit(),
          ivid,
          cid: t.demo.users.admin,
        },
      });
    });
  });
});
