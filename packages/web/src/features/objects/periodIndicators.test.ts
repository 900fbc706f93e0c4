import type { StatisticsUnitWire } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { periodIndicators } from './rules.ts';

const stats = (over: Partial<StatisticsUnitWire> = {}): StatisticsUnitWire => ({
  from: '2026-03-04',
  to: '2026-03-10',
  mileage: 150,
  engine_hours: 5,
  services_cost: 180.52,
  fuel_cost: 0,
  cost_per_km: 1.203,
  // Fields the statistics reply gained with fuel fillings; not read by the indicators.
  fm: 1,
  total_cost: 180.52,
  services_count: 2,
  fuel_count: 0,
  fuel_volume: 0,
  consumption: null,
  days: [],
  ...over,
});

describe('period indicators of the unit page (PRODUCT.md "Unit page indicators")', () => {
  it('divides the period cost by the distance driven in the period, per km', () => {
    const p = periodIndicators(stats(), false);
    expect(p).toMatchObject({ distanceKm: 150, engineHours: 5, services: 180.52, fuel: 0, total: 180.52 });
    expect(p.perDistance).toBeCloseTo(180.52 / 150, 10);
  });

  it('per mile for fleets measured in miles (the API is in km)', () => {
    const p = periodIndicators(stats({ mileage: 160.9344, services_cost: 50, fuel_cost: 50 }), true);
    // 160.9344 km = 100 miles; 100 (services + fuel) / 100 miles.
    expect(p.perDistance).toBeCloseTo(1, 10);
    expect(p.total).toBe(100);
  });

  it('adds services and fuel exactly and shows no cost per distance without distance', () => {
    expect(periodIndicators(stats({ services_cost: 0.1, fuel_cost: 0.2 }), false).total).toBe(0.3);
    expect(periodIndicators(stats({ mileage: 0, cost_per_km: null }), false).perDistance).toBeNull();
  });
});
