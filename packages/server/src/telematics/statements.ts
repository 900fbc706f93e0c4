import { CompiledQuery, type Insertable, type Selectable, type Transaction } from 'kysely';
import { bulkInsert, MAX_ROWS } from '../db/bulk.js';
import type { DialectOps } from '../db/dialect/index.js';
import type { Database, PositionTable, UnitTable } from '../db/schema.js';
import { DOMAIN_EVENT_COLUMNS } from '../events/outbox.js';

/**
 * The hot statements of ingestion, their text made once per dialect and row count (Kysely
 * built, parsed and compiled them anew for every group commit and every batch, a large share of the
 * ingestion CPU, most of it for the thousands of values of a batch). The texts are plain SQL that both
 * dialects read alike apart from placeholders (db/dialect `placeholder`) and the row lock of PostgreSQL.
 */

/** The columns of a unit that ingestion reads, and the account of its fleet. */
export const UNIT_COLUMNS = [
  'id',
  'fleet_id',
  'device_id',
  'last_time',
  'lat',
  'lon',
  'speed',
  'course',
  'altitude',
  'ignition',
  'mileage',
  'engine_hours',
  'params',
  // meter (016): millisecond order, baselines, actual counters.
  'last_ms',
  'meter_odo_device',
  'meter_hours_device',
  'base_mileage',
  'base_engine_hours',
  // statistics: the unit's counter history state, in the same select.
  'counter_day',
  'counter_day_end',
  'counter_off_mileage',
  'counter_off_engine_hours',
] as const;

export type UnitRow = Pick<Selectable<UnitTable>, (typeof UNIT_COLUMNS)[number]> & {
  fleet_account_id: number | null;
  /** The fleet's daily distance limit, km (migration 032); null outside any fleet. */
  fleet_daily_max: number | null;
  /** The fleet's zone, for the counter history's days (modules/statistics); null outside any fleet. */
  fleet_tz: number | null;
};

const POSITION_COLUMNS = [
  'unit_id',
  'tm',
  'lat',
  'lon',
  'speed',
  'course',
  'altitude',
  'ignition',
  'mileage',
  'engine_hours',
] as const;

/** Texts per dialect and row count; counts above this are rare (big batches) and not kept. */
const KEEP_TEXTS_UP_TO = 1000;
const texts = new Map<string, string>();

function text(ops: DialectOps, kind: string, n: number, make: () => string): string {
  if (n > KEEP_TEXTS_UP_TO) return make();
  const key = `${ops.name} ${kind} ${n}`;
  let made = texts.get(key);
  if (made === undefined) {
    made = make();
    texts.set(key, made);
  }
  return made;
}

/** `(?, ?, …), (…)` for `rows` rows of `width` values, numbered from `from` + 1. */
function tuples(ops: DialectOps, rows: number, width: number, from = 0, cell = (p: string, _c: number) => p) {
  const out: string[] = [];
  let k = from;
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < width; c++) cells.push(cell(ops.placeholder(++k), c));
    out.push(`(${cells.join(', ')})`);
  }
  return out.join(', ');
}

/**
 * The units of the given device identifiers, in id order, locked on PostgreSQL (FOR UPDATE: concurrent
 * messages of a unit apply one after another; the fleet's row is read, not locked): with their fleet's
 * account, daily distance limit and zone, so that deciding and planning the group reads nothing more.
 */
export async function selectUnits(
  trx: Transaction<Database>,
  ops: DialectOps,
  deviceIds: string[],
): Promise<UnitRow[]> {
  const sqlText = text(ops, 'units', deviceIds.length, () => {
    const columns = UNIT_COLUMNS.map((c) => `"units"."${c}"`).join(', ');
    const list = deviceIds.map((_, k) => ops.placeholder(k + 1)).join(', ');
    return `select ${columns}, (select "fleets"."account_id" from "fleets" where "fleets"."id" = "units"."fleet_id") as "fleet_account_id", (select "fleets"."meter_daily_distance_max" from "fleets" where "fleets"."id" = "units"."fleet_id") as "fleet_daily_max", (select "fleets"."tz" from "fleets" where "fleets"."id" = "units"."fleet_id") as "fleet_tz" from "units" where "units"."device_id" in (${list}) order by "units"."id"${ops.forUpdateText}`;
  });
  const { rows } = await trx.executeQuery<UnitRow>(CompiledQuery.raw(sqlText, deviceIds));
  return rows;
}

const positionValues = (p: Insertable<PositionTable>): unknown[] => [
  p.unit_id,
  p.tm,
  p.lat,
  p.lon,
  p.speed ?? null,
  p.course ?? null,
  p.altitude ?? null,
  p.ignition ?? null,
  p.mileage ?? 0,
  p.engine_hours ?? 0,
];

/** Inserts positions (db/bulk.ts: statements of up to 500 rows, each text built once). */
export async function insertPositions(
  trx: Transaction<Database>,
  ops: DialectOps,
  positions: Insertable<PositionTable>[],
): Promise<void> {
  await bulkInsert(
    trx,
    ops.placeholder,
    { table: 'positions', columns: POSITION_COLUMNS },
    positions.map(positionValues),
  );
}

/** Units per update statement: 14 parameters each, well inside both dialects' limits. */
export const UPDATE_CHUNK = 200;

/** What a group writes last: its positions, its units' live columns and its domain events. */
export interface LiveWrites {
  positions: Insertable<PositionTable>[];
  /** The units' columns and their SQL types (`updateMany`), and per unit its id and values. */
  columns: readonly string[];
  types: readonly string[];
  units: unknown[][];
  /** Outbox rows (events/outbox.ts `domainEventRows`). */
  events: unknown[][];
}

/**
 * Writes a group's positions, units and domain events. Where writes may stand in a `with` clause
 * (PostgreSQL, db/dialect `writingCtes`) a group of up to a chunk of each goes in one statement, all on
 * one snapshot, none reading another's rows: one round trip instead of three, where a group's cost is
 * its round trips. Its text is made per group, not kept (the row counts vary three
 * ways; a few hundred placeholders cost microseconds against a round trip). Otherwise, and on SQLite (no
 * round trips), statement by statement.
 */
export async function writeLive(trx: Transaction<Database>, ops: DialectOps, w: LiveWrites): Promise<void> {
  const fits =
    w.positions.length <= MAX_ROWS && w.events.length <= MAX_ROWS && w.units.length <= UPDATE_CHUNK;
  if (ops.writingCtes && fits && w.units.length > 0) {
    const positions = w.positions.map(positionValues);
    const parts: string[] = [];
    let k = 0;
    const insert = (name: string, table: string, columns: readonly string[], rows: unknown[][]) => {
      if (rows.length === 0) return;
      const names = columns.map((c) => `"${c}"`).join(', ');
      parts.push(
        `"${name}" as (insert into "${table}" (${names}) values ${tuples(ops, rows.length, columns.length, k)})`,
      );
      k += rows.length * columns.length;
    };
    insert('p', 'positions', POSITION_COLUMNS, positions);
    insert('e', 'domain_events', DOMAIN_EVENT_COLUMNS, w.events);
    const update = updateText(ops, w.columns, w.types, w.units.length, k);
    const sqlText = `with ${parts.join(', ')}${parts.length ? ', ' : ''}${update}`;
    await trx.executeQuery(
      CompiledQuery.raw(sqlText, [...positions.flat(), ...w.events.flat(), ...w.units.flat()]),
    );
    return;
  }
  await insertPositions(trx, ops, w.positions);
  for (let i = 0; i < w.units.length; i += UPDATE_CHUNK)
    await updateMany(trx, ops, w.columns, w.types, w.units.slice(i, i + UPDATE_CHUNK));
  await bulkInsert(trx, ops.placeholder, { table: 'domain_events', columns: DOMAIN_EVENT_COLUMNS }, w.events);
}

/** `"v" (…) as (values …) update "units" … from "v"`, its placeholders numbered from `from` + 1. */
function updateText(
  ops: DialectOps,
  columns: readonly string[],
  types: readonly string[],
  n: number,
  from = 0,
) {
  const allTypes = ['bigint', ...types];
  const names = columns.map((c) => `"${c}"`).join(', ');
  const sets = columns.map((c) => `"${c}" = "v"."${c}"`).join(', ');
  const rows = tuples(ops, n, allTypes.length, from, (p, c) => `cast(${p} as ${allTypes[c]})`);
  return `"v" ("id", ${names}) as (values ${rows}) update "units" set ${sets} from "v" where "units"."id" = "v"."id"`;
}

/**
 * One update of many units' columns (`values` per unit in `columns` order, the id first): a CTE of
 * values and UPDATE … FROM, the same text on PostgreSQL and SQLite (3.33+). Each cell is cast to its
 * SQL type so that both dialects bind alike.
 */
export async function updateMany(
  trx: Transaction<Database>,
  ops: DialectOps,
  columns: readonly string[],
  types: readonly string[],
  values: unknown[][],
): Promise<void> {
  const sqlText = text(
    ops,
    `update ${columns.join(',')}`,
    values.length,
    () => `with ${updateText(ops, columns, types, values.length)}`,
  );
  await trx.executeQuery(CompiledQuery.raw(sqlText, values.flat()));
}
