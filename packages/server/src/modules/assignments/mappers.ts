import { type AssignmentWire, isCurrentAt } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database, VehicleAssignmentRow } from '../../db/schema.js';
import { round3 } from '../fleets/mappers.js';

/** An assignment row with its driver's names (left join: the user is there while the row is). */
export type AssignmentRow = VehicleAssignmentRow & { driver_name: string | null; driver_full: string | null };

/** The assignments of a fleet with the driver's names, to filter further. */
export const assignmentQuery = (db: Kysely<Database>, fleetId: number) =>
  db
    .selectFrom('vehicle_assignments')
    .leftJoin('users', 'users.id', 'vehicle_assignments.user_id')
    .selectAll('vehicle_assignments')
    .select(['users.name as driver_name', 'users.full_name as driver_full'])
    .where('vehicle_assignments.fleet_id', '=', fleetId);

const meter = (n: number | null) => (n === null ? null : round3(n));

export function assignmentToWire(row: AssignmentRow, at: number): AssignmentWire {
  const start = Number(row.start_at);
  const end = row.end_at === null ? null : Number(row.end_at);
  return {
    id: row.id,
    uid: row.unit_id,
    drv: row.user_id,
    dn: row.driver_full || row.driver_name || '',
    st: start,
    en: end,
    sm: round3(row.start_mileage),
    seh: round3(row.start_engine_hours),
    em: meter(row.end_mileage),
    eeh: meter(row.end_engine_hours),
    cur: isCurrentAt({ start, end }, at),
  };
}
