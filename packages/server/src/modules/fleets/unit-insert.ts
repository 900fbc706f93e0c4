import type { UnitCreateBody } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import type { Database, FleetRow } from '../../db/schema.js';
import { recordCorrection } from '../statistics/counter-days.js';
import { profileColumns } from './profile.js';

/**
 * Writes a new unit of the fleet's account in the fleet, inside the caller's transaction (the unit
 * editor's create and the units import). A starting mileage or engine hours is a hand correction from 0,
 * recorded with who and when, and is the unit's counter at joining, so its "actual" counters start at 0
 * until the history is pulled (PRODUCT.md "Service objects and counters"). Returns the unit's id.
 */
export async function insertUnit(
  trx: Kysely<Database>,
  actor: Actor,
  fleet: Pick<FleetRow, 'id' | 'account_id' | 'fm'>,
  body: Omit<UnitCreateBody, 'ut'> & { ut: number | null },
  at: number,
): Promise<number> {
  const mileage = body.cnm ?? 0;
  const hours = body.cneh ?? 0;
  const row = await trx
    .insertInto('units')
    .values({
      account_id: fleet.account_id,
      fleet_id: fleet.id,
      name: body.nm,
      device_id: body.uid,
      unit_type_id: body.ut,
      mileage,
      engine_hours: hours,
      base_mileage: mileage,
      base_engine_hours: hours,
      pulled_mileage: 0,
      pulled_engine_hours: 0,
      joined_at: at,
      last_time: null,
      lat: null,
      lon: null,
      speed: null,
      course: null,
      altitude: null,
      ignition: null,
      props: '{}',
      params: '{}',
      cf: '[]',
      ins: 0,
      created_at: at,
      ...profileColumns(body.vp, fleet.fm),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const corrections = [
    ...(mileage !== 0 ? [{ field: 'mileage', old_value: 0, new_value: mileage }] : []),
    ...(hours !== 0 ? [{ field: 'engine_hours', old_value: 0, new_value: hours }] : []),
  ];
  if (corrections.length) {
    await trx
      .insertInto('counter_corrections')
      .values(corrections.map((c) => ({ ...c, unit_id: row.id, user_id: actor.userId, tm: at })))
      .execute();
    // statistics: the starting counters are no distance driven (modules/statistics/counter-days.ts).
    await recordCorrection(trx, row.id, { mileage, engineHours: hours });
  }
  return row.id;
}
