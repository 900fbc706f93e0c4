import { multiplyThousandths } from '@fleetkeep/core';
import { CompiledQuery, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, ServiceRow } from '../../db/schema.js';
import { type LineWire, lineToWire, type OwnerState, serviceToWire } from '../maintenance-wire.js';
import { withOwners } from './list.js';
import { NO_OWNER } from './owners.js';

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
  return withOwners(db, scope)
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

/** The wires of many services: list.ts (one JSON array text per row). */
export { loadWires } from './list.js';

/**
 * Stand-ins for the two values of the one-service read while its query is compiled: the compiled
 * parameters that equal them are swapped for the request's values (every other parameter is a constant
 * of the query text, such as the owner types).
 */
const FLEET_SLOT = -910_001;
const ID_SLOT = -910_002;

/** A service row joined with one of its line items (all `li_*` null when it has none). */
type OneRow = ListRow & {
  li_name: string | null;
  li_kind: number | null;
  li_qty: number | null;
  li_cost: number | null;
  li_part: number | null;
  li_location: number | null;
};

/**
 * One service with its owner's live state, its attachment count and its line items in one query (a
 * single read's two round trips cost more than repeating its columns once per line item), compiled once
 * per database: building and compiling the Kysely query was about a tenth of a single read's CPU.
 * The service with its owner and count is a derived table joined to its line items: its `limit` (the id
 * names one row) keeps both databases from merging it into the join, so that the attachments are
 * counted once per service, not once per line item. A literal `limit 1`: bound as a parameter,
 * SQLite ran the query about five times slower.
 */
function compileOne(db: Kysely<Database>): CompiledQuery {
  const one = servicesQuery(db, (qb) => qb.where('fleet_id', '=', FLEET_SLOT).where('id', '=', ID_SLOT))
    .clearOrderBy()
    .limit(sql.lit(1))
    .as('o');
  return db
    .selectFrom(one)
    .leftJoin('service_line_items as li', 'li.service_id', 'o.id')
    .selectAll('o')
    .select([
      'li.name as li_name',
      'li.kind as li_kind',
      'li.qty as li_qty',
      'li.cost as li_cost',
      'li.part_id as li_part',
      'li.location_id as li_location',
    ])
    .orderBy('li.position')
    .orderBy('li.id')
    .compile();
}

const oneQueries = new WeakMap<Kysely<Database>, CompiledQuery<OneRow>>();

/** Runs a query compiled once with the request's parameters. */
export type RunCompiled = <R>(query: CompiledQuery<R>, parameters: readonly unknown[]) => Promise<R[]>;

/** The default runner: through Kysely (on SQLite, db/database.ts keeps the statement prepared). */
const throughKysely =
  (db: Kysely<Database>): RunCompiled =>
  async <R>(query: CompiledQuery<R>, parameters: readonly unknown[]) =>
    (await db.executeQuery<R>(CompiledQuery.raw(query.sql, [...parameters]))).rows;

/**
 * The wire of one service of the fleet, or undefined when the fleet has no such service. `run` may be a
 * runner of named prepared statements (PostgreSQL then neither parses nor plans the query again).
 */
export async function loadOneWire(
  db: Kysely<Database>,
  fleetId: number,
  id: number,
  run: RunCompiled = throughKysely(db),
) {
  let query = oneQueries.get(db);
  if (!query) {
    query = compileOne(db) as CompiledQuery<OneRow>;
    oneQueries.set(db, query);
  }
  const parameters = query.parameters.map((p) => (p === FLEET_SLOT ? fleetId : p === ID_SLOT ? id : p));
  const rows = await run(query, parameters);
  const row = rows[0];
  if (!row) return undefined;
  const lines: LineWire[] = [];
  let cost = 0;
  for (const r of rows) {
    if (r.li_name === null) continue;
    const line = { name: r.li_name, kind: Number(r.li_kind), qty: Number(r.li_qty), cost: Number(r.li_cost) };
    lines.push(lineToWire({ ...line, part_id: r.li_part, location_id: r.li_location }));
    cost += multiplyThousandths(line.qty, line.cost);
  }
  return serviceToWire(row, lines, Number(row.ats), ownerOf(row), cost);
}
