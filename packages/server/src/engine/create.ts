import { forecastDate, multiplyThousandths, ServiceFlag } from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import { DAY, now } from '../context.js';
import { bulkInsert, type Placeholder } from '../db/bulk.js';
import type { Database, ServiceRow } from '../db/schema.js';
import { type LineWire, lineToWire } from '../modules/maintenance-wire.js';
import { chunks, type Plan } from './plan.js';

/** Window of the average daily distance behind the forecast date (PRODUCT.md "The status engine"). */
const FORECAST_WINDOW_DAYS = 30;

/** The line items every new service of one interval received, as the wire and the events carry them. */
export interface IntervalLines {
  wire: LineWire[];
  /** Their cost in thousandths, as maintenance-wire.ts `serviceToWire` takes it for stored lines. */
  cost: number;
}

export interface Created {
  /** The new services as written, by id. */
  rows: ServiceRow[];
  /** By interval id, for every interval of a new service (empty where it has none). */
  lines: Map<number, IntervalLines>;
}

/**
 * Average daily km per unit over the last 30 days: the mileage difference between the first and last
 * position of the window divided by the days between them (at least one day). Unknown (absent) with
 * fewer than two positions.
 */
async function averageDailyKm(db: Kysely<Database>, unitIds: number[], at: number) {
  const avg = new Map<number, number>();
  for (const part of chunks(unitIds)) {
    const rows = await db
      .selectFrom('positions')
      .select((eb) => [
        'unit_id',
        eb.fn.min('tm').as('t0'),
        eb.fn.max('tm').as('t1'),
        eb.fn.min('mileage').as('m0'),
        eb.fn.max('mileage').as('m1'),
      ])
      .where('unit_id', 'in', part)
      .where('tm', '>=', at - FORECAST_WINDOW_DAYS * DAY)
      .where('tm', '<=', at)
      .groupBy('unit_id')
      .execute();
    for (const r of rows) {
      const span = Number(r.t1) - Number(r.t0);
      if (span <= 0) continue;
      avg.set(r.unit_id, (Number(r.m1) - Number(r.m0)) / Math.max(span / DAY, 1));
    }
  }
  return avg;
}

type NewService = Omit<ServiceRow, 'id'>;

/** The columns the engine writes of a new service; the others are null (or their default, `cf`). */
const SERVICE_COLUMNS = [
  'fleet_id',
  'object_type',
  'object_id',
  'interval_id',
  'assignment_id',
  'f',
  'name',
  'description',
  'creator_id',
  'created_at',
  'updated_at',
  'planned_date',
  'forecast_date',
  'limit_mileage',
  'limit_engine_hours',
  'last_date',
  'last_mileage',
  'last_engine_hours',
  'cf',
] as const satisfies readonly (keyof NewService)[];

/** The whole row of each creation, as `select *` would read it back once written. */
async function newServices(trx: Kysely<Database>, work: Plan, at: number): Promise<NewService[]> {
  const withMileage = work.creations.filter(
    (c) => c.assignment.object_type === 'u' && c.evaluation.remaining.mileage !== null,
  );
  const avg = await averageDailyKm(trx, [...new Set(withMileage.map((c) => c.assignment.object_id))], at);
  const t = now();
  return work.creations.map(({ assignment: a, interval: i, evaluation: e, tz }) => {
    const unit = a.object_type === 'u';
    return {
      fleet_id: a.fleet_id,
      object_type: a.object_type,
      object_id: a.object_id,
      interval_id: i.id,
      assignment_id: a.id,
      f: ServiceFlag.upcoming | e.overdueFlags,
      name: i.name,
      description: i.description,
      creator_id: null,
      created_at: t,
      updated_at: t,
      start_date: null,
      end_date: null,
      planned_date: e.plannedDate,
      forecast_date: unit
        ? forecastDate(e.remaining.mileage, avg.get(a.object_id) ?? null, e.today, tz)
        : null,
      limit_mileage: e.remaining.mileage === null ? null : a.lcnm + i.cnmd,
      limit_engine_hours: e.remaining.engineHours === null ? null : a.lceh + i.cnehd,
      last_date: a.ltm,
      last_mileage: unit ? a.lcnm : null,
      last_engine_hours: unit ? a.lceh : null,
      mileage: null,
      engine_hours: null,
      manual_cost: null,
      notify_days: null,
      cf: '[]',
    };
  });
}

/**
 * Writes the rows; returns those written with their ids. Another writer may have opened a service
 * meanwhile: the partial unique index `services_open_assignment` refuses it and the row is skipped.
 */
async function insertServices(
  trx: Kysely<Database>,
  placeholder: Placeholder,
  rows: NewService[],
): Promise<ServiceRow[]> {
  const byAssignment = new Map(rows.map((r) => [r.assignment_id, r]));
  // Only the ids come back: the engine has every other column at hand (db/bulk.ts `returning`).
  const written = await bulkInsert<{ id: number; assignment_id: number }>(
    trx,
    placeholder,
    { table: 'services', columns: SERVICE_COLUMNS, skipConflicts: true, returning: ['id', 'assignment_id'] },
    rows.map((row) => SERVICE_COLUMNS.map((c) => row[c])),
  );
  // The row objects become the written rows (no copy of 26 fields per service).
  const created: ServiceRow[] = [];
  for (const r of written) created.push(Object.assign(byAssignment.get(r.assignment_id)!, { id: r.id }));
  return created.sort((a, b) => a.id - b.id);
}

/** An interval's line item as the engine copies it. */
interface LineItem {
  interval_id: number;
  position: number;
  name: string;
  kind: number;
  qty: number;
  cost: number;
}

/**
 * The line items the engine copies, read once in the transaction and joined to the new services by
 * value (`values` rows, typed for PostgreSQL), so that what is written is exactly what the live events
 * carry: no reading back, and no second read of the intervals' items that another writer could change
 * in between (PostgreSQL reads each statement's own snapshot). One `insert … select` per chunk of
 * services: the rows never travel through the process.
 */
function copyStatement(lines: LineItem[], serviceIds: number[]) {
  const values = sql.join(
    lines.map(
      (l) =>
        sql`(cast(${l.interval_id} as integer), cast(${l.position} as integer), cast(${l.name} as text), cast(${l.kind} as integer), cast(${l.qty} as bigint), cast(${l.cost} as bigint))`,
    ),
  );
  // VALUES columns are column1… on both dialects.
  return sql`insert into service_line_items (service_id, position, name, kind, qty, cost)
    select s.id, l.column2, l.column3, l.column4, l.column5, l.column6
    from services s join (values ${values}) as l on l.column1 = s.interval_id
    where s.id in (${sql.join(serviceIds)})
    order by s.id, l.column2`;
}

/** Six parameters per line item besides the ids: well under both dialects' limits, whatever the intervals. */
const LINES_PER_STATEMENT = 500;

/** Copies each interval's line items onto its new services; returns them by interval for the events. */
async function copyLineItems(
  trx: Kysely<Database>,
  created: ServiceRow[],
): Promise<Map<number, IntervalLines>> {
  const intervalIds = [...new Set(created.map((s) => s.interval_id as number))];
  const items = new Map<number, LineItem[]>(intervalIds.map((id) => [id, []]));
  const all: LineItem[] = [];
  for (const part of chunks(intervalIds))
    for (const r of await trx
      .selectFrom('interval_line_items')
      .select(['interval_id', 'position', 'name', 'kind', 'qty', 'cost'])
      .where('interval_id', 'in', part)
      .orderBy('interval_id')
      .orderBy('position')
      .execute()) {
      items.get(r.interval_id)!.push(r);
      all.push(r);
    }
  for (const lines of chunks(all, LINES_PER_STATEMENT)) {
    const intervals = new Set(lines.map((l) => l.interval_id));
    const ids = created.filter((s) => intervals.has(s.interval_id as number)).map((s) => s.id);
    for (const part of chunks(ids)) await copyStatement(lines, part).execute(trx);
  }
  const out = new Map<number, IntervalLines>();
  for (const [id, list] of items)
    out.set(id, {
      wire: list.map(lineToWire),
      cost: list.reduce((sum, l) => sum + multiplyThousandths(l.qty, l.cost), 0),
    });
  return out;
}

/** Writes the plan's new Due services with their line items, in the caller's transaction. */
export async function createServices(
  trx: Kysely<Database>,
  placeholder: Placeholder,
  work: Plan,
  at: number,
): Promise<Created> {
  if (work.creations.length === 0) return { rows: [], lines: new Map() };
  const rows = await insertServices(trx, placeholder, await newServices(trx, work, at));
  return { rows, lines: await copyLineItems(trx, rows) };
}
