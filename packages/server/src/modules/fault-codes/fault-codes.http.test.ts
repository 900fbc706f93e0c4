import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { eventsSince, outboxMark } from '../../test/domain-events.js';
import { EventsClient } from '../../test/events-client.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/** A Traccar forwarding body of a unit with its `dtcs` attribute (telematics/traccar.ts). */
function forwardBody(uniqueId: string, time: number, dtcs?: string) {
  const iso = new Date(time * 1000).toISOString();
  return {
    position: {
      fixTime: iso,
      deviceTime: iso,
      latitude: 53.9,
      longitude: 27.56,
      speed: 0,
      course: 0,
      attributes: dtcs === undefined ? { sat: 9 } : { sat: 9, dtcs },
    },
    device: { uniqueId },
  };
}

describe('fault codes (DTC) of a unit', () => {
  let t: TestServer;
  let manager: Client;
  let viewer: Client;
  let outsider: Client;
  let clock: number;
  let unitId: number;
  const tick = () => ++clock;
  const send = async (time: number, dtcs?: string) => {
    const res = await t.anon.post('/api/ingest/traccar', forwardBody('demo-006', time, dtcs));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  };
  const url = () => `/api/fleets/${t.demo.fleetId}/units/${unitId}/fault-codes`;
  const codes = async (client = manager) => {
    const res = await client.get(url());
    expect(res.status).toBe(200);
    return res.body.codes as any[];
  };

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    viewer = await t.login('viewer');
    outsider = await t.login('outsider');
    clock = now();
    const unit = await t.server.ctx.db.kysely
      .selectFrom('units')
      .select('id')
      .where('device_id', '=', 'demo-006')
      .executeTakeFirstOrThrow();
    unitId = unit.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the codes of a reading, with first and last seen, count, and a domain event per new code', async () => {
    expect(await codes()).toEqual([]);
    const mark = await outboxMark(t.server.ctx.db.kysely);
    const events = await EventsClient.connect(t.url, manager.ssid);
    const first = tick();
    await send(first, 'P0300 p0171');
    await events.next((e) => e.s === 'faultcode' && (e.d as any).unitId === unitId);
    events.close();

    const list = await codes();
    expect(list.map((c) => c.code).sort()).toEqual(['P0171', 'P0300']);
    expect(list[0]).toMatchObject({ fs: first, ls: first, n: 1, ca: null, cb: null });

    const opened = await eventsSince(t.server.ctx.db.kysely, mark, ['unit.faultCode']);
    expect(opened.map((e: any) => [e.code, e.reopened, e.unitId, e.fid]).sort()).toEqual([
      ['P0171', false, unitId, t.demo.fleetId],
      ['P0300', false, unitId, t.demo.fleetId],
    ]);
  });

  it('counts a code seen again, without a new domain event; a reading without dtcs changes nothing', async () => {
    const mark = await outboxMark(t.server.ctx.db.kysely);
    const again = tick();
    await send(again, 'P0300');
    await send(tick());
    const p0300 = (await codes()).find((c) => c.code === 'P0300');
    expect(p0300).toMatchObject({ n: 2, ls: again, ca: null });
    expect(p0300.fs).toBeLessThan(again);
    expect(await eventsSince(t.server.ctx.db.kysely, mark, ['unit.faultCode'])).toEqual([]);
  });

  it('lets a manager clear a code; seen again after that, it reopens and the count goes on', async () => {
    const p0300 = (await codes()).find((c) => c.code === 'P0300');
    const refused = await viewer.post(`${url()}/${p0300.id}/clear`, {});
    expect(refused.status).toBe(403);

    const res = await manager.post(`${url()}/${p0300.id}/clear`, {});
    expect(res.status).toBe(200);
    expect(res.body.code).toMatchObject({ id: p0300.id, code: 'P0300', n: 2 });
    expect(res.body.code.ca).toBeGreaterThan(0);
    expect(res.body.code.cb).toMatchObject({ nm: expect.any(String) });
    // Active codes come first.
    expect((await codes()).map((c) => c.code)).toEqual(['P0171', 'P0300']);
    // A second clear changes nothing.
    const twice = await manager.post(`${url()}/${p0300.id}/clear`, {});
    expect(twice.body.code.ca).toBe(res.body.code.ca);

    const mark = await outboxMark(t.server.ctx.db.kysely);
    const seen = Math.max(tick(), res.body.code.ca + 1);
    clock = seen;
    await send(seen, 'P0300');
    const reopened = (await codes()).find((c) => c.code === 'P0300');
    expect(reopened).toMatchObject({ n: 3, ls: seen, ca: null, cb: null });
    const events = await eventsSince(t.server.ctx.db.kysely, mark, ['unit.faultCode']);
    expect(events).toEqual([
      expect.objectContaining({ code: 'P0300', reopened: true, count: 3, faultCodeId: p0300.id }),
    ]);
  });

  it('shows a fleet its own units’ codes only', async () => {
    const res = await outsider.get(url());
    expect(res.status).toBe(403);
    const own = await outsider.get(`/api/fleets/${t.demo.otherFleetId}/units/${unitId}/fault-codes`);
    expect(own.status).toBe(404);
    const p0171 = (await codes()).find((c) => c.code === 'P0171');
    const clear = await outsider.post(
      `/api/fleets/${t.demo.otherFleetId}/units/${unitId}/fault-codes/${p0171.id}/clear`,
      {},
    );
    expect(clear.status).toBe(404);
  });

  it('answers 404 for a code of another unit of the fleet', async () => {
    const p0171 = (await codes()).find((c) => c.code === 'P0171');
    const other = await t.server.ctx.db.kysely
      .selectFrom('units')
      .select('id')
      .where('device_id', '=', 'demo-007')
      .executeTakeFirstOrThrow();
    const res = await manager.post(
      `/api/fleets/${t.demo.fleetId}/units/${other.id}/fault-codes/${p0171.id}/clear`,
      {},
    );
    expect(res.status).toBe(404);
  });

  it('keeps the fleet’s critical codes (codes or prefixes) and marks the unit’s codes by them', async () => {
    const critical = `/api/fleets/${t.demo.fleetId}/critical-fault-codes`;
    expect((await viewer.get(critical)).body).toEqual({ codes: [] });
    expect((await codes()).every((c) => c.crit === false)).toBe(true);

    const bad = await manager.put(critical, { codes: ['P03', 'not a code'] });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'body.codes.1', message: 'letters, digits, - and _ only' }]);
    expect((await viewer.put(critical, { codes: ['P03'] })).status).toBe(403);

    const res = await manager.put(critical, { codes: [' p03 ', 'P03', 'c1234'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ codes: ['P03', 'C1234'] });
    expect((await viewer.get(critical)).body).toEqual({ codes: ['P03', 'C1234'] });
    const marked = Object.fromEntries((await codes()).map((c) => [c.code, c.crit]));
    expect(marked).toEqual({ P0300: true, P0171: false });
    // Another fleet's list is its own.
    expect((await outsider.get(`/api/fleets/${t.demo.otherFleetId}/critical-fault-codes`)).body).toEqual({
      codes: [],
    });
    expect((await outsider.get(critical)).status).toBe(403);
  });
});
