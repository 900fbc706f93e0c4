import { toThousandths, type VehicleProfileBody } from '@fleetkeep/core';
import type { Updateable } from 'kysely';
import type { UnitRow, UnitTable } from '../../db/schema.js';

/**
 * The vehicle profile of a unit's create or update as columns (migration 031; docs/product.md "The
 * vehicle profile"). Only the fields given and different from the stored unit are returned, so the unit
 * as read (a round trip) changes nothing. A tank capacity without a unit is in the fleet's fuel unit.
 */
export function profileColumns(
  vp: VehicleProfileBody | undefined,
  fleetFuelUnit: number,
  stored?: UnitRow,
): Updateable<UnitTable> {
  if (!vp) return {};
  const set: Updateable<UnitTable> = {};
  const text = (
    key: 'vin' | 'make' | 'model' | 'plate' | 'fuel_type' | 'notes',
    value: string | undefined,
  ) => {
    if (value !== undefined && value !== stored?.[key]) set[key] = value;
  };
  text('vin', vp.vin);
  text('make', vp.mk);
  text('model', vp.md);
  text('plate', vp.pl);
  text('fuel_type', vp.ft);
  text('notes', vp.nt);
  if (vp.yr !== undefined && vp.yr !== stored?.model_year) set.model_year = vp.yr;
  if (vp.tg !== undefined) {
    const tags = JSON.stringify(vp.tg);
    if (tags !== stored?.tags) set.tags = tags;
  }
  if (vp.tc !== undefined) {
    const capacity = vp.tc === null ? null : toThousandths(vp.tc)!;
    const unit = capacity === null ? null : (vp.tu ?? stored?.tank_unit ?? (fleetFuelUnit === 2 ? 2 : 1));
    if (capacity !== stored?.tank_capacity || unit !== stored?.tank_unit) {
      set.tank_capacity = capacity;
      set.tank_unit = unit;
    }
  } else if (vp.tu !== undefined && stored && stored.tank_capacity !== null && vp.tu !== stored.tank_unit) {
    // A new unit for the stored capacity: the number is kept, its unit changes.
    set.tank_unit = vp.tu;
  }
  return set;
}
