import { describe, expect, it } from 'vitest';
import type { FuelFillingRow } from '../../db/schema.js';
import { type FuelContext, planCreate, planUpdate } from './rules.js';

const DAY = 86_400;
const fc = (fm = 1): FuelContext => ({
  fleetId: 1,
  tz: 0,
  fm,
  now: 1_700_000_000,
  tomorrow: Math.floor(1_700_000_000 / DAY) * DAY + DAY,
  actorId: 7,
});

const stored = (over: Partial<FuelFillingRow> = {}): FuelFillingRow => ({
  id: 1,
  fleet_id: 1,
  unit_id: 3,
  filled_at: 1_600_000_000,
  fuel_type: '',
  volume: 10_000,
  volume_unit: 2,
  price: 3_499,
  manual_cost: null,
  total_cost: 34_990,
  mileage: 100,
  full_tank: 1,
  station: '',
  description: '',
  cf: '[]',
  creator_id: 7,
  created_at: 1,
  updated_at: 1,
  ...over,
});

describe('fuel filling plans (PRODUCT.md "Fuel fillings")', () => {
  it('totals volume × price unless a total is entered, and defaults mileage, time and full tank', () => {
    const plan = planCreate(fc(), { uid: 3, volume: '40.5', price: 1.499 }, { mileage: 1234.56789 });
    expect(plan.issues).toEqual([]);
    expect(plan.row).toMatchObject({
      volume: 40_500,
      volume_unit: 1,
      price: 1_499,
      manual_cost: null,
      total_cost: 60_710,
      mileage: 1234.568,
      full_tank: 1,
      filled_at: 1_700_000_000,
    });
    const entered = planCreate(fc(2), { uid: 3, volume: 1, price: 2, manual_cost: '9.999' }, { mileage: 0 });
    expect(entered.row).toMatchObject({ volume_unit: 2, manual_cost: 9_999, total_cost: 9_999 });
  });

  it('lists every failure: unknown unit, future time, no price nor total', () => {
    const plan = planCreate(fc(), { uid: 3, volume: 1, date: fc().tomorrow }, undefined, 'body.rows.2.');
    expect(plan.issues.map((i) => i.field)).toEqual([
      'body.rows.2.uid',
      'body.rows.2.date',
      'body.rows.2.price',
    ]);
    // The last second of today is still today.
    expect(
      planCreate(fc(), { uid: 3, volume: 1, price: 1, date: fc().tomorrow - 1 }, { mileage: 0 }).issues,
    ).toEqual([]);
  });

  it('writes changed amounts in the fleet unit of the moment, keeps unchanged ones as stored', () => {
    // Stored in gallons, the fleet now in litres: 10 gal read as 37.854 l at 0.924 per l.
    const asRead = planUpdate(
      fc(1),
      stored(),
      { volume: 37.854, price: 0.924, date: 1_600_000_000 },
      undefined,
    );
    expect(asRead.issues).toEqual([]);
    expect(asRead.row).toMatchObject({ total_cost: 34_990 });
    expect(asRead.row.volume).toBeUndefined();
    expect(asRead.row.filled_at).toBeUndefined();
    const changed = planUpdate(fc(1), stored(), { volume: 40 }, undefined);
    // 40 l at 0.924 (3.499 per gal converted) = 36.96.
    expect(changed.row).toMatchObject({ volume: 40_000, volume_unit: 1, price: 924, total_cost: 36_960 });
    // An entered total stays whatever the volume becomes.
    const kept = planUpdate(
      fc(2),
      stored({ manual_cost: 50_000, total_cost: 50_000 }),
      { volume: 3 },
      undefined,
    );
    expect(kept.row).toMatchObject({ volume: 3_000, total_cost: 50_000 });
  });

  it('checks a new unit only when the unit changes', () => {
    expect(planUpdate(fc(2), stored(), { uid: 3 }, undefined).issues).toEqual([]);
    expect(planUpdate(fc(2), stored(), { uid: 4 }, undefined).issues.map((i) => i.field)).toEqual([
      'body.uid',
    ]);
    expect(planUpdate(fc(2), stored(), { uid: 4 }, { mileage: 5 }).row.unit_id).toBe(4);
  });
});
