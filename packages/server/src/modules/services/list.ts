import { multiplyThousandths } from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import type { DialectOps } from '../../db/dialect/index.js';
import type { Database, ServiceRow } from '../../db/schema.js';
import { type LineWire, lineToWire, type OwnerState, serviceToWire } from '../maintenance-wire.js';
import type { Scope } from './load.js';
import { NO_OWNER } from './owners.js';

/**
 * The wires of many services (the lists, the live events of a change, reports), read as one JSON array
 * text per row: better-sqlite3 builds an object of some thirty named properties per row,
 * which was about 60 % of the CPU of rebuilding the 10,000-row open list; a single text column parsed
 * with `JSON.parse` costs a quarter of that (measured: 10,000 services 106 → 25 ms, 20,000 line items
 * 32 → 13 ms). Both dialects write every number exactly: SQLite's `json_array` and PostgreSQL's float8
 * output (shortest exact form) read back to the same doubles as their drivers' own conversions.
 */

/** The services columns the wire shows, in the order of the row arrays (`rowOf` reads them by index). */
const SERVICE_COLUMNS = [
  'id',
  'object_id',
  'object_type',
  'f',
  'name',
  'description',
  'creator_id',
  'interval_id',
  'assignment_id',
  'created_at',
  'updated_at',
  'start_date',
  'end_date',
  'planned_date',
  'forecast_date',
  'limit_mileage',
  'limit_engine_hours',
  'last_date',
  'last_mileage',
  'last_engine_hours',
  'mileage',
  'engine_hours',
  'manual_cost',
  'notify_days',
  'cf',
] as const satisfies readonly (keyof ServiceRow)[];

/** After the service's columns: its owner's live state and its attachment count. */
const OWNER_AT = SERVICE_COLUMNS.length;

/** A row array of the services query: SERVICE_COLUMNS, then unit mileage, engine hours, ins, driver and trailer ins, attachments. */
export type ServiceArray = unknown[];
/** A row array of the line items query: service id, name, kind, quantity and cost (thousandths). */
export type LineArray = [number, string, number, number, number, number | null, number | null];

/** A service's attachment count (the reply's `ats`). */
const ATTACHMENTS = sql<number>`(select count(*) from attachments as x where x.owner_type = ${'service'} and x.owner_id = s.id)`;

/**
 * The services in scope joined with their owner, when it is in the same fleet (an object that left keeps
 * its archived services but shows no live data, spec §4 "-"). Shared with the single read (load.ts).
 */
export function withOwners(db: Kysely<Database>, scope: Scope) {
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
    );
}

/** Each service in scope as a JSON array (ServiceArray), ordered by id. */
function servicesQuery(db: Kysely<Database>, ops: DialectOps, scope: Scope) {
  const values = [
    ...SERVICE_COLUMNS.map((c) => sql.ref(`s.${c}`)),
    sql.ref('u.mileage'),
    sql.ref('u.engine_hours'),
    sql.ref('u.ins'),
    sql.ref('d.ins'),
    sql.ref('t.ins'),
    ATTACHMENTS,
  ];
  return withOwners(db, scope).select(ops.jsonArray(values).as('r')).orderBy('s.id');
}

/** The same without the owners' live state: nulls in their places (the kept lists add it per read). */
export function servicesOnlyQuery(db: Kysely<Database>, ops: DialectOps, scope: Scope) {
  const values = [...SERVICE_COLUMNS.map((c) => sql.ref(`s.${c}`)), ...Array(5).fill(sql`null`), ATTACHMENTS];
  return db
    .selectFrom(scope(db.selectFrom('services').selectAll()).as('s'))
    .select(ops.jsonArray(values).as('r'))
    .orderBy('s.id');
}

/** The line items of the services in scope as JSON arrays (LineArray), by service id and position. */
export function linesQuery(db: Kysely<Database>, ops: DialectOps, scope: Scope) {
  const values = ['service_id', 'name', 'kind', 'qty', 'cost', 'part_id', 'location_id'].map((c) =>
    sql.ref(`li.${c}`),
  );
  return db
    .selectFrom(scope(db.selectFrom('services').select('id')).as('s'))
    .innerJoin('service_line_items as li', 'li.service_id', 's.id')
    .select(ops.jsonArray(values).as('r'))
    .orderBy('li.service_id')
    .orderBy('li.position');
}

/** The service row of a row array (every field serviceToWire reads). */
function rowOf(fleetId: number, a: ServiceArray): ServiceRow {
  return {
    fleet_id: fleetId,
    id: a[0],
    object_id: a[1],
    object_type: a[2],
    f: a[3],
    name: a[4],
    description: a[5],
    creator_id: a[6],
    interval_id: a[7],
    assignment_id: a[8],
    created_at: a[9],
    updated_at: a[10],
    start_date: a[11],
    end_date: a[12],
    planned_date: a[13],
    forecast_date: a[14],
    limit_mileage: a[15],
    limit_engine_hours: a[16],
    last_date: a[17],
    last_mileage: a[18],
    last_engine_hours: a[19],
    mileage: a[20],
    engine_hours: a[21],
    manual_cost: a[22],
    notify_days: a[23],
    cf: a[24],
  } as ServiceRow;
}

/** Counters and `ins` of the service's owner while it is in the fleet (units have counters; drivers and trailers none). */
function ownerOf(a: ServiceArray): OwnerState {
  const [mileage, engineHours, unitIns, driverIns, trailerIns] = a.slice(OWNER_AT, OWNER_AT + 5) as (
    | number
    | null
  )[];
  if (unitIns != null) return { mileage: mileage ?? null, engineHours: engineHours ?? null, ins: unitIns };
  if (driverIns != null) return { mileage: null, engineHours: null, ins: driverIns };
  if (trailerIns != null) return { mileage: null, engineHours: null, ins: trailerIns };
  return NO_OWNER;
}

export const parsed = <T>(rows: { r: string }[]) => rows.map((row) => JSON.parse(row.r) as T);

/** The wires of service rows (ordered by id) with their line items (ordered by service id), merged in one pass. */
export function wiresOf(
  fleetId: number,
  rows: readonly ServiceArray[],
  lines: readonly LineArray[],
  owner: (a: ServiceArray) => OwnerState,
) {
  const wires = [];
  let at = 0;
  for (const a of rows) {
    const row = rowOf(fleetId, a);
    while (at < lines.length && (lines[at]?.[0] ?? 0) < row.id) at++;
    const own: LineWire[] = [];
    let cost = 0;
    for (; at < lines.length && lines[at]?.[0] === row.id; at++) {
      const [, name, kind, qty, lineCost, partId, locationId] = lines[at] as LineArray;
      own.push(lineToWire({ name, kind, qty, cost: lineCost, part_id: partId, location_id: locationId }));
      cost += multiplyThousandths(qty, lineCost);
    }
    wires.push(serviceToWire(row, own, Number(a[OWNER_AT + 5]), owner(a), cost));
  }
  return wires;
}

/**
 * The wire of every service in scope, ordered by id, whatever their number: one query for the services
 * with their owners' live state and attachment counts, one for their line items (joining these would
 * repeat every service's columns once per line item: measured slower), merged in one pass (both are
 * ordered by service id).
 */
export async function loadWires(db: Kysely<Database>, ops: DialectOps, fleetId: number, scope: Scope) {
  const inFleet: Scope = (qb) => scope(qb).where('fleet_id', '=', fleetId);
  const rows = parsed<ServiceArray>(await servicesQuery(db, ops, inFleet).execute());
  if (rows.length === 0) return [];
  const lines = parsed<LineArray>(await linesQuery(db, ops, inFleet).execute());
  return wiresOf(fleetId, rows, lines, ownerOf);
}
