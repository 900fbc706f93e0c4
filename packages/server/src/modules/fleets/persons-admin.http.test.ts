import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, TestServer } from '../../test/harness.js';
import * as fixture from '../../test/removal-fixture.js';

/**
 * Creating and deleting drivers and trailers (PRODUCT.md "Service objects
 * and counters"): made in the fleet by its admin, removed by the removal rule.
 */
describe('drivers and trailers: create and delete', () => {
  let t: TestServer;
  let admin: Client;
  let manager: Client;
  let mechanic: Client;
  let outsider: Client;
  let base: string;
  let demoAccount: number;

  beforeAll(async () => {
    ({ t, admin, manager, mechanic, outsider, base, demoAccount } = await fixture.startObjectsAdmin());
  });
  afterAll(() => t.close());

  const db = () => t.server.ctx.db.kysely;
  const servicesOf = (type: 'd' | 't', objectId: number) => fixture.servicesOf(db(), type, objectId);
  const withMaintenance = (type: 'd' | 't', objectId: number, name: string) =>
    fixture.withMaintenance(db(), t.demo.fleetId, type, objectId, name);

  for (const kind of ['drivers', 'trailers'] as const) {
    const type = kind === 'drivers' ? 'd' : 't';
    describe(`${kind}: create and delete`, () => {
      it('creates one in the fleet, never elsewhere', async () => {
        const res = await admin.post(`${base}/${kind}`, {
          n: ' New one ',
          c: 'C-7',
          ds: 'night shift',
          fid: t.demo.otherFleetId,
          aid: 1,
          ins: 1,
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          id: expect.any(Number),
          fid: t.demo.fleetId,
          n: 'New one',
          c: 'C-7',
          ds: 'night shift',
          cf: [],
          ins: 0,
        });
        const list = (await manager.get(`${base}/${kind}`)).body[kind] as { id: number }[];
        expect(list.find((p) => p.id === res.body.id)).toEqual(res.body);
        const row = await db()
          .selectFrom(kind)
          .selectAll()
          .where('id', '=', res.body.id)
          .executeTakeFirstOrThrow();
        expect(row.account_id).toBe(demoAccount);
        const bare = await admin.post(`${base}/${kind}`, { n: 'Bare' });
        expect(bare.body).toMatchObject({ c: '', ds: '' });
        expect((await admin.post(`${base}/${kind}`, { c: 'x' })).status).toBe(400);
        expect((await mechanic.post(`${base}/${kind}`, { n: 'No' })).status).toBe(403);
        expect((await outsider.post(`${base}/${kind}`, { n: 'No' })).status).toBe(403);
      });

      it('deletes one by the removal rule; keeps the archive unless asked', async () => {
        const keep = (await admin.post(`${base}/${kind}`, { n: 'Keep archive' })).body;
        const k = await withMaintenance(type, keep.id, `${kind} keep`);
        const res = await admin.delete(`/api/${kind}/${keep.id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ error: 0, services: 2 });
        expect(await servicesOf(type, keep.id)).toEqual([{ id: k.archived, f: 8 }]);
        expect(
          (await admin.get(`${base}/${kind}`)).body[kind].map((p: { id: number }) => p.id),
        ).not.toContain(keep.id);
        // Gone: a second delete answers like a foreign record, not found.
        expect((await admin.delete(`/api/${kind}/${keep.id}`)).status).toBe(404);

        const drop = (await admin.post(`${base}/${kind}`, { n: 'Drop archive' })).body;
        await withMaintenance(type, drop.id, `${kind} drop`);
        const all = await admin.delete(`/api/${kind}/${drop.id}?archive=delete`);
        expect(all.body).toEqual({ error: 0, services: 3 });
        expect(await servicesOf(type, drop.id)).toEqual([]);
      });

      it("cannot touch another fleet's record, nor let an editor delete", async () => {
        const other = await db()
          .selectFrom(kind)
          .select('id')
          .where('fleet_id', '=', t.demo.otherFleetId)
          .executeTakeFirstOrThrow();
        // Another fleet's record is not found; a member without the right is refused.
        expect((await admin.delete(`/api/${kind}/${other.id}`)).status).toBe(404);
        const mine = (await admin.post(`${base}/${kind}`, { n: 'Mine' })).body;
        expect((await mechanic.delete(`/api/${kind}/${mine.id}`)).status).toBe(403);
        expect((await outsider.delete(`/api/${kind}/${mine.id}`)).status).toBe(404);
        expect(
          await db().selectFrom(kind).select('id').where('id', 'in', [other.id, mine.id]).execute(),
        ).toHaveLength(2);
      });
    });
  }
});
