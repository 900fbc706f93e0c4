import { INTERVAL_RULES_OFF, type IntervalAssignmentWire, type IntervalWire } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import {
  decodeFilters,
  encodeFilters,
  filterIntervals,
  frequencySummary,
  noticeSummary,
  type SummaryLabels,
} from './rules.ts';

const labels = (distance = 'km', lang = 'en'): SummaryLabels => ({
  lang,
  distance,
  engineHours: 'e.h.',
  time: (value, unit) => `${value} ${unit}`,
});

const unit = (id: number): IntervalAssignmentWire => ({ id, t: 'u', lcnm: 0, lceh: 0, ltm: 0, cnt: 0 });

function interval(patch: Partial<IntervalWire> = {}): IntervalWire {
  return {
    id: 1,
    n: 'Oil',
    description: '',
    ...INTERVAL_RULES_OFF,
    u: [],
    li: [],
    c: null,
    tm: 0,
    ...patch,
  };
}

const all = interval({
  cnme: 1,
  cnmd: 15000,
  cnmo: 1000,
  cnehe: 1,
  cnehd: 500,
  cneho: 20,
  de: 1,
  dd: 1,
  du: 'y',
  do: 30,
});

describe('frequencySummary / noticeSummary', () => {
  it('joins the enabled kinds with the §9 number display', () => {
    expect(frequencySummary(all, false, labels())).toBe('15,000 km · 500 e.h. · 1 y');
    expect(frequencySummary(all, false, labels('km', 'de'))).toBe('15.000 km · 500 e.h. · 1 y');
    expect(noticeSummary(all, false, labels())).toBe('1,000 km · 20 e.h. · 30 d');
  });

  it('leaves out disabled kinds, and is empty with none', () => {
    expect(frequencySummary({ ...all, cnme: 0, de: 0 }, false, labels())).toBe('500 e.h.');
    expect(noticeSummary({ ...all, cnehe: 0 }, false, labels())).toBe('1,000 km · 30 d');
    expect(frequencySummary(interval(), false, labels())).toBe('');
  });

  it('shows mileage in whole miles when the fleet uses miles', () => {
    const miles = interval({ ...all, cnehe: 0, de: 0, cnmd: 8047, cnmo: 1609 });
    expect(frequencySummary(miles, true, labels('mi'))).toBe('5,000 mi');
    expect(noticeSummary(miles, true, labels('mi'))).toBe('1,000 mi');
  });

  it('keeps the time unit of the frequency', () => {
    expect(frequencySummary(interval({ de: 1, dd: 6, du: 'm' }), false, labels())).toBe('6 m');
    expect(frequencySummary(interval({ de: 1, dd: 2, du: 'w' }), false, labels())).toBe('2 w');
  });
});

describe('filters', () => {
  const types: Record<number, number | null> = { 10: 1, 11: 2, 12: null };
  const typeOf = (id: number) => types[id];
  const list = [
    interval({ id: 1, cnme: 1, u: [unit(10)] }),
    interval({ id: 2, cnehe: 1, u: [unit(11), unit(12)] }),
    interval({ id: 3, de: 1, cnme: 1, u: [] }),
    interval({ id: 4, de: 1, u: [{ ...unit(10), t: 'd' }] }),
  ];
  const ids = (xs: IntervalWire[]) => xs.map((x) => x.id);

  it('without filters keeps everything', () => {
    expect(ids(filterIntervals(list, { kind: null, unitTypes: [] }, typeOf))).toEqual([1, 2, 3, 4]);
  });

  it('a kind keeps intervals with that kind enabled', () => {
    expect(ids(filterIntervals(list, { kind: 'mileage', unitTypes: [] }, typeOf))).toEqual([1, 3]);
    expect(ids(filterIntervals(list, { kind: 'engineHours', unitTypes: [] }, typeOf))).toEqual([2]);
    expect(ids(filterIntervals(list, { kind: 'time', unitTypes: [] }, typeOf))).toEqual([3, 4]);
  });

  it('unit types keep intervals with any assigned unit of those types (not drivers or trailers)', () => {
    expect(ids(filterIntervals(list, { kind: null, unitTypes: [1] }, typeOf))).toEqual([1]);
    expect(ids(filterIntervals(list, { kind: null, unitTypes: [2, 1] }, typeOf))).toEqual([1, 2]);
    expect(ids(filterIntervals(list, { kind: null, unitTypes: [7] }, typeOf))).toEqual([]);
    expect(ids(filterIntervals(list, { kind: 'mileage', unitTypes: [2] }, typeOf))).toEqual([]);
  });

  it('round-trips through the query string, keeping other parameters and at most 5 types', () => {
    const base = new URLSearchParams('q=oil&sort=name');
    const next = encodeFilters(base, { kind: 'time', unitTypes: [1, 2, 3, 4, 5, 6] });
    expect(next.get('q')).toBe('oil');
    expect(decodeFilters(next)).toEqual({ kind: 'time', unitTypes: [1, 2, 3, 4, 5] });
    const cleared = encodeFilters(next, { kind: null, unitTypes: [] });
    expect(cleared.has('kind')).toBe(false);
    expect(cleared.has('ut')).toBe(false);
    expect(cleared.get('sort')).toBe('name');
  });

  it('drops bad values from the query string', () => {
    expect(decodeFilters(new URLSearchParams('kind=fuel&ut=1,x,1,2'))).toEqual({
      kind: null,
      unitTypes: [1, 2],
    });
  });
});
