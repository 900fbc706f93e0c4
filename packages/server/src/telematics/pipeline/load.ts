import type { Transaction } from 'kysely';
import { type AccountTree, accountTreeOf } from '../../auth/access.js';
import type { DialectOps } from '../../db/dialect/index.js';
import type { Database } from '../../db/schema.js';
import { type LiveUnit, parseParams } from '../live-unit.js';
import type { Reading } from '../reading.js';
import { selectUnits, type UnitRow } from '../statements.js';

/**
 * Before the steps of a group (store.ts): its units, read once in the group's transaction (locked on
 * PostgreSQL, telematics/statements.ts `selectUnits`) with everything deciding and planning need.
 */

export function liveUnitOf(row: UnitRow): LiveUnit {
  return {
    id: row.id,
    fleetId: row.fleet_id,
    deviceId: row.device_id,
    base: { mileage: row.base_mileage, engineHours: row.base_engine_hours },
    fleetAccountId: row.fleet_account_id ?? null,
    dailyMaxKm: row.fleet_daily_max === null ? null : Number(row.fleet_daily_max),
    tz: row.fleet_tz === null ? 0 : Number(row.fleet_tz),
    state: {
      lastTime: row.last_time,
      lastMs: row.last_ms ?? (row.last_time === null ? null : row.last_time * 1000),
      odometerSet: row.meter_odo_device === row.device_id,
      hoursSet: row.meter_hours_device === row.device_id,
      lat: row.lat,
      lon: row.lon,
      ignition: row.ignition === null ? null : row.ignition === 1,
      mileage: row.mileage,
      engineHours: row.engine_hours,
    },
    speed: row.speed,
    course: row.course,
    altitude: row.altitude,
    params: parseParams(row.params),
    counterDay: row.counter_day,
    counterDayEnd: row.counter_day_end,
    offset: { mileage: row.counter_off_mileage, engineHours: row.counter_off_engine_hours },
  };
}

/**
 * The units of the readings' devices, by device identifier in id order, and the account tree: the one
 * given (cached per instance, auth/access.ts), read again in this transaction when a unit's account was
 * made on another instance since.
 */
export async function loadGroup(
  trx: Transaction<Database>,
  ops: DialectOps,
  readings: readonly Reading[],
  tree: AccountTree,
): Promise<{ units: Map<string, LiveUnit>; tree: AccountTree }> {
  const deviceIds = [...new Set(readings.map((r) => r.deviceId))];
  const units = new Map<string, LiveUnit>();
  for (const row of await selectUnits(trx, ops, deviceIds)) units.set(row.device_id, liveUnitOf(row));
  if ([...units.values()].some((u) => u.fleetAccountId !== null && !tree.byId.has(u.fleetAccountId)))
    tree = accountTreeOf(await trx.selectFrom('accounts').selectAll().execute());
  return { units, tree };
}
