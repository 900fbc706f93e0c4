import {
  METER_DEFAULT_DAYS,
  METER_LIST_MAX,
  type MeterChangeReply,
  type MeterCorrectionBody,
  type MeterEntryWire,
  type MeterListReply,
  type MeterReadingBody,
  type MeterVoidBody,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { countersChanged } from '../../events/domain.js';
import { type UnitOfWork, unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput, notFound } from '../../http/errors.js';
import {
  applyPendingShifts,
  planBaselineShift,
  shiftedIntervalEvents,
} from '../../telematics/baseline-shift.js';
import { acceptBecomesCounter, decideRecorded } from '../../telematics/rules.js';
import { round3, unitToWire } from '../fleets/mappers.js';
import { recordCorrection } from '../statistics/counter-days.js';
import { type CorrectionRow, correctionToWire, type ReadingRow, readingToWire } from './mappers.js';

/**
 * A unit's meter history (core contracts/meter.ts says what is kept): the readings its
 * devices sent that ingestion kept (telematics/store.ts) and the hand corrections, newest first. Any
 * member reads it (`meter.view`); a manager (`meter.manage`, manageService) accepts a refused reading or
 * enters a correction, and the status engine runs on the result (the counters listeners).
 *
 * Neither moves the unit's interval baselines: a person set the counter deliberately (its step is
 * booked as a correction), whereas a device's new baseline moves them along (telematics/baseline-shift.ts).
 */

const DAY_S = 86_400;

async function unitOf(db: Kysely<Database>, fleetId: number, unitId: number) {
  const unit = await db
    .selectFrom('units')
    .selectAll()
    .where('id', '=', unitId)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!unit) throw notFound('Unit not found');
  return unit;
}

const readingColumns = [
  'meter_readings.id',
  'meter_readings.tm_ms',
  'meter_readings.source',
  'meter_readings.status',
  'meter_readings.mileage',
  'meter_readings.engine_hours',
  'meter_readings.old_mileage',
  'meter_readings.old_engine_hours',
  'meter_readings.shift_mileage',
  'meter_readings.shift_engine_hours',
  'meter_readings.reason',
  'meter_readings.accepted_by',
  'meter_readings.accepted_at',
  'users.name as by_name',
  'users.full_name as by_full_name',
  'meter_readings.voided_at',
  'meter_readings.voided_by',
  'meter_readings.void_reason',
  'meter_readings.void_auto',
  'voider.name as void_name',
  'voider.full_name as void_full_name',
] as const;

/** History rows with who accepted (recorded) and who voided them. */
const selectReadings = (db: Kysely<Database>) =>
  db
    .selectFrom('meter_readings')
    .leftJoin('users', 'users.id', 'meter_readings.accepted_by')
    .leftJoin('users as voider', 'voider.id', 'meter_readings.voided_by')
    .select(readingColumns);

async function readingEntry(db: Kysely<Database>, id: number): Promise<MeterEntryWire> {
  const row: ReadingRow = await selectReadings(db)
    .where('meter_readings.id', '=', id)
    .executeTakeFirstOrThrow();
  return readingToWire(row);
}

/** GET /api/fleets/{fid}/units/{id}/meter?from&to: entries of the period (Unix seconds), newest first. */
export async function listMeter(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  from?: number,
  to?: number,
): Promise<MeterListReply> {
  await requireFleet(ctx, actor, fleetId, 'meter.view');
  const db = ctx.db.kysely;
  const unit = await unitOf(db, fleetId, unitId);
  const end = to ?? now();
  const start = from ?? Math.max(0, end - METER_DEFAULT_DAYS * DAY_S);
  // Rows the fleet's own: readings stored while the unit was in this fleet, corrections since it joined.
  const readings: ReadingRow[] = await selectReadings(db)
    .where('meter_readings.unit_id', '=', unitId)
    .where('meter_readings.fleet_id', '=', fleetId)
    .where('meter_readings.tm_ms', '>=', start * 1000)
    .where('meter_readings.tm_ms', '<', (end + 1) * 1000)
    .orderBy('meter_readings.tm_ms', 'desc')
    .orderBy('meter_readings.id', 'desc')
    .limit(METER_LIST_MAX + 1)
    .execute();
  const corrections: CorrectionRow[] = await db
    .selectFrom('counter_corrections')
    .leftJoin('users', 'users.id', 'counter_corrections.user_id')
    .select([
      'counter_corrections.id',
      'counter_corrections.tm',
      'counter_corrections.field',
      'counter_corrections.old_value',
      'counter_corrections.new_value',
      'counter_corrections.user_id',
      'users.name as by_name',
      'users.full_name as by_full_name',
    ])
    .where('counter_corrections.unit_id', '=', unitId)
    .where('counter_corrections.tm', '>=', Math.max(start, unit.joined_at ?? 0))
    .where('counter_corrections.tm', '<=', end)
    .orderBy('counter_corrections.tm', 'desc')
    .orderBy('counter_corrections.id', 'desc')
    .limit(METER_LIST_MAX + 1)
    .execute();
  const entries = [...readings.map(readingToWire), ...corrections.map(correctionToWire)].sort(
    (a, b) => b.tm - a.tm || (a.kind === b.kind ? b.id - a.id : a.kind === 'correction' ? -1 : 1),
  );
  return { entries: entries.slice(0, METER_LIST_MAX), more: entries.length > METER_LIST_MAX };
}

interface CounterChange {
  mileage: number;
  engineHours: number;
}

/**
 * Writes a unit's new counters in the caller's transaction: the step joins the unit's corrections, so
 * the statistics do not count it as distance driven (modules/statistics/counter-days.ts), and the
 * "counters changed" domain event is recorded with it.
 */
async function setCounters(
  uow: UnitOfWork,
  unit: { id: number; fleetId: number; mileage: number; engineHours: number },
  next: CounterChange,
  extra: { meter_odo_device?: string; meter_hours_device?: string },
  t: number,
  by: number,
): Promise<void> {
  const { trx } = uow;
  await trx
    .updateTable('units')
    .set({ mileage: next.mileage, engine_hours: next.engineHours, ...extra })
    .where('id', '=', unit.id)
    .execute();
  await recordCorrection(trx, unit.id, {
    mileage: next.mileage - unit.mileage,
    engineHours: next.engineHours - unit.engineHours,
  });
  await uow.record([countersChanged({ id: unit.id, fleetId: unit.fleetId, ...next }, t, by)]);
}

/** After the commit of counters that moved: the unit's live event, then the status engine. */
function announceMove(uow: UnitOfWork, ctx: AppContext, fleetId: number, unitId: number): void {
  uow.afterCommit(async () => {
    const unit = await ctx.db.kysely
      .selectFrom('units')
      .selectAll()
      .where('id', '=', unitId)
      .executeTakeFirstOrThrow();
    return [{ t: 'u', s: 'avl_unit', fid: fleetId, d: unitToWire(unit) }];
  });
  uow.afterCommit(async () => {
    for (const listener of ctx.countersListeners) await listener([unitId]);
  });
}

/** The unit's counters as the reply shows them, read after the commit. */
async function countersOf(ctx: AppContext, unitId: number) {
  const unit = await ctx.db.kysely
    .selectFrom('units')
    .select(['mileage', 'engine_hours'])
    .where('id', '=', unitId)
    .executeTakeFirstOrThrow();
  return { cnm: round3(unit.mileage), cneh: round3(unit.engine_hours) };
}

/**
 * POST /api/fleets/{fid}/units/{id}/meter/{readingId}/accept: a refused reading becomes accepted (who,
 * when). When it is the newest the unit has, its counters become the unit's (the step is booked as a
 * correction, not distance driven); an older one is only marked. A device odometer (hours) accepted
 * from the unit's current device is that device's baseline from then on.
 */
export async function acceptReading(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  readingId: number,
): Promise<MeterChangeReply> {
  await requireFleet(ctx, actor, fleetId, 'meter.manage');
  const t = now();
  let applied = false;
  await unitOfWork(ctx, async (trx, uow) => {
    const unit = await ctx.db.ops
      .forUpdate(trx.selectFrom('units').selectAll().where('id', '=', unitId).where('fleet_id', '=', fleetId))
      .executeTakeFirst();
    if (!unit) throw notFound('Unit not found');
    const reading = await trx
      .selectFrom('meter_readings')
      .selectAll()
      .where('id', '=', readingId)
      .where('unit_id', '=', unitId)
      .where('fleet_id', '=', fleetId)
      .executeTakeFirst();
    if (!reading) throw notFound('Reading not found');
    if (reading.status !== 'refused') throw conflict('Reading is not refused');
    await trx
      .updateTable('meter_readings')
      .set({ status: 'accepted', accepted_by: actor.userId, accepted_at: t })
      .where('id', '=', readingId)
      .execute();
    applied = acceptBecomesCounter(unit.last_ms, Number(reading.tm_ms));
    if (!applied) return;
    const next = {
      mileage: reading.mileage ?? unit.mileage,
      engineHours: reading.engine_hours ?? unit.engine_hours,
    };
    const ownDevice = reading.device_id === unit.device_id;
    const extra = {
      ...(ownDevice && reading.mileage !== null && { meter_odo_device: unit.device_id }),
      ...(ownDevice && reading.engine_hours !== null && { meter_hours_device: unit.device_id }),
    };
    const moved = next.mileage !== unit.mileage || next.engineHours !== unit.engine_hours;
    if (!moved && Object.keys(extra).length === 0) return;
    await setCounters(
      uow,
      { id: unitId, fleetId, mileage: unit.mileage, engineHours: unit.engine_hours },
      next,
      extra,
      t,
      actor.userId,
    );
    if (moved) announceMove(uow, ctx, fleetId, unitId);
  });
  const counters = await countersOf(ctx, unitId);
  return { ...counters, applied, entries: [await readingEntry(ctx.db.kysely, readingId)] };
}

/**
 * POST /api/fleets/{fid}/units/{id}/meter: a hand correction of the mileage and/or engine hours, kept
 * with who and when in `counter_corrections` (as PUT /api/fleets/{fid}/units/{id} records them).
 */
export async function correctCounters(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  body: MeterCorrectionBody,
): Promise<MeterChangeReply> {
  await requireFleet(ctx, actor, fleetId, 'meter.manage');
  const t = now();
  const ids: number[] = [];
  await unitOfWork(ctx, async (trx, uow) => {
    const unit = await ctx.db.ops
      .forUpdate(trx.selectFrom('units').selectAll().where('id', '=', unitId).where('fleet_id', '=', fleetId))
      .executeTakeFirst();
    if (!unit) throw notFound('Unit not found');
    const changes = [
      ...(body.cnm !== undefined && body.cnm !== unit.mileage
        ? [{ field: 'mileage', old_value: unit.mileage, new_value: body.cnm }]
        : []),
      ...(body.cneh !== undefined && body.cneh !== unit.engine_hours
        ? [{ field: 'engine_hours', old_value: unit.engine_hours, new_value: body.cneh }]
        : []),
    ];
    if (changes.length === 0) return;
    for (const c of changes) {
      const row = await trx
        .insertInto('counter_corrections')
        .values({ ...c, unit_id: unitId, user_id: actor.userId, tm: t })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    await setCounters(
      uow,
      { id: unitId, fleetId, mileage: unit.mileage, engineHours: unit.engine_hours },
      { mileage: body.cnm ?? unit.mileage, engineHours: body.cneh ?? unit.engine_hours },
      {},
      t,
      actor.userId,
    );
    announceMove(uow, ctx, fleetId, unitId);
  });
  const counters = await countersOf(ctx, unitId);
  const rows: CorrectionRow[] = ids.length
    ? await ctx.db.kysely
        .selectFrom('counter_corrections')
        .leftJoin('users', 'users.id', 'counter_corrections.user_id')
        .select([
          'counter_corrections.id',
          'counter_corrections.tm',
          'counter_corrections.field',
          'counter_corrections.old_value',
          'counter_corrections.new_value',
          'counter_corrections.user_id',
          'users.name as by_name',
          'users.full_name as by_full_name',
        ])
        .where('counter_corrections.id', 'in', ids)
        .orderBy('counter_corrections.id')
        .execute()
    : [];
  return { ...counters, applied: ids.length > 0, entries: rows.map(correctionToWire) };
}

// --- meter integrity (docs/product.md "Meter integrity"; PRODUCT.md "Service objects and counters") ---

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
