import { startOfDay } from '@fleetkeep/core';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { DialectOps } from '../../db/dialect/index.js';
import type { Database } from '../../db/schema.js';

/**
 * Writes the daily counter history (`counter_days`, migration 008) that the statistics read: per unit
 * and fleet-local day (DESIGN §2 calendar days), the counters at the day's first and last record, less
 * the unit's hand corrections (`units.counter_off_*`), so the history holds distance driven only.
 *
 * `units.counter_day` names the unit's latest row; its last counters are the unit's live ones until the
 * next day starts, when they are written. So a reading on the unit's current day writes nothing here;
 * the first reading of a new day writes two rows (the finished day's last counters, the new day's
 * first) in the ingestion transaction.
 */

export interface Counters {
  mileage: number;
  engineHours: number;
}

export interface CounterDay {
  unit_id: number;
  day: number;
  first_mileage: number;
  last_mileage: number;
  first_engine_hours: number;
  last_engine_hours: number;
}

/**
 * A unit as ingestion holds it: its fleet, its latest history day and that day's end (the start of
 * the next fleet day; `units.counter_day_end`, so that a reading needs no time zone arithmetic until
 * its day changes), and its corrections so far.
 */
export interface DayState {
  id: number;
  fleetId: number | null;
  counterDay: number | null;
  counterDayEnd: number | null;
  offset: Counters;
}

/** Rows per multi-row upsert: 6 values a row stays well inside both dialects' bind-parameter limits. */
const UPSERT_CHUNK = 1000;
/** Past the end of any local day that starts at `start` (days last 23 to 25 hours), inside the next. */
const INTO_NEXT_DAY_S = 27 * 3600;

/** End of the fleet day that starts at `day`: the start of the next one. */
export const dayEnd = (tz: number, day: number) => startOfDay(tz, day + INTO_NEXT_DAY_S);

/**
 * Collects the day changes of one ingestion group's accepted readings, in order (telematics/pipeline/
 * plan.ts). A reading before the end of the unit's latest day (or on an earlier day) changes nothing
 * here: one comparison.
 */
export class CounterDays {
  private readonly rows = new Map<string, CounterDay>();

  /**
   * One reading of a unit in fleet zone `tz` (in order): `before`, the unit's counters before the
   * reading, `after`, with it. Moves the unit's `counterDay` and `counterDayEnd`.
   */
  add(unit: DayState, tz: number, time: number, before: Counters, after: Counters): void {
    const { offset } = unit;
    if (unit.counterDay !== null) {
      unit.counterDayEnd ??= dayEnd(tz, unit.counterDay);
      if (time < unit.counterDayEnd) return;
      this.put(unit.id, unit.counterDay, before, before, offset);
    }
    const day = startOfDay(tz, time);
    this.put(unit.id, day, after, after, offset);
    unit.counterDay = day;
    unit.counterDayEnd = dayEnd(tz, day);
  }

  /** A row met twice (opened and finished in one batch) keeps its first counters and takes the last. */
  private put(unitId: number, day: number, first: Counters, last: Counters, offset: Counters): void {
    const key = `${unitId}:${day}`;
    const known = this.rows.get(key);
    const lastMileage = last.mileage - offset.mileage;
    const lastHours = last.engineHours - offset.engineHours;
    if (known) Object.assign(known, { last_mileage: lastMileage, last_engine_hours: lastHours });
    else
      this.rows.set(key, {
        unit_id: unitId,
        day,
        first_mileage: first.mileage - offset.mileage,
        last_mileage: lastMileage,
        first_engine_hours: first.engineHours - offset.engineHours,
        last_engine_hours: lastHours,
      });
  }

  list(): CounterDay[] {
    return [...this.rows.values()];
  }
}

const COLUMNS = [
  'unit_id',
  'day',
  'first_mileage',
  'last_mileage',
  'first_engine_hours',
  'last_engine_hours',
] as const;

/**
 * The upsert's text for `n` rows, built once per dialect and row count (the statement cache of
 * db/database.ts then reuses the prepared statement). A row that exists keeps its first counters and
 * takes the last ones given.
 */
const upsertTexts = new Map<string, string>();
function upsertText(ops: DialectOps, n: number): string {
  const key = `${ops.name}:${n}`;
  let text = upsertTexts.get(key);
  if (text === undefined) {
    let k = 0;
    const param = () => ops.placeholder(++k);
    const rows = Array.from({ length: n }, () => `(${COLUMNS.map(param).join(', ')})`);
    text =
      `insert into counter_days (${COLUMNS.join(', ')}) values ${rows.join(', ')} ` +
      'on conflict (unit_id, day) do update set last_mileage = excluded.last_mileage, ' +
      'last_engine_hours = excluded.last_engine_hours';
    upsertTexts.set(key, text);
  }
  return text;
}

/** One multi-row upsert (per 1,000 rows) in the caller's transaction; nothing when there is no row. */
export async function upsertCounterDays(db: Kysely<Database>, ops: DialectOps, rows: CounterDay[]) {
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    const part = rows.slice(i, i + UPSERT_CHUNK);
    const params = part.flatMap((r) => COLUMNS.map((c) => r[c]));
    await db.executeQuery(CompiledQuery.raw(upsertText(ops, part.length), params));
  }
}

/**
 * A hand correction of a unit's counters (PUT /api/fleets/{fid}/units/{id}): the step (new − old) joins
 * the unit's corrections, so the history, which stores counters less them, does not count it as distance
 * driven or engine time; the latest day goes on from the same driven counters.
 */
export async function recordCorrection(db: Kysely<Database>, unitId: number, step: Counters): Promise<void> {
  if (step.mileage === 0 && step.engineHours === 0) return;
  await db
    .updateTable('units')
    .set({
      counter_off_mileage: sql`counter_off_mileage + ${step.mileage}`,
      counter_off_engine_hours: sql`counter_off_engine_hours + ${step.engineHours}`,
    })
    .where('id', '=', unitId)
    .execute();
}
