import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * Parts and stock through the real server (docs/product.md "Parts and stock"): CRUD and the GET → PUT
 * round trip, adjustments and transfers with every move kept, the refusal below zero unless the fleet
 * allows it, two mechanics taking the last unit at once, purchase orders received with the moving
 * average cost, parts used on service and work-order lines (given back on edit and delete), the
 * low-stock event, and another fleet's records answering 404.
 */
describe('parts and stock', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let api: string;
  let n = 0;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
    api = `/api/fleets/${fx.fleetId}`;
  });
  afterAll(() => t?.close());

  async function ok(p: Promise<{ status: number; body: any }>) {
    const res = await p;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
  const location = (name: string, kind = 'store') =>
    ok(manager.post(`${api}/stock-locations`, { name, kind }));
  const part = (cost = 10) =>
    ok(manager.post(`${api}/parts`, { number: `P-${++n}`, name: `Filter ${n}`, unit: 'pcs', cost }));
  const adjust = (id: number, location_id: number, delta: number, client = manager) =>
    client.post(`${api}/parts/${id}/adjust`, { location_id, delta, reason: 'count' });
  const stockAt = async (id: number, loc: number) =>
    ((await ok(viewer.get(`${api}/parts/${id}`))).stock as { location_id: number; qty: number }[]).find(
      (s) => s.location_id === loc,
    )?.qty ?? 0;

  it('makes parts and locations; GET → PUT round trip; duplicate number 409; viewer reads only', async () => {
    const store = await location('Main store');
    const p = await part(12.5);
    expect(p).toMatchObject({ number: `P-${n}`, cost: 12.5, stock: [], on_hand: 0, value: 0, low: false });
    const put = await ok(manager.put(`${api}/parts/${p.id}`, p));
    expect({ ...put, updated: 0 }).toEqual({ ...p, updated: 0 });
    const dup = await manager.post(`${api}/parts`, { number: p.number, name: 'again' });
    expect(dup.status).toBe(409);
    expect((await viewer.post(`${api}/parts`, { number: 'V-1', name: 'no' })).status).toBe(403);
    expect(store).toMatchObject({ name: 'Main store', kind: 'store', parts: 0 });
    const list = await ok(viewer.get(`${api}/parts?q=${encodeURIComponent(p.number)}`));
    expect(list.parts.map((x: { id: number }) => x.id)).toContain(p.id);
  });

  it('adjusts and transfers, keeps every move, refuses below zero unless allowed', async () => {
    const a = await location('Workshop A', 'workshop');
    const van = await location('Van 1', 'van');
    const p = await part();
    await ok(adjust(p.id, a.id, 10));
    const moved = await ok(manager.post(`${api}/parts/${p.id}/transfer`, { from: a.id, to: van.id, qty: 4 }));
    expect(moved.on_hand).toBe(10);
    expect(await stockAt(p.id, a.id)).toBe(6);
    expect(await stockAt(p.id, van.id)).toBe(4);
    const refused = await adjust(p.id, van.id, -5);
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual([
      { id: p.id, kind: 'part', reason: 'insufficient_stock', value: '4' },
    ]);
    expect(await stockAt(p.id, van.id)).toBe(4);
    const moves = (await ok(viewer.get(`${api}/parts/${p.id}/moves`))).moves;
    expect(moves.map((m: { kind: string }) => m.kind)).toEqual(['transfer_in', 'transfer_out', 'adjust']);
    expect(moves[1]).toMatchObject({ qty: -4, before: 10, after: 6, by: { id: t.demo.users.manager } });
    expect(moves[2]).toMatchObject({ reason: 'count', qty: 10, before: 0, after: 10 });

    await ok(manager.put(`${api}/parts/settings`, { allow_negative_stock: true }));
    await ok(adjust(p.id, van.id, -5));
    expect(await stockAt(p.id, van.id)).toBe(-1);
    await ok(manager.put(`${api}/parts/settings`, { allow_negative_stock: false }));
    expect((await ok(viewer.get(`${api}/parts/settings`))).allow_negative_stock).toBe(false);
  });

  it('two mechanics taking the last unit at once: one succeeds, one is refused, never negative', async () => {
    const loc = await location('Race store');
    for (let round = 0; round < 5; round++) {
      const p = await part();
      await ok(adjust(p.id, loc.id, 1));
      const [x, y] = await Promise.all([
        adjust(p.id, loc.id, -1, mechanic),
        adjust(p.id, loc.id, -1, manager),
      ]);
      expect([x.status, y.status].sort()).toEqual([200, 409]);
      expect(await stockAt(p.id, loc.id)).toBe(0);
      const moves = (await ok(viewer.get(`${api}/parts/${p.id}/moves`))).moves;
      expect(moves).toHaveLength(2);
    }
  });

  it('receives a purchase order: stock grows, the average cost moves, statuses follow', async () => {
    const loc = await location('PO store');
    const p = await part(10);
    await ok(adjust(p.id, loc.id, 10));
    const po = await ok(
      manager.post(`${api}/purchase-orders`, {
        vendor: 'Parts Inc',
        location_id: loc.id,
        lines: [{ part_id: p.id, qty: 10, cost: 20 }],
      }),
    );
    expect(po).toMatchObject({ status: 'draft', total: 200 });
    const early = await manager.post(`${api}/purchase-orders/${po.id}/receive`, {
      location_id: loc.id,
      lines: [{ line_id: po.lines[0].id, qty: 1 }],
    });
    expect(early.status).toBe(409);
    const put = await ok(manager.put(`${api}/purchase-orders/${po.id}`, po));
    expect(put.lines).toHaveLength(1);
    const line = put.lines[0].id;
    await ok(manager.post(`${api}/purchase-orders/${po.id}/order`, {}));
    const half = await ok(
      manager.post(`${api}/purchase-orders/${po.id}/receive`, {
        location_id: loc.id,
        lines: [{ line_id: line, qty: 5 }],
      }),
    );
    expect(half).toMatchObject({ status: 'partly_received', lines: [{ received: 5 }] });
    // (10 × 10 + 5 × 20) / 15 = 13.333
    expect(await ok(viewer.get(`${api}/parts/${p.id}`))).toMatchObject({ on_hand: 15, cost: 13.333 });
    const over = await manager.post(`${api}/purchase-orders/${po.id}/receive`, {
      location_id: loc.id,
      lines: [{ line_id: line, qty: 6 }],
    });
    expect(over.status).toBe(409);
    const full = await ok(
      manager.post(`${api}/purchase-orders/${po.id}/receive`, {
        location_id: loc.id,
        lines: [{ line_id: line, qty: 5 }],
      }),
    );
    expect(full.status).toBe('received');
    // (15 × 13.333 + 5 × 20) / 20 = 15
    expect(await ok(viewer.get(`${api}/parts/${p.id}`))).toMatchObject({ on_hand: 20, cost: 15 });
    expect((await manager.post(`${api}/purchase-orders/${po.id}/cancel`, {})).status).toBe(409);
  });

  it('a service line takes the part; editing and deleting the service give it back', async () => {
    const loc = await location('Service store');
    const p = await part(8);
    await ok(adjust(p.id, loc.id, 5));
    const uid = await fx.unit();
    const svc = await ok(
      manager.post(`${api}/services`, {
        n: 'Oil',
        t: 'u',
        uid,
        f: 8,
        start_date: fx.iso(-1),
        end_date: fx.iso(-1),
        li: [{ n: p.name, t: 2, q: 2, c: 8, pid: p.id, slid: loc.id }],
      }),
    );
    expect(svc.li).toEqual([{ n: p.name, t: 2, q: 2, c: 8, pid: p.id, slid: loc.id }]);
    expect(await stockAt(p.id, loc.id)).toBe(3);
    const moves = (await ok(viewer.get(`${api}/parts/${p.id}/moves`))).moves;
    expect(moves[0]).toMatchObject({ kind: 'use', qty: -2, ref_type: 's', ref_id: svc.id });
    // Too many: refused, nothing written.
    const tooMany = await manager.put(`${api}/services/archived/${svc.id}`, {
      li: [{ n: p.name, t: 2, q: 6, c: 8, pid: p.id, slid: loc.id }],
    });
    expect(tooMany.status).toBe(409);
    expect(await stockAt(p.id, loc.id)).toBe(3);
    await ok(
      manager.put(`${api}/services/archived/${svc.id}`, {
        li: [{ n: p.name, t: 2, q: 1, c: 8, pid: p.id, slid: loc.id }],
      }),
    );
    expect(await stockAt(p.id, loc.id)).toBe(4);
    await ok(manager.delete(`${api}/services/archived/${svc.id}`));
    expect(await stockAt(p.id, loc.id)).toBe(5);
    // A part needs its location, and both are of this fleet.
    const bad = await manager.post(`${api}/services`, {
      n: 'x',
      t: 'u',
      uid,
      f: 1,
      li: [{ n: 'x', t: 2, q: 1, c: 1, pid: p.id }],
    });
    expect(bad.status).toBe(400);
  });

  it('a work-order line takes the part; deleting the work order gives it back', async () => {
    const loc = await location('WO store');
    const p = await part(8);
    await ok(adjust(p.id, loc.id, 5));
    const uid = await fx.unit();
    const wo = await ok(
      manager.post(`${api}/work-orders`, {
        object_type: 'u',
        object_id: uid,
        title: 'Pads',
        li: [{ n: p.name, t: 2, q: 3, c: 8, pid: p.id, slid: loc.id }],
      }),
    );
    expect(wo.li[0]).toMatchObject({ pid: p.id, slid: loc.id });
    expect(await stockAt(p.id, loc.id)).toBe(2);
    await ok(
      manager.put(`${api}/work-orders/${wo.id}`, {
        li: [{ n: p.name, t: 2, q: 4, c: 8, pid: p.id, slid: loc.id }],
      }),
    );
    expect(await stockAt(p.id, loc.id)).toBe(1);
    await ok(manager.delete(`${api}/work-orders/${wo.id}`));
    expect(await stockAt(p.id, loc.id)).toBe(5);
  });

  it('records part.lowStock when stock drops to its threshold from above', async () => {
    const loc = await location('Low store');
    const p = await part();
    await ok(manager.put(`${api}/parts/${p.id}/stock/${loc.id}`, { threshold: 2 }));
    await ok(adjust(p.id, loc.id, 5));
    await ok(adjust(p.id, loc.id, -2));
    const events = () =>
      t.server.ctx.db.kysely
        .selectFrom('domain_events')
        .select('payload')
        .where('type', '=', 'part.lowStock')
        .execute()
        .then((rows) => rows.map((r) => JSON.parse(String(r.payload))).filter((e) => e.partId === p.id));
    expect(await events()).toHaveLength(0);
    await ok(adjust(p.id, loc.id, -1));
    expect(await events()).toMatchObject([{ locationId: loc.id, qty: 2000, threshold: 2000 }]);
    await ok(adjust(p.id, loc.id, -1));
    expect(await events()).toHaveLength(1);
    expect((await ok(viewer.get(`${api}/parts?low=1`))).parts.map((x: { id: number }) => x.id)).toContain(
      p.id,
    );
  });

  it("another fleet's parts, locations and orders are invisible (404)", async () => {
    const other = `/api/fleets/${t.demo.otherFleetId}`;
    const db = t.server.ctx.db.kysely;
    const at = Math.floor(Date.now() / 1000);
    const { id } = await db
      .insertInto('parts')
      .values({
        fleet_id: t.demo.otherFleetId,
        number: 'X-1',
        name: 'Foreign',
        line_item_id: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await manager.get(`${api}/parts/${id}`)).status).toBe(404);
    expect((await manager.get(`${other}/parts/${id}`)).status).toBe(403);
    const list = await ok(manager.get(`${api}/parts?q=Foreign`));
    expect(list.total).toBe(0);
    const loc = await location('Mine');
    const svcUse = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: await fx.unit(),
      title: 'foreign part',
      li: [{ n: 'x', t: 2, q: 1, c: 1, pid: id, slid: loc.id }],
    });
    expect(svcUse.status).toBe(400);
  });
});
