import { type Evaluation, evaluate, OVERDUE_MASK, ServiceFlag } from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import type { AssignmentRow, Database, IntervalRow } from '../db/schema.js';

/** What a recomputation looks at: a whole fleet, some service objects, or some assignments (a union). */
export interface EngineScope {
  fleetId?: number;
  /**
   * With `fleetId`: only the assignments of intervals with a time rule. The clock moves nothing else:
   * counter rules change with counters, baselines and intervals, and each of those runs the engine for
   * what it touched (the minute sweep, timer.ts).
   */
  timeRulesOnly?: boolean;
  objects?: { type: 'u' | 'd' | 't'; id: number }[];
  assignmentIds?: number[];
}

/** Ids per query: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
export const CHUNK = 2000;

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The columns of an assignment the engine reads (its baseline and what it belongs to). */
export type PlanAssignment = Pick<
  AssignmentRow,
  'id' | 'fleet_id' | 'interval_id' | 'object_type' | 'object_id' | 'lcnm' | 'lceh' | 'ltm'
>;

/** The open (not closed, not rejected) service of an assignment, as far as the engine needs it. */
export interface OpenService {
  id: number;
  fleet_id: number;
  assignment_id: number;
  f: number;
}

export interface Creation {
  assignment: PlanAssignment;
  interval: IntervalRow;
  evaluation: Evaluation;
  tz: number;
}

export interface FlagChange {
  service: OpenService;
  f: number;
}

export interface Plan {
  creations: Creation[];
  changes: FlagChange[];
}

/** A Due service the engine maintains: upcoming, not in progress, not archived (spec §4). */
export function isDue(f: number): boolean {
  return (
    (f & ServiceFlag.upcoming) !== 0 &&
    (f & (ServiceFlag.inProgress | ServiceFlag.closed | ServiceFlag.rejected)) === 0
  );
}

/** Flags of an archived service, written as the literal of the open-service partial indexes (migrations 003, 006). */
const OPEN = sql<boolean>`(f & ${sql.lit(ServiceFlag.closed | ServiceFlag.rejected)}) = 0`;

/**
 * One row per assignment with its unit's counters, in one query (null unit: a driver, a trailer, or a
 * unit gone).
 */
function planRows(db: Kysely<Database>) {
  return db
    .selectFrom('assignments as a')
    .leftJoin('units as u', (j) => j.onRef('u.id', '=', 'a.object_id').on('a.object_type', '=', 'u'))
    .select([
      'a.id',
      'a.fleet_id',
      'a.interval_id',
      'a.object_type',
      'a.object_id',
      'a.lcnm',
      'a.lceh',
      'a.ltm',
      'u.id as unit_id',
      'u.mileage',
      'u.engine_hours',
    ]);
}

type PlanRow = Awaited<ReturnType<ReturnType<typeof planRows>['execute']>>[number];

const DAY_SECONDS = 86_400;

/**
 * The least number of seconds `dd` calendar units can add (core timezone.ts `addCalendar`): a month
 * clamps to the end of the next (Jan 31 + 1 m = Feb 28, 28 days, less over several months by at most 3),
 * a year to Feb 28 (365 days); the 27 and 364 days below leave room for both. Bigint, so that PostgreSQL
 * multiplies a large `dd` without integer overflow.
 */
const SHORTEST_UNIT = sql<number>`case i.du when 'w' then cast(${sql.lit(7 * DAY_SECONDS)} as bigint) when 'm' then cast(${sql.lit(27 * DAY_SECONDS)} as bigint) when 'y' then cast(${sql.lit(364 * DAY_SECONDS)} as bigint) else cast(${sql.lit(DAY_SECONDS)} as bigint) end`;

/** A notice value as core status.ts reads it: negative counts as 0. */
const notice = (column: string) => sql`(case when ${sql.ref(column)} > 0 then ${sql.ref(column)} else 0 end)`;

/**
 * A superset, in SQL, of the assignments whose evaluation (core status.ts `evaluate`) can have a kind
 * within its advance notice at `at`: a fleet's assignments are mostly far from due, and reading each into
 * the process to find that out cost a whole-fleet run more than a raw read of them. The bounds
 * are loose on purpose (a kilometre or hour of rounding, four days of time zone, start of day and
 * daylight saving): the decision itself stays with `evaluate`, this only leaves out rows it would pass
 * over. Counters: remaining = baseline + frequency − current ≤ notice. Time: the due date is at least
 * last date + dd shortest units, and within notice when at most `do` local days after today.
 */
function mayBeWithinNotice(at: number) {
  return sql<boolean>`(
    (i.cnme <> 0 and i.cnmd > 0 and u.mileage is not null
      and a.lcnm + i.cnmd - u.mileage <= ${notice('i.cnmo')} + 1)
    or (i.cnehe <> 0 and i.cnehd > 0 and u.engine_hours is not null
      and a.lceh + i.cnehd - u.engine_hours <= ${notice('i.cneho')} + 1)
    or (i.de <> 0 and i.dd > 0
      and a.ltm + i.dd * ${SHORTEST_UNIT} <= cast(${at} as bigint) + (${notice('i.do')} + 4) * ${sql.lit(DAY_SECONDS)})
  )`;
}

/**
 * A fleet's assignments that may need work at `at`: those with an open service (its overdue flags may
 * change either way) and those that may be within notice (`mayBeWithinNotice`). Rows left out are ones
 * `decide` would pass over.
 */
function fleetRows(db: Kysely<Database>, fleetId: number, at: number) {
  return planRows(db)
    .innerJoin('intervals as i', 'i.id', 'a.interval_id')
    .where('a.fleet_id', '=', fleetId)
    .where(
      (eb) =>
        sql<boolean>`(${mayBeWithinNotice(at)} or a.id in (${eb
          .selectFrom('services')
          .select(sql<number>`assignment_id`.as('assignment_id'))
          .where('fleet_id', '=', fleetId)
          .where(OPEN)
          .where('assignment_id', 'is not', null)}))`,
    );
}

/** The rows of every assignment in scope, each once (the parts of a scope may overlap). */
async function loadRows(db: Kysely<Database>, scope: EngineScope, at: number): Promise<PlanRow[]> {
  const found = new Map<number, PlanRow>();
  const add = (rows: PlanRow[]) => {
    for (const r of rows) found.set(r.id, r);
  };
  const { fleetId } = scope;
  if (fleetId !== undefined) {
    let query = fleetRows(db, fleetId, at);
    if (scope.timeRulesOnly)
      query = query.where('a.interval_id', 'in', (eb) =>
        eb.selectFrom('intervals').select('id').where('fleet_id', '=', fleetId).where('de', '=', 1),
      );
    add(await query.execute());
  }
  for (const type of ['u', 'd', 't'] as const) {
    const ids = [...new Set((scope.objects ?? []).filter((o) => o.type === type).map((o) => o.id))];
    for (const part of chunks(ids))
      add(await planRows(db).where('a.object_type', '=', type).where('a.object_id', 'in', part).execute());
  }
  for (const part of chunks([...new Set(scope.assignmentIds ?? [])]))
    add(await planRows(db).where('a.id', 'in', part).execute());
  return [...found.values()];
}

/**
 * The open services of the rows' assignments by assignment id: a fleet's in one query over the
 * `services_open_fleet` index, the others by assignment id over `services_open_assignment`. (A join
 * probing the index once per assignment costs SQLite half a raw read of the assignments again.)
 */
async function loadOpen(
  db: Kysely<Database>,
  scope: EngineScope,
  rows: PlanRow[],
): Promise<Map<number, OpenService>> {
  const open = new Map<number, OpenService>();
  const add = (services: OpenService[]) => {
    for (const s of services) open.set(s.assignment_id, s);
  };
  const query = () =>
    db
      .selectFrom('services')
      .select(['id', 'fleet_id', 'f', sql<number>`assignment_id`.as('assignment_id')])
      .where(OPEN)
      .where('assignment_id', 'is not', null);
  const { fleetId } = scope;
  if (fleetId !== undefined) add(await query().where('fleet_id', '=', fleetId).execute());
  const others = rows.filter((r) => r.fleet_id !== fleetId).map((r) => r.id);
  for (const part of chunks(others)) add(await query().where('assignment_id', 'in', part).execute());
  return open;
}

async function loadById<T extends { id: number }>(
  ids: number[],
  load: (part: number[]) => Promise<T[]>,
): Promise<Map<number, T>> {
  const out = new Map<number, T>();
  for (const part of chunks([...new Set(ids)])) for (const r of await load(part)) out.set(r.id, r);
  return out;
}

/** What one assignment needs, if anything: a new Due service, or other overdue flags on its Due one. */
function decide(
  row: PlanRow,
  service: OpenService | undefined,
  interval: IntervalRow,
  tz: number,
  at: number,
  into: Plan,
): void {
  const counters =
    row.object_type === 'u'
      ? { mileage: row.mileage, engineHours: row.engine_hours }
      : { mileage: null, engineHours: null };
  const evaluation = evaluate(interval, row, counters, at, tz);
  if (!service) {
    if (evaluation.notice.length > 0) into.creations.push({ assignment: row, interval, evaluation, tz });
  } else if (isDue(service.f)) {
    const f = (service.f & ~OVERDUE_MASK) | evaluation.overdueFlags;
    if (f !== service.f) into.changes.push({ service, f });
  }
}

/**
 * Loads the assignments in scope with their unit counters (one query per scope part; of a whole fleet
 * only those that may need work, `fleetRows`), their open services, intervals and fleet zones, and
 * decides what to create and which overdue flags to change at `at` with the rules of core status.ts.
 * Reads only.
 */
export async function plan(db: Kysely<Database>, scope: EngineScope, at: number): Promise<Plan> {
  const result: Plan = { creations: [], changes: [] };
  const rows = await loadRows(db, scope, at);
  if (rows.length === 0) return result;
  const intervals = await loadById(
    rows.map((r) => r.interval_id),
    (part) => db.selectFrom('intervals').selectAll().where('id', 'in', part).execute(),
  );
  const open = await loadOpen(db, scope, rows);
  const fleets = await loadById(
    rows.map((r) => r.fleet_id),
    (part) => db.selectFrom('fleets').select(['id', 'tz']).where('id', 'in', part).execute(),
  );
  for (const row of rows) {
    const interval = intervals.get(row.interval_id);
    // A unit's assignment whose unit is gone is left alone, as is one whose interval is gone.
    if (!interval || (row.object_type === 'u' && row.unit_id === null)) continue;
    decide(row, open.get(row.id), interval, fleets.get(row.fleet_id)?.tz ?? 0, at, result);
  }
  return result;
}
