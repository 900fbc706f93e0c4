import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import { accountOf, createUnit, startTestServer, type TestServer } from '../test/harness.js';
import { ingestPacket, ingestReading } from './ingest.js';
import { startOsmandServer } from './osmand-server.js';
import type { Reading } from './reading.js';
import { Reason } from './rules.js';
import { type IngestOutcome, UNKNOWN_DEVICE } from './store.js';

/**
 * Group commit (telematics/ingest.ts): readings that arrive together are written in one
 * transaction, yet each is decided as if it had come alone, in arrival order, and each acknowledged
 * reading is stored exactly once.
 */

const reading = (deviceId: string, time: number, fields: Partial<Reading> = {}): Reading => ({
  deviceId,
  time,
  lat: 53.9,
  lon: 27.5,
  speed: null,
  course: null,
  altitude: null,
  ignition: null,
  odometerKm: null,
  hours: null,
  params: {},
  ...fields,
});

/**
 * Readings of four units and an unknown device, interleaved: baselines, moves, an out-of-order one, a
 * backwards odometer, a jump, one from the future, several of one unit in a row; two units (b, d) move
 * without a baseline, so that one statement updates both.
 */
function script(devices: string[], t0: number, at: number): Reading[] {
  const [a, b, c, d] = devices as [string, string, string, string];
  return [
    reading(d, t0 + 1, { lat: 53.8, ignition: true }),
    reading(a, t0 + 1, { odometerKm: 1000, ignition: true }),
    reading(b, t0 + 1),
    reading(a, t0 + 2, { odometerKm: 1005, ignition: true, params: { fuel: 40 } }),
    reading(c, t0 + 1, { hours: 150, ignition: true }),
    reading('ghost-group-commit', t0 + 1),
    reading(a, t0 + 1, { odometerKm: 1007 }),
    reading(b, t0 + 2, { lat: 53.91 }),
    reading(a, t0 + 3, { odometerKm: 1003 }),
    reading(c, t0 + 2, { hours: 150.001, ignition: true }),
    reading(b, t0 + 3, { lat: 0, lon: 0 }),
    reading(a, t0 + 4, { odometerKm: 1006, params: { fuel: 39 } }),
    reading(b, at + 3600, { lat: 53.92 }),
    reading(c, t0 + 3, { lat: 53.95, ignition: false }),
    reading(b, t0 + 4, { lat: 53.92 }),
    reading(d, t0 + 2, { lat: 53.81, ignition: true, params: { batt: 90 } }),
  ];
}

/** The outcomes of the script above, in order (unit index or none). */
const EXPECTED: [string, number | null, string?][] = [
  ['accepted', 3],
  ['accepted', 0],
  ['accepted', 1],
  ['accepted', 0],
  ['accepted', 2],
  ['unknown', null, UNKNOWN_DEVICE],
  ['rejected', 0, Reason.outOfOrder],
  ['accepted', 1],
  ['rejected', 0, Reason.odometerBackwards],
  ['accepted', 2],
  ['rejected', 1, Reason.mileageJump],
  ['accepted', 0],
  ['rejected', 1, Reason.future],
  ['accepted', 2],
  ['accepted', 1],
  ['accepted', 3],
];

describe('group commit of concurrent readings', () => {
  let t: TestServer;
  let accountId: number;

  beforeAll(async () => {
    t = await startTestServer();
    accountId = await accountOf(t, 'manager');
  });
  afterAll(() => t?.close());

  /** Fresh units of the demo fleet, alike (no message yet, same counters); their ids and device ids. */
  async function freshUnits(n: number, name: string) {
    const ids: number[] = [];
    for (let i = 0; i < n; i++)
      ids.push(await createUnit(t, { accountId, fleetId: t.demo.fleetId, name: `${name} ${i}` }));
    const rows = await t.server.ctx.db.kysely
      .selectFrom('units')
      .select(['id', 'device_id'])
      .where('id', 'in', ids)
      .execute();
    const deviceOf = new Map(rows.map((r) => [r.id, r.device_id]));
    return { ids, devices: ids.map((id) => deviceOf.get(id)!) };
  }

  /** Everything ingestion wrote for the units, with unit ids replaced by their index. */
  async function storedFor(ids: number[]) {
    const db = t.server.ctx.db.kysely;
    const index = (id: number | null) => (id === null ? null : ids.indexOf(id));
    const units = await db
      .selectFrom('units')
      .select([
        'id',
        'last_time',
        'last_ms',
        'lat',
        'lon',
        'ignition',
        'mileage',
        'engine_hours',
        'base_mileage',
        'base_engine_hours',
        'params',
        'counter_day',
        'meter_odo_device',
        'meter_hours_device',
      ])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    const positions = await db
      .selectFrom('positions')
      .select(['unit_id', 'tm', 'lat', 'lon', 'ignition', 'mileage', 'engine_hours'])
      .where('unit_id', 'in', ids)
      .orderBy('unit_id')
      .orderBy('tm')
      .execute();
    const meter = await db
      .selectFrom('meter_readings')
      .select(['unit_id', 'tm_ms', 'status', 'reason', 'mileage', 'engine_hours'])
      .where('unit_id', 'in', ids)
      .orderBy('unit_id')
      .orderBy('id')
      .execute();
    return {
      units: units.map(({ id, meter_odo_device, meter_hours_device, ...u }) => ({
        ...u,
        unit: index(id),
        odometerSet: meter_odo_device !== null,
        hoursSet: meter_hours_device !== null,
      })),
      positions: positions.map((p) => ({ ...p, unit_id: index(p.unit_id) })),
      meter: meter.map((m) => ({ ...m, unit_id: index(m.unit_id) })),
    };
  }

  const summary = (outcomes: IngestOutcome[], ids: number[]) =>
    outcomes.map((o) => [
      o.status,
      'unitId' in o ? ids.indexOf(o.unitId) : null,
      ...('reason' in o ? [o.reason] : []),
    ]);

  it('decides readings that arrive together exactly as readings that arrive one by one', async () => {
    const at = now();
    const t0 = at - 600;
    const one = await freshUnits(4, 'one by one');
    const together = await freshUnits(4, 'together');

    const sequential: IngestOutcome[] = [];
    for (const r of script(one.devices, t0, at)) sequential.push(await ingestReading(t.server.ctx, r, at));
    // Submitted in one event-loop turn: one group, in this order.
    const grouped = await Promise.all(
      script(together.devices, t0, at).map((r) => ingestReading(t.server.ctx, r, at)),
    );

    expect(summary(sequential, one.ids)).toEqual(EXPECTED);
    expect(summary(grouped, together.ids)).toEqual(EXPECTED);
    const expected = await storedFor(one.ids);
    expect(expected.positions).toHaveLength(EXPECTED.filter(([s]) => s === 'accepted').length);
    expect(await storedFor(together.ids)).toEqual(expected);
    const ghosts = await t.server.ctx.db.kysely
      .selectFrom('ingest_log')
      .select('reason')
      .where('device_id', '=', 'ghost-group-commit')
      .execute();
    expect(ghosts).toEqual([{ reason: UNKNOWN_DEVICE }, { reason: UNKNOWN_DEVICE }]);
  });

  it('fails a reading the database refuses alone, and stores the rest of its group once', async () => {
    const at = now();
    const t0 = at - 600;
    const { ids, devices } = await freshUnits(3, 'poisoned');
    const [a, b, c] = devices as [string, string, string];
    const readings = [
      reading(a, t0 + 1),
      reading(b, t0 + 1),
      // No time the database can store: the transaction of its group fails.
      reading(c, Number.NaN),
      reading(a, t0 + 2, { lat: 53.91 }),
      reading(b, t0),
      reading(c, t0 + 5),
    ];
    const results = await Promise.allSettled(readings.map((r) => ingestReading(t.server.ctx, r, at)));
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const outcomes = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(summary(outcomes, ids)).toEqual([
      ['accepted', 0],
      ['accepted', 1],
      ['accepted', 0],
      ['rejected', 1, Reason.outOfOrder],
      ['accepted', 2],
    ]);
    const { positions, units } = await storedFor(ids);
    expect(positions.map((p) => [p.unit_id, p.tm])).toEqual([
      [0, t0 + 1],
      [0, t0 + 2],
      [1, t0 + 1],
      [2, t0 + 5],
    ]);
    expect(units.map((u) => u.last_time)).toEqual([t0 + 2, t0 + 1, t0 + 5]);
  });

  it("answers each tracker packet with its own readings' outcomes; a failing packet fails alone", async () => {
    const at = now();
    const t0 = at - 600;
    const { ids, devices } = await freshUnits(3, 'packets');
    const [a, b, c] = devices as [string, string, string];
    // Submitted in one event-loop turn: one group of three packets and a single reading between them.
    const results = await Promise.allSettled([
      ingestPacket(t.server.ctx, [reading(a, t0 + 1), reading(a, t0 + 2), reading(a, t0)], at),
      ingestReading(t.server.ctx, reading(b, t0 + 1), at).then((o) => [o]),
      // No time the database can store: its packet fails as a whole, the others are stored once.
      ingestPacket(t.server.ctx, [reading(c, t0 + 1), reading(c, Number.NaN)], at),
      ingestPacket(t.server.ctx, [reading(b, t0 + 3), reading('ghost-packet', t0 + 3)], at),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const answers = results.map((r) => (r.status === 'fulfilled' ? summary(r.value, ids) : null));
    expect(answers).toEqual([
      [
        ['accepted', 0],
        ['accepted', 0],
        ['rejected', 0, Reason.outOfOrder],
      ],
      [['accepted', 1]],
      null,
      [
        ['accepted', 1],
        ['unknown', null, UNKNOWN_DEVICE],
      ],
    ]);
    const { positions } = await storedFor(ids);
    expect(positions.map((p) => [p.unit_id, p.tm])).toEqual([
      [0, t0 + 1],
      [0, t0 + 2],
      [1, t0 + 1],
      [1, t0 + 3],
    ]);
    expect(await ingestPacket(t.server.ctx, [], at)).toEqual([]);
  });

  it("decides a device's readings in arrival order while groups are written side by side", async () => {
    const at = now();
    const t0 = at - 600;
    const { ids, devices } = await freshUnits(2, 'in order');
    const [a, b] = devices as [string, string];
    // One request per event-loop turn, without waiting for the answers: many groups, several in flight
    // at once on PostgreSQL; each device's readings must still apply oldest first.
    const pending: Promise<IngestOutcome[]>[] = [];
    for (let k = 1; k <= 30; k++) {
      pending.push(ingestPacket(t.server.ctx, [reading(a, t0 + k)], at));
      if (k % 3 === 0)
        pending.push(ingestPacket(t.server.ctx, [reading(b, t0 + 2 * k), reading(b, t0 + 2 * k + 1)], at));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const outcomes = (await Promise.all(pending)).flat();
    expect(outcomes.filter((o) => o.status !== 'accepted')).toEqual([]);
    const { positions } = await storedFor(ids);
    expect(positions.filter((p) => p.unit_id === 0)).toHaveLength(30);
    expect(positions.filter((p) => p.unit_id === 1)).toHaveLength(20);
  });

  it('stores every reading acknowledged over HTTP exactly once, when many arrive at once', async () => {
    const osmand = await startOsmandServer(t.server.ctx, 0, '127.0.0.1');
    try {
      const at = now();
      const t0 = at - 600;
      const { ids, devices } = await freshUnits(6, 'http burst');
      const urls: { device: string; time: number }[] = [];
      // Four readings per unit, a second apart, all sent at once (they may arrive in any order).
      for (let k = 1; k <= 4; k++) for (const device of devices) urls.push({ device, time: t0 + k });
      urls.push({ device: devices[0]!, time: at + 3600 }); // from the future: refused
      urls.push({ device: 'ghost-http-burst', time: t0 + 1 }); // unknown: refused
      const replies = await Promise.all(
        urls.map(async ({ device, time }) => {
          const res = await fetch(
            `http://127.0.0.1:${osmand.port}/?id=${device}&timestamp=${time}&lat=53.9&lon=27.5`,
          );
          return { device, time, status: res.status, body: (await res.json()) as { ok: boolean } };
        }),
      );
      expect(replies.every((r) => r.status === 200)).toBe(true);
      expect(replies.slice(-2).map((r) => r.body.ok)).toEqual([false, false]);
      // The first reading of each unit to arrive is accepted at least.
      const acknowledged = replies.filter((r) => r.body.ok);
      expect(acknowledged.length).toBeGreaterThanOrEqual(devices.length);

      const { positions, units } = await storedFor(ids);
      const stored = positions.map((p) => `${devices[p.unit_id!]}@${p.tm}`).sort();
      expect(stored).toEqual(acknowledged.map((r) => `${r.device}@${r.time}`).sort());
      // A unit's last message is its newest acknowledged reading.
      units.forEach((u, i) => {
        const times = acknowledged.filter((r) => r.device === devices[i]).map((r) => r.time);
        expect(u.last_time).toBe(Math.max(...times));
      });
    } finally {
      await osmand.close();
    }
  });
});
