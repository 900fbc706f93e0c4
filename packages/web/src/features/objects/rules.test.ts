import { INTERVAL_RULES_OFF } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { MAX_UNIT_TYPES, UNKNOWN_TYPE } from '../../lib/unitTypes.ts';
import {
  assignedIntervals,
  closedCost,
  compareNames,
  costPerDistance,
  decodeFilters,
  decodePeriod,
  encodeFilters,
  filterObjects,
  type ObjectInterval,
  type ObjectRow,
  type ObjectService,
  periodRange,
  personRow,
  plateSearchText,
  remainingValues,
  selectionEntries,
  sortByName,
  stateOf,
  unitRow,
} from './rules.ts';

const DAY = 86400;
// 2026-03-10 12:00 UTC.
const NOW = Date.UTC(2026, 2, 10, 12) / 1000;

const rule = (over: Partial<ObjectInterval> = {}): ObjectInterval => ({
  id: 1,
  n: 'Oil',
  u: [],
  ...INTERVAL_RULES_OFF,
  ...over,
});

const rows: ObjectRow[] = [
  unitRow({
    id: 1,
    nm: 'Truck 10',
    ut: 3,
    cnm: 100,
    cneh: 5,
    ins: 1,
    vp: {
      vin: '1M8GDM9AXKP042788',
      mk: '',
      md: '',
      yr: null,
      pl: 'B-XY 123',
      ft: '',
      tc: null,
      tu: null,
      tg: ['North', 'Vans'],
      nt: '',
    },
  }),
  unitRow({ id: 2, nm: 'truck 2', ut: null, cnm: 0, cneh: 0, ins: 0 }),
  unitRow({ id: 3, nm: 'Van', ut: 7, cnm: 0, cneh: 0, ins: 0 }),
  personRow({ id: 1, n: 'Anna', ins: 0 }, 'd'),
  personRow({ id: 4, n: 'Krone 01', ins: 1 }, 't'),
];

describe('names and states', () => {
  it('sorts names naturally and case-insensitively', () => {
    expect(sortByName(rows).map((r) => r.name)).toEqual(['Anna', 'Krone 01', 'truck 2', 'Truck 10', 'Van']);
    expect(compareNames('unit 2', 'Unit 10')).toBeLessThan(0);
    expect(compareNames('ABC', 'abc')).toBe(0);
  });

  it('labels an object Active without an in-progress service, else In service (spec §4)', () => {
    expect(stateOf(rows[0] as ObjectRow)).toBe('inService');
    expect(stateOf(rows[1] as ObjectRow)).toBe('active');
    expect(stateOf(rows[4] as ObjectRow)).toBe('inService');
  });

  it('gives drivers and trailers no counters', () => {
    expect(rows[3]).toMatchObject({ t: 'd', mileage: null, engineHours: null, ut: undefined });
    expect(rows[0]).toMatchObject({ t: 'u', mileage: 100, engineHours: 5 });
  });
});

describe('filters', () => {
  it('round-trips through the URL and keeps other parameters', () => {
    const base = new URLSearchParams('q=truck&sort=name.asc');
    const next = encodeFilters(base, { kind: 'u', unitTypes: [3, UNKNOWN_TYPE], tag: null });
    expect(next.get('q')).toBe('truck');
    expect(next.get('kind')).toBe('u');
    expect(next.get('ut')).toBe('3,none');
    expect(decodeFilters(next)).toEqual({ kind: 'u', unitTypes: [3, UNKNOWN_TYPE], tag: null });
    const cleared = encodeFilters(next, { kind: null, unitTypes: [], tag: null });
    expect(cleared.has('kind')).toBe(false);
    expect(cleared.has('ut')).toBe(false);
  });

  it('drops bad values and keeps at most five types', () => {
    expect(decodeFilters(new URLSearchParams('kind=x&ut=1,a,2,2,-3,none,4,5,6,7'))).toEqual({
      kind: null,
      unitTypes: [1, 2, UNKNOWN_TYPE, 4, 5],
      tag: null,
    });
    expect(
      encodeFilters(new URLSearchParams(), { kind: null, unitTypes: [1, 2, 3, 4, 5, 6], tag: null }).get(
        'ut',
      ),
    ).toBe('1,2,3,4,5');
    expect(MAX_UNIT_TYPES).toBe(5);
  });

  it('filters by kind and by unit type (types list units only; none means no type)', () => {
    expect(filterObjects(rows, { kind: 'd', unitTypes: [], tag: null }).map((r) => r.key)).toEqual(['d1']);
    expect(filterObjects(rows, { kind: null, unitTypes: [3], tag: null }).map((r) => r.key)).toEqual(['u1']);
    expect(
      filterObjects(rows, { kind: null, unitTypes: [UNKNOWN_TYPE, 7], tag: null }).map((r) => r.key),
    ).toEqual(['u2', 'u3']);
    expect(filterObjects(rows, { kind: 't', unitTypes: [3], tag: null })).toEqual([]);
    expect(filterObjects(rows, { kind: null, unitTypes: [], tag: null })).toHaveLength(5);
  });

  it('filters by tag, ignoring case; drivers and trailers carry none (docs/product.md "The vehicle profile")', () => {
    expect(filterObjects(rows, { kind: null, unitTypes: [], tag: 'vans' }).map((r) => r.key)).toEqual(['u1']);
    expect(filterObjects(rows, { kind: null, unitTypes: [], tag: 'South' })).toEqual([]);
    const next = encodeFilters(new URLSearchParams(), { kind: null, unitTypes: [], tag: 'North' });
    expect(next.get('tag')).toBe('North');
    expect(decodeFilters(next).tag).toBe('North');
  });

  it('searches plate and VIN, with and without spaces and dashes', () => {
    const text = plateSearchText(rows.find((r) => r.key === 'u1')!);
    expect(text).toContain('B-XY 123');
    expect(text).toContain('BXY123');
    expect(text).toContain('1M8GDM9AXKP042788');
  });

  it('turns selected row keys into navigation state entries', () => {
    expect(selectionEntries(['u12', 'd3', 't7', 'x1', 'u', 'u0'])).toEqual([
      { id: 12, t: 'u' },
      { id: 3, t: 'd' },
      { id: 7, t: 't' },
    ]);
  });
});

describe('costs', () => {
  it('divides by the distance in the fleet unit; null when the distance is 0', () => {
    expect(costPerDistance(500, 1000, false)).toBe(0.5);
    expect(costPerDistance(500, 1609.344, true)).toBeCloseTo(0.5, 10);
    expect(costPerDistance(500, 0, false)).toBeNull();
    expect(costPerDistance(500, null, false)).toBeNull();
  });

  it('sums closed services exactly and ignores rejected and open ones', () => {
    const s = (f: number, total_cost: number): ObjectService => ({
      id: 1,
      uid: 1,
      t: 'u',
      f,
      n: 'x',
      ivid: null,
      limit_date: null,
      start_date: null,
      end_date: null,
      total_cost,
    });
    expect(closedCost([s(8, 0.1), s(8, 0.2), s(16, 100), s(2, 50)])).toBe(0.3);
    expect(closedCost([])).toBe(0);
  });

  it('covers whole fleet days of a period, both ends included', () => {
    expect(periodRange('week', 0, NOW)).toEqual({ from: '2026-03-04', to: '2026-03-10' });
    expect(periodRange('year', 0, NOW).from).toBe('2025-03-11');
    // UTC+3 (180 minutes): 23:00 UTC is already the next local day.
    expect(periodRange('week', 180, Date.UTC(2026, 2, 10, 23) / 1000).to).toBe('2026-03-11');
    expect(decodePeriod('quarter')).toBe('quarter');
    expect(decodePeriod('bogus')).toBe('year');
    expect(decodePeriod(null)).toBe('year');
  });
});

describe('remaining values (spec §9)', () => {
  const base = { ivid: 1, lcnm: 10_000, lceh: 100, ltm: NOW - 20 * DAY, cnt: 2 };

  it('is last + step − current, in km or miles, with overdue past the threshold', () => {
    const iv = rule({ cnme: 1, cnmd: 15_000, cnehe: 1, cnehd: 50 });
    expect(remainingValues(iv, base, { mileage: 20_000, engineHours: 120 }, false, NOW, 0)).toEqual([
      { kind: 'mileage', amount: 5_000, overdue: false },
      { kind: 'engineHours', amount: 30, overdue: false },
    ]);
    const over = remainingValues(iv, base, { mileage: 26_609.344, engineHours: 160 }, true, NOW, 0);
    expect(over[0]?.overdue).toBe(true);
    expect(over[0]?.amount).toBeCloseTo(1000, 6);
    expect(over[1]).toEqual({ kind: 'engineHours', amount: 10, overdue: true });
  });

  it('counts days to the due date; drivers and trailers have only the time rule', () => {
    const iv = rule({ cnme: 1, cnmd: 1000, de: 1, dd: 30, du: 'd' });
    expect(remainingValues(iv, base, { mileage: null, engineHours: null }, false, NOW, 0)).toEqual([
      { kind: 'days', amount: 10, overdue: false },
    ]);
    const late = { ...base, ltm: NOW - 33 * DAY };
    expect(remainingValues(iv, late, { mileage: null, engineHours: null }, false, NOW, 0)).toEqual([
      { kind: 'days', amount: 3, overdue: true },
    ]);
  });

  it('is not overdue exactly at the threshold', () => {
    const iv = rule({ cnme: 1, cnmd: 1000 });
    expect(remainingValues(iv, base, { mileage: 11_000, engineHours: 0 }, false, NOW, 0)).toEqual([
      { kind: 'mileage', amount: 0, overdue: false },
    ]);
  });

  it('joins bases with their intervals in natural order, skipping unknown intervals', () => {
    const ivs = [rule({ id: 1, n: 'Check 10' }), rule({ id: 2, n: 'check 9' })];
    const joined = assignedIntervals(ivs, [
      { ivid: 1, lcnm: 0, lceh: 0, ltm: 0, cnt: 0 },
      { ivid: 2, lcnm: 0, lceh: 0, ltm: 0, cnt: 0 },
      { ivid: 99, lcnm: 0, lceh: 0, ltm: 0, cnt: 0 },
    ]);
    expect(joined.map((j) => j.interval.n)).toEqual(['check 9', 'Check 10']);
  });
});
