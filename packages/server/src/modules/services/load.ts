import { multiplyThousandths } from '@fleetkeep/core';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, ServiceRow } from '../../db/schema.js';
import { type LineWire, lineToWire, type OwnerState, serviceToWire } from '../maintenance-wire.js';

/** Which services a read covers; applied to the services table and to the per-service lookups alike. */
export type Scope = <O>(
  qb: SelectQueryBuilder<Database, 'services', O>,
) => SelectQueryBuilder<Database, 'services', O>;

export const byIds =
  (fleetId: number, ids: number[]): Scope =>
  (qb) =>
    qb.where('fleet_id', '=', fleetId).where('id', 'in', ids.length ? ids : [0]);

export type ObjectKey = `${'u' | 'd' | 't'}:${number}`;
export const objectKey = (type: string, id: number) => `${type}:${id}` as ObjectKey;

/** A service row with its owner's live state and its attachment count. */
type ListRow = ServiceRow & {
  unit_mileage: number | null;
  unit_engine_hours: number | null;
  unit_ins: number | null;
  driver_ins: number | null;
  trailer_ins: number | null;
  ats: number | string;
};

const NO_OWNER: OwnerState = { mileage: null, engineHours: null, ins: 0 };

/**
 * Counters and `ins` of the service's owner while it is in the fleet (units have counters; drivers and
 * trailers none). An object that left keeps its archived services but shows no live data (spec §4 "-").
 */
function ownerOf(row: ListRow): OwnerState {
  if (row.unit_ins !== null)
    return { mileage: row.unit_mileage, engineHours: row.unit_engine_hours, ins: row.unit_ins };
  if (row.driver_ins !== null) return { mileage: null, engineHours: null, ins: row.driver_ins };
  if (row.trailer_ins !== null) return { mileage: null, engineHours: null, ins: row.trailer_ins };
  return NO_OWNER;
}

/** The services in scope with their owner (in the same fleet) and their attachment count, by id. */
function servicesQuery(db: Kysely<Database>, scope: Scope) {
  return db
    .selectFrom(scope(db.selectFrom('services').selectAll()).as('s'))
    .leftJoin('units as u', (j) =>
      j
        .onRef('u.id', '=', 's.object_id')
        .onRef('u.fleet_id', '=', 's.fleet_id')
        .on('s.object_type', '=', 'u'),
    )
    .leftJoin('drivers as d', (j) =>
      j
        .onRef('d.id', '=', 's.object_id')
        .onRef('d.fleet_id', '=', 's.fleet_id')
        .on('s.object_type', '=', 'd'),
    )
    .leftJoin('trailers as t', (j) =>
      j
        .onRef('t.id', '=', 's.object_id')
        .onRef('t.fleet_id', '=', 's.fleet_id')
        .on('s.object_type', '=', 't'),
    )
    .selectAll('s')
    .select((eb) => [
      'u.mileage as unit_mileage',
      'u.engine_hours as unit_engine_hours',
      'u.ins as unit_ins',
      'd.ins as driver_ins',
      't.ins as trailer_ins',
      eb
        .selectFrom('attachments as x')
        .select(eb.fn.countAll<number>().as('n'))
        .where('x.owner_type', '=', 'service')
        .whereRef('x.owner_id', '=', 's.id')
        .as('ats'),
    ])
    .orderBy('s.id');
}

type LineRow = { service_id: number; name: string; kind: number; qty: number; cost: number };

/** The line items of the services in scope, by service id and position. */
function linesQuery(db: Kysely<Database>, scope: Scope) {
  return db
    .selectFrom('service_line_items')
    .select(['service_id', 'name', 'kind', 'qty', 'cost'])
    .where('service_id', 'in', scope(db.selectFrom('services').select('id')))
    .orderBy('service_id')
    .orderBy('position');
}

/**
 * The wire of every service in scope, ordered by id, whatever their number: one query for the services
 * with their owners' live state and attachment counts, one for their line items (joining these would
 * repeat every service's columns once per line item: measured slower), merged in one pass (both are
 * ordered by service id).
 */
export async function loadWires(db: Kysely<Database>, fleetId: number, scope: Scope) {
  const inFleet: Scope = (qb) => scope(qb).where('fleet_id', '=', fleetId);
  const rows = (await servicesQuery(db, inFleet).execute()) as ListRow[];
  if (rows.length === 0) return [];
  const lines = await linesQuery(db, inFleet).execute();
  const wires = [];
  let at = 0;
  for (const row of rows) {
    while (at < lines.length && (lines[at]?.service_id ?? 0) < row.id) at++;
    const own: LineWire[] = [];
    let cost = 0;
    for (; at < lines.length && lines[at]?.service_id === row.id; at++) {
      const line = lines[at] as LineRow;
      own.push(lineToWire(line));
      cost += multiplyThousandths(line.qty, line.cost);
    }
    wires.push(serviceToWire(row, own, Number(row.ats), ownerOf(row), cost));
  }
  return wires;
}
