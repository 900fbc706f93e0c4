import {
  METER_DEFAULT_DAYS,
  METER_LIST_MAX,
  type MeterChangeReply,
  type MeterCorrectionBody,
  type MeterEntryWire,
  type MeterListReply,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { countersChanged } from '../../events/domain.js';
import { type UnitOfWork, unitOfWork } from '../../events/unit-of-work.js';
import { conflict, notFound } from '../../http/errors.js';
import { acceptBecomesCounter } from '../../telematics/rules.js';
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

export async function unitOf(db: Kysely<Database>, fleetId: number, unitId: number) {
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

export async function readingEntry(db: Kysely<Database>, id: number): Promise<MeterEntryWire> {
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

export interface CounterChange {
  mileage: number;
  engineHours: number;
}

/**
 * Writes a unit's new counters in the caller's transaction: the step joins the unit's corrections, so
 * the statistics do not count it as distance driven (modules/statistics/counter-days.ts), and the
 * "counters changed" domain event is recorded with it.
 */
export async function setCounters(
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
export function announceMove(uow: UnitOfWork, ctx: AppContext, fleetId: number, unitId: number): void {
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
export async function countersOf(ctx: AppContext, unitId: number) {
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
