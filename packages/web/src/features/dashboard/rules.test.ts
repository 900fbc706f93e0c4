import { ServiceFlag, type StatisticsUnitRow } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import {
  costPerDistance,
  costSeries,
  DEFAULT_LAYOUT,
  moveSection,
  normalizeLayout,
  objectCounts,
  overdueServices,
  perDistanceText,
  SECTION_IDS,
  STALE_AFTER_SECONDS,
  sectionTitleKey,
  staleUnits,
  statusCounts,
  toggleSection,
  topUnits,
  visibleSections,
} from './rules.ts';

describe('layout', () => {
  it('is the default for nothing or rubbish', () => {
    expect(normalizeLayout(undefined)).toEqual(DEFAULT_LAYOUT);
    expect(normalizeLayout('x')).toEqual(DEFAULT_LAYOUT);
    expect(normalizeLayout({ order: 5, hidden: 'map' })).toEqual(DEFAULT_LAYOUT);
  });

  it('keeps the saved order, drops unknown and repeated ids, appends sections it does not name', () => {
    const layout = normalizeLayout({ order: ['map', 'gone', 'costs', 'map'], hidden: ['gone', 'status'] });
    expect(layout.order.slice(0, 2)).toEqual(['map', 'costs']);
    expect(layout.order.slice(2)).toEqual(SECTION_IDS.filter((id) => id !== 'map' && id !== 'costs'));
    expect(layout.order).toHaveLength(SECTION_IDS.length);
    expect(layout.hidden).toEqual(['status']);
  });

  it('moves a section up and down, not past either end', () => {
    const up = moveSection(DEFAULT_LAYOUT, 'objects', -1);
    expect(up.order.slice(0, 2)).toEqual(['status', 'objects'].reverse());
    expect(moveSection(DEFAULT_LAYOUT, 'status', -1)).toBe(DEFAULT_LAYOUT);
    expect(moveSection(DEFAULT_LAYOUT, SECTION_IDS[SECTION_IDS.length - 1]!, 1)).toBe(DEFAULT_LAYOUT);
    expect(moveSection(DEFAULT_LAYOUT, 'status', 1).order.slice(0, 2)).toEqual(['objects', 'status']);
  });

  it('names the failed inspections section from the inspections texts', () => {
    expect(sectionTitleKey('failedInspections')).toBe('inspections.dashboard');
    expect(sectionTitleKey('costs')).toBe('dashboard.section_costs');
  });

  it('hides and shows sections', () => {
    const hidden = toggleSection(toggleSection(DEFAULT_LAYOUT, 'map'), 'costs');
    expect(hidden.hidden).toEqual(['costs', 'map']);
    expect(visibleSections(hidden)).not.toContain('costs');
    expect(visibleSections(hidden)).toHaveLength(SECTION_IDS.length - 2);
    expect(toggleSection(hidden, 'map').hidden).toEqual(['costs']);
  });
});

describe('counts', () => {
  it('counts open services by status with the total', () => {
    const f = ServiceFlag;
    expect(
      statusCounts([
        { f: f.upcoming },
        { f: f.upcoming | f.manually },
        { f: f.upcoming | f.overdue | f.overdueByDays },
        { f: f.inProgress },
        { f: f.closed },
        { f: f.rejected },
      ]),
    ).toEqual({ due: 2, overdue: 1, inProgress: 1, total: 4 });
  });

  it('counts objects active and in service', () => {
    expect(objectCounts([{ ins: 0 }, { ins: 1 }, { ins: 0 }])).toEqual({ active: 2, inService: 1 });
    expect(objectCounts([])).toEqual({ active: 0, inService: 0 });
  });
});

describe('costs', () => {
  it('divides by the distance in the fleet unit, none without distance', () => {
    expect(costPerDistance(100, 200, false)).toBe(0.5);
    expect(costPerDistance(100, 160.9344, true)).toBeCloseTo(1, 3);
    expect(costPerDistance(100, 0, false)).toBeNull();
    expect(perDistanceText(costPerDistance(100, 0, true), (v) => `${v} EUR`)).toBe('-');
    expect(perDistanceText(0.5, (v) => `${v} EUR`)).toBe('0.5 EUR');
  });

  const row = (uid: number, services: number, fuel: number, mileage: number): StatisticsUnitRow => ({
    uid,
    mileage,
    engine_hours: 0,
    services_cost: services,
    fuel_cost: fuel,
    total_cost: services + fuel,
    cost_per_km: null,
    services_count: 0,
    fuel_count: 0,
    fuel_volume: 0,
    consumption: null,
  });

  it('ranks units by total cost, ties by id, at most five, none without cost', () => {
    const rows = [row(1, 10, 0, 100), row(2, 0, 0, 50), row(3, 5, 5, 0), row(4, 50, 1, 10)];
    rows.push(row(5, 1, 0, 1), row(6, 2, 0, 1), row(7, 3, 0, 1));
    const top = topUnits(rows, false);
    expect(top.map((u) => u.uid)).toEqual([4, 1, 3, 7, 6]);
    expect(top[0]?.perDistance).toBeCloseTo(5.1);
    expect(top[2]?.perDistance).toBeNull();
    expect(topUnits(rows, false, 2).map((u) => u.uid)).toEqual([4, 1]);
  });

  it('charts every day of a short period and every week of a long one', () => {
    const day = (d: string, s: number, f: number) => ({
      day: d,
      services_cost: s,
      services_count: 1,
      fuel_cost: f,
      fuel_count: 1,
      fuel_volume: 1,
    });
    const week = costSeries(
      [day('2026-03-05', 1.1, 2.2), day('2026-03-05', 0.2, 0)],
      '2026-03-04',
      '2026-03-10',
    );
    expect(week.step).toBe('day');
    expect(week.starts).toHaveLength(7);
    expect(week.services).toEqual([0, 1.3, 0, 0, 0, 0, 0]);
    expect(week.fuel[1]).toBe(2.2);
    const year = costSeries(
      [day('2025-03-18', 5, 1), day('2025-03-24', 1, 0), day('2024-01-01', 9, 9)],
      '2025-03-11',
      '2026-03-10',
    );
    expect(year.step).toBe('week');
    expect(year.starts[0]).toBe('2025-03-11');
    expect(year.starts[1]).toBe('2025-03-18');
    expect(year.starts).toHaveLength(53);
    expect(year.services.slice(0, 3)).toEqual([0, 6, 0]);
    expect(year.fuel.reduce((a, b) => a + b, 0)).toBe(1);
    expect(costSeries([], '2026-03-10', '2026-03-01').starts).toEqual([]);
  });
});

describe('needs attention', () => {
  it('lists overdue open services, the earliest planned first', () => {
    const f = ServiceFlag;
    const list = overdueServices([
      { id: 1, f: f.upcoming, limit_date: 1 },
      { id: 2, f: f.upcoming | f.overdue, limit_date: 500 },
      { id: 3, f: f.upcoming | f.overdue | f.overdueByMileage, limit_date: null },
      { id: 4, f: f.upcoming | f.overdue, limit_date: 100 },
      { id: 5, f: f.closed | f.overdue, limit_date: 1 },
    ]);
    expect(list.map((s) => s.id)).toEqual([4, 2, 3]);
  });

  it('lists units silent for more than a day, not those that never reported', () => {
    const now = 1_000_000;
    const units = [
      { id: 1, lmsg: { t: now - 60, p: {} } },
      { id: 2, lmsg: { t: now - STALE_AFTER_SECONDS - 1, p: {} } },
      { id: 3, lmsg: null },
      { id: 4, lmsg: { t: now - 10 * STALE_AFTER_SECONDS, p: {} } },
      { id: 5, lmsg: { t: now - STALE_AFTER_SECONDS, p: {} } },
    ];
    expect(staleUnits(units, now).map((u) => u.id)).toEqual([4, 2]);
  });
});
