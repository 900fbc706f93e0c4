import { METER_REFUSED_PER_UNIT_MAX, MeterReason } from '@fleetkeep/core';
import type { Insertable } from 'kysely';
import type { MeterReadingTable } from '../../db/schema.js';
import { countersChanged } from '../../events/domain.js';
import { recordDomainEvents } from '../../events/outbox.js';
import { FUTURE_TOLERANCE_S, MAX_KM_PER_DAY } from '../../telematics/rules.js';
import { recordCorrection } from '../statistics/counter-days.js';
import { round3, shiftOf } from './records.js';
import type { Run } from './run.js';

/**
 * LubeLogger odometer records on existing units: a vehicle mapped to a unit of the
 * fleet moves that unit's mileage by the same rules as any reading of its meter history (PRODUCT.md
 * "Service objects and counters", telematics/rules.ts `decide` for a reading that carries an odometer),
 * kept there with source "import". A record older than the unit's newest reading, one lower than its
 * counter, a jump beyond 3,000 km a day or a date in the future is refused with its reason, like any
 * reading, and a manager may accept it from the meter history. An accepted record that moves the
 * counter is booked as a correction (not distance driven, as a hand correction: statistics), records a
 * "counters changed" domain event and, after commit, the unit's live event and the status engine.
 */

/** Device identifier of the meter rows of a LubeLogger import (so that accepting one sets no baseline). */
export const LUBELOGGER_DEVICE = 'lubelogger';
const EPSILON = 0.001;
const DAY_MS = 86_400_000;

/** A unit's mileage as the rules see it: its actual counter (km) and its newest reading's time. */
export interface OdometerState {
  counter: number;
  newestMs: number | null;
}

/** The decision on one odometer record (km, at `ms`) against `state`, at `nowS` (Unix seconds). */
export function decideOdometer(
  state: OdometerState,
  km: number,
  ms: number,
  nowS: number,
): { ok: true; state: OdometerState } | { ok: false; reason: string } {
  if (ms > (nowS + FUTURE_TOLERANCE_S) * 1000) return { ok: false, reason: MeterReason.future };
  if (state.newestMs !== null && ms <= state.newestMs) return { ok: false, reason: MeterReason.outOfOrder };
  if (km < state.counter - EPSILON) return { ok: false, reason: MeterReason.odometerBackwards };
  if (state.newestMs !== null) {
    const days = Math.max(1, Math.ceil((ms - state.newestMs) / DAY_MS));
    if (km - state.counter > MAX_KM_PER_DAY * days) return { ok: false, reason: MeterReason.mileageJump };
  }
  return { ok: true, state: { counter: Math.max(state.counter, km), newestMs: ms } };
}

export interface OdometerRecord {
  /** Time the record stands for, Unix milliseconds (noon of its fleet day). */
  ms: number;
  /** The odometer in km. */
  km: number;
  file: string;
  line: number;
}

/**
 * Applies a vehicle's odometer records to an existing unit, oldest first, inside the import's
 * transaction; returns how many were refused.
 */
export async function applyOdometers(run: Run, unitId: number, records: OdometerRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const { trx, fleet, actor, t } = run;
  const unit = await run.ctx.db.ops
    .forUpdate(trx.selectFrom('units').selectAll().where('id', '=', unitId).where('fleet_id', '=', fleet.id))
    .executeTakeFirstOrThrow();
  const newest = await trx
    .selectFrom('meter_readings')
    .select((eb) => eb.fn.max<number>('tm_ms').as('ms'))
    .where('unit_id', '=', unitId)
    .where('status', '<>', 'refused')
    .executeTakeFirst();
  const shift = shiftOf(unit).mileage;
  const lastMs = unit.last_ms ?? (unit.last_time === null ? null : unit.last_time * 1000);
  const newestRow = newest?.ms === null || newest?.ms === undefined ? null : Number(newest.ms);
  let state: OdometerState = {
    counter: unit.mileage + shift,
    newestMs: lastMs === null ? newestRow : newestRow === null ? lastMs : Math.max(lastMs, newestRow),
  };
  const rows: Insertable<MeterReadingTable>[] = [];
  let refused = 0;
  const sorted = [...records].sort((a, b) => a.ms - b.ms || a.line - b.line);
  for (const r of sorted) {
    const payload = JSON.stringify({ file: r.file, line: r.line, odometer_km: r.km });
    const base = {
      fleet_id: fleet.id,
      unit_id: unitId,
      tm_ms: r.ms,
      received_at: t,
      source: 'import',
      device_id: LUBELOGGER_DEVICE,
      engine_hours: null,
      payload,
    };
    const decision = decideOdometer(state, r.km, r.ms, t);
    if (!decision.ok) {
      refused++;
      rows.push({ ...base, status: 'refused', reason: decision.reason, mileage: round3(r.km - shift) });
      continue;
    }
    rows.push({
      ...base,
      status: 'accepted',
      mileage: round3(decision.state.counter - shift),
      old_mileage: round3(state.counter - shift),
    });
    state = decision.state;
  }
  for (let i = 0; i < rows.length; i += 500)
    await trx
      .insertInto('meter_readings')
      .values(rows.slice(i, i + 500))
      .execute();
  await trimRefused(run, unitId);
  const mileage = round3(state.counter - shift);
  if (mileage !== unit.mileage) {
    await trx.updateTable('units').set({ mileage }).where('id', '=', unitId).execute();
    // The step is no distance driven: it joins the unit's corrections (statistics/counter-days.ts).
    await recordCorrection(trx, unitId, { mileage: mileage - unit.mileage, engineHours: 0 });
    await recordDomainEvents(trx, [
      countersChanged(
        { id: unitId, fleetId: fleet.id, mileage, engineHours: unit.engine_hours },
        t,
        actor.userId,
      ),
    ]);
    run.published.counters.push(unitId);
  }
  return refused;
}

/** The meter history keeps a unit's newest refused readings only (core contracts/meter.ts). */
async function trimRefused(run: Run, unitId: number) {
  const edge = await run.trx
    .selectFrom('meter_readings')
    .select('id')
    .where('unit_id', '=', unitId)
    .where('status', '=', 'refused')
    .orderBy('id', 'desc')
    .offset(METER_REFUSED_PER_UNIT_MAX)
    .limit(1)
    .executeTakeFirst();
  if (edge)
    await run.trx
      .deleteFrom('meter_readings')
      .where('unit_id', '=', unitId)
      .where('status', '=', 'refused')
      .where('id', '<=', edge.id)
      .execute();
}
