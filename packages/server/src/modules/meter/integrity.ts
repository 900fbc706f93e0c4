import type { MeterChangeReply, MeterReadingBody, MeterVoidBody } from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { countersChanged } from '../../events/domain.js';
import { type UnitOfWork, unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput, notFound } from '../../http/errors.js';
import {
  applyPendingShifts,
  planBaselineShift,
  shiftedIntervalEvents,
} from '../../telematics/baseline-shift.js';
import { decideRecorded } from '../../telematics/rules.js';
import { recordCorrection } from '../statistics/counter-days.js';

import {
  announceMove,
  type CounterChange,
  countersOf,
  readingEntry,
  setCounters,
  type unitOf,
} from './service.js';

/**
 * Meter integrity (docs/product.md "Meter integrity"; PRODUCT.md "Service objects and counters"): a
 * manager voids and restores readings, records one by hand (also the fuel filling's mileage), and marks
 * a meter replaced. The history itself and the hand corrections are in service.ts.
 */

type Trx = UnitOfWork['trx'];
type UnitRow = Awaited<ReturnType<typeof unitOf>>;
type Field = 'mileage' | 'engine_hours';
const EPSILON = 0.001;

async function lockUnit(ctx: AppContext, trx: Trx, fleetId: number, unitId: number): Promise<UnitRow> {
  const unit = await ctx.db.ops
    .forUpdate(trx.selectFrom('units').selectAll().where('id', '=', unitId).where('fleet_id', '=', fleetId))
    .executeTakeFirst();
  if (!unit) throw notFound('Unit not found');
  return unit;
}

/**
 * The newest valid entry of the unit that sets `field` (a kept reading not voided, or a correction),
 * other than reading `exceptId`: its time (Unix ms) and value. Null when there is none.
 */
async function newestValid(
  trx: Trx,
  fleetId: number,
  unitId: number,
  field: Field,
  exceptId: number,
): Promise<{ ms: number; value: number } | null> {
  const reading = await trx
    .selectFrom('meter_readings')
    .select(['tm_ms', field])
    .where('unit_id', '=', unitId)
    .where('fleet_id', '=', fleetId)
    .where('status', 'in', ['accepted', 'baseline'])
    .where('voided_at', 'is', null)
    .where(field, 'is not', null)
    .where('id', '!=', exceptId)
    .orderBy('tm_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const correction = await trx
    .selectFrom('counter_corrections')
    .select(['tm', 'new_value'])
    .where('unit_id', '=', unitId)
    .where('field', '=', field)
    .orderBy('tm', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const r = reading ? { ms: Number(reading.tm_ms), value: Number(reading[field]) } : null;
  const c = correction ? { ms: Number(correction.tm) * 1000, value: correction.new_value } : null;
  if (r && c) return c.ms > r.ms ? c : r;
  return r ?? c;
}

/** The newest time the unit's counters stand for: its last message or its newest valid reading, Unix ms. */
async function counterTime(trx: Trx, unit: UnitRow): Promise<number | null> {
  const newest = await trx
    .selectFrom('meter_readings')
    .select((eb) => eb.fn.max('tm_ms').as('ms'))
    .where('unit_id', '=', unit.id)
    .where('fleet_id', '=', unit.fleet_id)
    .where('status', 'in', ['accepted', 'baseline'])
    .where('voided_at', 'is', null)
    .executeTakeFirst();
  const ms = newest?.ms === null || newest?.ms === undefined ? null : Number(newest.ms);
  const last = unit.last_ms === null ? null : Number(unit.last_ms);
  if (ms === null) return last;
  return last === null ? ms : Math.max(ms, last);
}

/**
 * The unit's counters with reading `row` voided (`voiding`) or restored, from the valid history: a
 * counter moves only where the reading is the newest valid entry setting it and not older than the unit's
 * last device message (a device's later readings stand for themselves). Voiding one that holds the
 * counter takes it back to the newest other valid entry; restoring one takes the counter to its value.
 */
async function countersAfter(
  trx: Trx,
  unit: UnitRow,
  row: { id: number; tm_ms: number; mileage: number | null; engine_hours: number | null },
  voiding: boolean,
): Promise<CounterChange> {
  const next = { mileage: unit.mileage, engineHours: unit.engine_hours };
  const ms = Number(row.tm_ms);
  if (unit.last_ms !== null && ms < Number(unit.last_ms)) return next;
  for (const [field, key] of [
    ['mileage', 'mileage'],
    ['engine_hours', 'engineHours'],
  ] as const) {
    const value = row[field];
    if (value === null) continue;
    const other = await newestValid(trx, unit.fleet_id!, unit.id, field, row.id);
    if (other && other.ms > ms) continue;
    if (voiding) {
      if (other && Math.abs(next[key] - value) < EPSILON) next[key] = other.value;
    } else next[key] = value;
  }
  return next;
}

async function readingOf(trx: Trx, fleetId: number, unitId: number, readingId: number) {
  const reading = await trx
    .selectFrom('meter_readings')
    .selectAll()
    .where('id', '=', readingId)
    .where('unit_id', '=', unitId)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!reading) throw notFound('Reading not found');
  return reading;
}

/** Voids or restores a reading in one unit of work; the counters follow (`countersAfter`). */
async function setVoided(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  readingId: number,
  reason: string | null,
): Promise<MeterChangeReply> {
  await requireFleet(ctx, actor, fleetId, 'meter.manage');
  const t = now();
  const voiding = reason !== null;
  let applied = false;
  await unitOfWork(ctx, async (trx, uow) => {
    const unit = await lockUnit(ctx, trx, fleetId, unitId);
    const reading = await readingOf(trx, fleetId, unitId, readingId);
    // A refused reading counts for nothing already; a baseline set a device's scale (and may have moved
    // the interval baselines): "meter replaced" is the way to a new scale (docs/product.md).
    if (reading.status === 'refused') throw conflict('A refused reading cannot be voided');
    if (reading.status !== 'accepted') throw conflict('Only an accepted reading can be voided');
    if (voiding && reading.voided_at !== null) throw conflict('Reading is already voided');
    if (!voiding && reading.voided_at === null) throw conflict('Reading is not voided');
    await trx
      .updateTable('meter_readings')
      .set(
        voiding
          ? { voided_at: t, voided_by: actor.userId, void_reason: reason, void_auto: 0 }
          : { voided_at: null, voided_by: null, void_reason: null, void_auto: 0 },
      )
      .where('id', '=', readingId)
      .execute();
    const next = await countersAfter(trx, unit, reading, voiding);
    applied = next.mileage !== unit.mileage || next.engineHours !== unit.engine_hours;
    if (!applied) return;
    await setCounters(
      uow,
      { id: unitId, fleetId, mileage: unit.mileage, engineHours: unit.engine_hours },
      next,
      {},
      t,
      actor.userId,
    );
    announceMove(uow, ctx, fleetId, unitId);
  });
  const counters = await countersOf(ctx, unitId);
  return { ...counters, applied, entries: [await readingEntry(ctx.db.kysely, readingId)] };
}

/** POST .../meter/{readingId}/void: kept in the history with who, when and why; counted for nothing. */
export function voidReading(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  readingId: number,
  body: MeterVoidBody,
): Promise<MeterChangeReply> {
  return setVoided(ctx, actor, fleetId, unitId, readingId, body.reason);
}

/** POST .../meter/{readingId}/restore: a voided reading (by hand or automatically) counts again. */
export function restoreReading(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  readingId: number,
): Promise<MeterChangeReply> {
  return setVoided(ctx, actor, fleetId, unitId, readingId, null);
}

/**
 * POST .../meter/readings: a reading recorded by a person (source manual), e.g. of an untracked vehicle.
 * The counter rules decide it (telematics/rules.ts `decideRecorded`, with the fleet's daily distance
 * limit): valid, its counters become the unit's and the status engine runs as for a device reading (the
 * "counters changed" event); voided automatically, it is kept with the reason for a manager to restore.
 * Its step is distance driven, not a correction.
 */
export async function recordReading(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  body: MeterReadingBody,
): Promise<MeterChangeReply> {
  await requireFleet(ctx, actor, fleetId, 'meter.manage');
  let recorded: Recorded = { id: 0, applied: false };
  await unitOfWork(ctx, async (_trx, uow) => {
    const result = await recordInWork(ctx, uow, actor.userId, fleetId, unitId, body, 'manual');
    if (!result.ok) throw invalidInput([{ field: 'tm', message: result.reason }]);
    recorded = result;
  });
  const counters = await countersOf(ctx, unitId);
  return {
    ...counters,
    applied: recorded.applied,
    entries: [await readingEntry(ctx.db.kysely, recorded.id)],
  };
}

interface Recorded {
  id: number;
  applied: boolean;
}

/**
 * Records a reading (manual, or the mileage of a fuel filling) in the caller's unit of work: the counter
 * rules decide it, the history keeps it (voided automatically when the rules say so), and a valid one
 * moves the counters with a "counters changed" event. A reading the rules refuse (in the future) is not
 * stored: `{ok: false, reason}`.
 */
export async function recordInWork(
  ctx: AppContext,
  uow: UnitOfWork,
  userId: number,
  fleetId: number,
  unitId: number,
  body: MeterReadingBody,
  source: 'manual' | 'fuel',
): Promise<({ ok: true } & Recorded) | { ok: false; reason: string }> {
  const { trx } = uow;
  const t = now();
  const unit = await lockUnit(ctx, trx, fleetId, unitId);
  const fleet = await trx
    .selectFrom('fleets')
    .select('meter_daily_distance_max')
    .where('id', '=', fleetId)
    .executeTakeFirstOrThrow();
  const ms = (body.tm ?? t) * 1000;
  const reading = { ms, mileage: body.cnm ?? null, engineHours: body.cneh ?? null };
  const prev = {
    lastMs: await counterTime(trx, unit),
    mileage: unit.mileage,
    engineHours: unit.engine_hours,
  };
  // The meter was replaced since the last reading: this one starts the new scale (a baseline).
  const replaced = await trx
    .selectFrom('meter_readings')
    .select(['status', 'tm_ms'])
    .where('unit_id', '=', unitId)
    .where('fleet_id', '=', fleetId)
    .where('status', 'in', ['accepted', 'baseline', 'replaced'])
    .where('voided_at', 'is', null)
    .orderBy('tm_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const baseline = replaced?.status === 'replaced' && ms >= Number(replaced.tm_ms);
  const decision = baseline
    ? decideRecorded({ ...prev, lastMs: null }, reading, t, fleet.meter_daily_distance_max)
    : decideRecorded(prev, reading, t, fleet.meter_daily_distance_max);
  if (!decision.ok) return { ok: false, reason: decision.reason };
  const next = {
    mileage: reading.mileage ?? unit.mileage,
    engineHours: reading.engineHours ?? unit.engine_hours,
  };
  // A new scale: the unit's interval baselines move by the step (telematics/baseline-shift.ts), applied
  // right after the commit as a device's new baseline is.
  const shift = baseline
    ? await planBaselineShift(
        trx,
        { id: unitId, fleetId },
        { mileage: next.mileage - unit.mileage, engineHours: next.engineHours - unit.engine_hours },
        { mileage: reading.mileage !== null, engineHours: reading.engineHours !== null },
      )
    : null;
  const row = await trx
    .insertInto('meter_readings')
    .values({
      fleet_id: fleetId,
      unit_id: unitId,
      tm_ms: ms,
      received_at: t,
      source,
      status: baseline ? 'baseline' : 'accepted',
      mileage: reading.mileage,
      engine_hours: reading.engineHours,
      old_mileage: baseline && reading.mileage !== null ? unit.mileage : null,
      old_engine_hours: baseline && reading.engineHours !== null ? unit.engine_hours : null,
      shift_mileage: shift?.mileage ?? null,
      shift_engine_hours: shift?.engineHours ?? null,
      shift_pending: shift ? 1 : 0,
      device_id: '',
      accepted_by: userId,
      accepted_at: t,
      voided_at: decision.voided === null ? null : t,
      void_reason: decision.voided,
      void_auto: decision.voided === null ? 0 : 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = row.id;
  if (decision.voided !== null) return { ok: true, id, applied: false };
  if (shift)
    uow.afterCommit(async () => {
      const moved = await applyPendingShifts(ctx, [unitId]);
      return shiftedIntervalEvents(ctx.db.kysely, moved);
    });
  if (next.mileage === unit.mileage && next.engineHours === unit.engine_hours)
    return { ok: true, id, applied: true };
  await trx
    .updateTable('units')
    .set({ mileage: next.mileage, engine_hours: next.engineHours })
    .where('id', '=', unitId)
    .execute();
  // A new scale's step is no distance driven: booked as a correction (statistics).
  if (baseline)
    await recordCorrection(trx, unitId, {
      mileage: next.mileage - unit.mileage,
      engineHours: next.engineHours - unit.engine_hours,
    });
  await uow.record([countersChanged({ id: unitId, fleetId, ...next }, t, userId)]);
  announceMove(uow, ctx, fleetId, unitId);
  return { ok: true, id, applied: true };
}

/**
 * POST .../meter/replaced: the unit's dashboard or tracker was replaced. Recorded in the history (with
 * the counters it ended at); the next reading starts a new scale, as a new device's first reading does
 * (telematics/rules.ts `decide` baseline; a recorded one in `recordReading`): it sets the counters, and
 * the interval baselines move by the step so that each keeps the distance since its last service.
 */
export async function meterReplaced(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
): Promise<MeterChangeReply> {
  await requireFleet(ctx, actor, fleetId, 'meter.manage');
  const t = now();
  let id = 0;
  await unitOfWork(ctx, async (trx) => {
    const unit = await lockUnit(ctx, trx, fleetId, unitId);
    const row = await trx
      .insertInto('meter_readings')
      .values({
        fleet_id: fleetId,
        unit_id: unitId,
        // After the unit's last message: the device's next reading is the new scale's first.
        tm_ms: Math.max(t * 1000, unit.last_ms === null ? 0 : Number(unit.last_ms)),
        received_at: t,
        source: 'manual',
        status: 'replaced',
        old_mileage: unit.mileage,
        old_engine_hours: unit.engine_hours,
        device_id: unit.device_id ?? '',
        accepted_by: actor.userId,
        accepted_at: t,
        shift_pending: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = row.id;
    // A device's next odometer (engine hours) is a baseline again (migration 016).
    await trx
      .updateTable('units')
      .set({ meter_odo_device: null, meter_hours_device: null })
      .where('id', '=', unitId)
      .execute();
  });
  const counters = await countersOf(ctx, unitId);
  return { ...counters, applied: true, entries: [await readingEntry(ctx.db.kysely, id)] };
}
