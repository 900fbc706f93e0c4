import { DomainEventType } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { dayEnd } from '../../modules/statistics/counter-days.js';
import type { LiveUnit } from '../live-unit.js';
import type { Reading } from '../reading.js';
import { Reason } from '../rules.js';
import { ACCESS_DENIED, ACCOUNT_SUSPENDED, decideGroup, UNKNOWN_DEVICE } from './decide.js';
import { planGroup, shiftCandidates } from './plan.js';

/** The decide and plan steps without a database: verdicts and write plans as values. */

const T0 = 1_700_006_400; // a UTC midnight
const DAY = 86_400;

const unit = (over: Partial<LiveUnit> = {}): LiveUnit => ({
  id: 7,
  fleetId: 1,
  deviceId: 'dev7',
  base: { mileage: 0, engineHours: 0 },
  fleetAccountId: 1,
  dailyMaxKm: null,
  tz: 0,
  state: {
    lastTime: T0 + 3600,
    lastMs: (T0 + 3600) * 1000,
    lat: 50,
    lon: 10,
    ignition: false,
    mileage: 1000,
    engineHours: 100,
    odometerSet: true,
    hoursSet: true,
  },
  speed: null,
  course: null,
  altitude: null,
  params: { a: 1 },
  counterDay: T0,
  counterDayEnd: dayEnd(0, T0),
  offset: { mileage: 0, engineHours: 0 },
  ...over,
});

const reading = (over: Partial<Reading> = {}): Reading => ({
  deviceId: 'dev7',
  time: T0 + 7200,
  lat: 50,
  lon: 10,
  speed: 10,
  course: 90,
  altitude: 200,
  ignition: true,
  odometerKm: 1010,
  hours: null,
  params: { b: 2 },
  ...over,
});

const byDevice = (...units: LiveUnit[]) => new Map(units.map((u) => [u.deviceId, u]));
const open = { isActive: () => true };
const now = T0 + 2 * DAY;

describe('decideGroup', () => {
  it('gives each reading a verdict, in order, against the state the group left', () => {
    const u = unit();
    const verdicts = decideGroup(
      byDevice(u),
      [
        reading({ deviceId: 'nobody' }),
        reading({ odometerKm: 1005 }),
        reading({ odometerKm: 1005 }), // the same message again
        reading({ time: T0 + 7100, odometerKm: 1006 }), // older than the one taken
        reading({ time: T0 + 7300, odometerKm: 1001 }), // below the one taken
      ],
      now,
      open,
    );
    expect(verdicts.map((v) => v.kind)).toEqual(['unknown', 'accepted', 'duplicate', 'refused', 'refused']);
    expect(verdicts[3]).toMatchObject({ reason: Reason.outOfOrder });
    expect(verdicts[4]).toMatchObject({ reason: Reason.odometerBackwards, mileage: 1001 });
    // The snapshot is not changed: the plan starts from it again.
    expect(u.state.mileage).toBe(1000);
  });

  it('refuses the readings of a suspended account and of a fleet the caller may not write', () => {
    const u = unit();
    const suspended = decideGroup(byDevice(u), [reading()], now, { isActive: () => false });
    expect(suspended[0]!.kind).toBe('suspended');
    const denied = decideGroup(byDevice(u), [reading()], now, { ...open, allowFleet: (f) => f === 2 });
    expect(denied[0]!.kind).toBe('denied');
    const plan = planGroup([u], [...suspended, ...denied], { t: now, assigned: new Set() });
    expect(plan.outcomes).toEqual([
      { status: 'suspended', unitId: 7, reason: ACCOUNT_SUSPENDED },
      { status: 'denied', unitId: 7, reason: ACCESS_DENIED },
    ]);
    // A suspended account's reading is logged; a denied one leaves nothing.
    expect(plan.writes.log).toMatchObject([{ unit_id: 7, reason: ACCOUNT_SUSPENDED }]);
    expect(plan.writes.positions).toEqual([]);
  });
});

describe('planGroup', () => {
  it('plans positions, one update and one event per unit, the refusals and the unknown devices', () => {
    const u = unit();
    const readings = [
      reading({ deviceId: 'nobody' }),
      reading({ odometerKm: 1005 }),
      reading({ time: T0 + 7260, odometerKm: 1009, params: { c: 3 } }),
      reading({ time: T0 + 7300, odometerKm: 900 }),
    ];
    const verdicts = decideGroup(byDevice(u), readings, now, open);
    const plan = planGroup([u], verdicts, { t: now, source: 'teltonika', assigned: new Set() });
    const { writes } = plan;
    expect(plan.outcomes).toEqual([
      { status: 'unknown', reason: UNKNOWN_DEVICE },
      { status: 'accepted', unitId: 7, countersChanged: true },
      { status: 'accepted', unitId: 7, countersChanged: true },
      { status: 'rejected', unitId: 7, reason: Reason.odometerBackwards },
    ]);
    expect(writes.log).toMatchObject([{ device_id: 'nobody', unit_id: null, reason: UNKNOWN_DEVICE }]);
    expect(writes.positions.map((p) => [p.tm, p.mileage])).toEqual([
      [T0 + 7200, 1005],
      [T0 + 7260, 1009],
    ]);
    // Same day as the unit's latest: no day sample, no counter history row; the refusal is kept.
    expect(writes.meter).toMatchObject([
      { unit_id: 7, status: 'refused', reason: Reason.odometerBackwards, mileage: 900, source: 'teltonika' },
    ]);
    expect(writes.counterDays).toEqual([]);
    expect(writes.baselined).toEqual([]);
    expect(writes.live).toHaveLength(1);
    expect(writes.live[0]![0]).toBe(7);
    expect(writes.events).toMatchObject([
      { type: DomainEventType.countersChanged, unitId: 7, mileage: 1009 },
    ]);
    expect(plan.recorded).toEqual([DomainEventType.countersChanged]);
    expect(plan.changed).toEqual([7]);
    expect(plan.messages).toMatchObject([
      { t: 'e', s: 'avl_unit', fid: 1, d: { id: 7, cnm: 1009, lmsg: { p: { a: 1, b: 2, c: 3 } } } },
    ]);
    // Pure: the snapshot keeps its values.
    expect(u.params).toEqual({ a: 1 });
  });

  it('opens a new day: the finished day and the new one in the counter history, one day sample', () => {
    const u = unit();
    const next = T0 + DAY + 600;
    const verdicts = decideGroup(
      byDevice(u),
      [reading({ time: next, odometerKm: 1100 }), reading({ time: next + 60, odometerKm: 1101 })],
      now,
      open,
    );
    const { writes } = planGroup([u], verdicts, { t: now, assigned: new Set() });
    expect(writes.counterDays).toEqual([
      {
        unit_id: 7,
        day: T0,
        first_mileage: 1000,
        last_mileage: 1000,
        first_engine_hours: 100,
        last_engine_hours: 100,
      },
      {
        unit_id: 7,
        day: T0 + DAY,
        first_mileage: 1100,
        last_mileage: 1100,
        first_engine_hours: 100,
        last_engine_hours: 100,
      },
    ]);
    expect(writes.meter).toMatchObject([{ status: 'accepted', tm_ms: next * 1000, mileage: 1100 }]);
    // The unit's live columns carry its new day.
    const columns = writes.live[0]!;
    expect(columns).toContain(T0 + DAY);
    expect(columns).toContain(dayEnd(0, T0 + DAY));
  });

  it("plans a new device's baseline: base and corrections move, the interval move is recorded pending", () => {
    const u = unit({ state: { ...unit().state, odometerSet: false } });
    const verdicts = decideGroup(byDevice(u), [reading({ odometerKm: 250_000 })], now, open);
    expect(shiftCandidates(verdicts)).toEqual([{ id: 7, fleetId: 1 }]);
    const step = 250_000 - 1000;

    const without = planGroup([u], verdicts, { t: now, assigned: new Set() });
    expect(without.shifted).toEqual([]);
    expect(without.writes.meter).toMatchObject([
      { status: 'baseline', shift_pending: 0, shift_mileage: null },
    ]);

    const plan = planGroup([u], verdicts, { t: now, assigned: new Set([7]) });
    expect(plan.shifted).toEqual([7]);
    expect(plan.writes.meter).toMatchObject([
      {
        status: 'baseline',
        mileage: 250_000,
        old_mileage: 1000,
        engine_hours: null,
        shift_mileage: step,
        shift_engine_hours: null,
        shift_pending: 1,
      },
    ]);
    // Written on its own with its base, corrections and baseline device; not in the many-unit update.
    expect(plan.writes.live).toEqual([]);
    expect(plan.writes.baselined).toMatchObject([
      {
        id: 7,
        values: {
          mileage: 250_000,
          base_mileage: step,
          counter_off_mileage: step,
          meter_odo_device: 'dev7',
          meter_hours_device: 'dev7',
        },
      },
    ]);
    expect(plan.changed).toEqual([7]);
  });

  it('takes a duplicate as accepted without writing anything', () => {
    const u = unit();
    const last = reading({ time: T0 + 3600, odometerKm: 1000, ignition: false });
    const verdicts = decideGroup(byDevice(u), [last], now, open);
    const plan = planGroup([u], verdicts, { t: now, assigned: new Set() });
    expect(plan.outcomes).toEqual([{ status: 'accepted', unitId: 7, countersChanged: false }]);
    expect(plan.writes).toMatchObject({ positions: [], live: [], meter: [], log: [], events: [] });
    expect(plan.messages).toEqual([]);
  });
});
