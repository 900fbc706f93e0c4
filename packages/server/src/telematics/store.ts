import {
  DomainEventType,
  type LiveEvent,
  METER_REFUSED_PER_UNIT_MAX,
  METER_RETENTION_DAYS,
} from '@fleetkeep/core';
import type { Insertable, Transaction } from 'kysely';
import { accountTreeOf, loadAccountTree } from '../auth/access.js';
import { type AppContext, now } from '../context.js';
import type { Database, IngestLogTable, PositionTable } from '../db/schema.js';
import { countersChanged } from '../events/domain.js';
import { domainEventRows } from '../events/outbox.js';
import { announce as publishLive, unitOfWork } from '../events/unit-of-work.js';
import { CounterDays } from '../modules/statistics/counter-days.js';
import { applyPendingShifts, planBaselineShift, shiftedIntervalEvents } from './baseline-shift.js';
import { type FaultSighting, writeFaultCodes } from './fault-codes.js';
import {
  LIVE_COLUMNS,
  LIVE_TYPES,
  type LiveUnit,
  liveColumns,
  mergeParams,
  messageEvent,
  parseParams,
  payloadOf,
  updateBaselined,
} from './live-unit.js';
import { type Reading, type ReadingSource, readingMs } from './reading.js';
import { decide } from './rules.js';
import { selectUnits, writeLive } from './statements.js';
import { WarnLimiter } from './warn-limit.js';

/**
 * Where every entry point's readings end (OsmAnd port, `/api/ingest/*`, the demo simulator):
 * DESIGN §3 "Telematics ingestion", PRODUCT.md "Service objects and counters".
 */

export const UNKNOWN_DEVICE = 'Unknown device';
export const ACCESS_DENIED = 'Access denied';
/** Readings of a unit whose fleet belongs to a suspended account are refused. */
export const ACCOUNT_SUSPENDED = 'Account is suspended';

export type IngestOutcome =
  | { status: 'accepted'; unitId: number; countersChanged: boolean }
  | { status: 'rejected'; unitId: number; reason: string }
  | { status: 'denied'; unitId: number; reason: string }
  | { status: 'suspended'; unitId: number; reason: string }
  | { status: 'unknown'; reason: string };

export interface IngestOptions {
  /** Readings of units whose fleet fails this test are refused as 'Access denied' and not stored. */
  allowFleet?: (fleetId: number | null) => boolean;
  /** Where the readings come from, as the meter history names it (default: each reading's own, else OsmAnd). */
  source?: ReadingSource;
}

/** Warnings of unknown devices and refused readings, per device identifier (telematics/warn-limit.ts). */
const warnings = new WarnLimiter();

/** Rows per multi-row insert: well inside both dialects' bind-parameter limits. */
const INSERT_CHUNK = 500;

/** A meter history row as ingestion writes it, with its pending marker (migration 027). */
type MeterRow = Insertable<Database['meter_readings']>;

const chunks = <T>(rows: T[]): T[][] =>
  Array.from({ length: Math.ceil(rows.length / INSERT_CHUNK) }, (_, k) =>
    rows.slice(k * INSERT_CHUNK, (k + 1) * INSERT_CHUNK),
  );

/** What the unit messages and the counters listeners are told after a commit (`announce`). */
export interface Announcement {
  events: LiveEvent[];
  /** Units whose counters moved, in the order they first moved. */
  changed: number[];
}

/** Readings committed: their outcomes in order, and what to announce now that they are durable. */
export interface StoredReadings {
  outcomes: IngestOutcome[];
  announcement: Announcement;
}

/**
 * Decides and stores readings in order (`writeReadings`), then announces them: the domain events are
 * published, each moved unit's message too, and the counters listeners hear which units' counters changed.
 */
export async function storeReadings(
  ctx: AppContext,
  readings: Reading[],
  t: number = now(),
  options: IngestOptions = {},
): Promise<IngestOutcome[]> {
  const stored = await writeReadings(ctx, readings, t, options);
  await announce(ctx, stored.announcement);
  return stored.outcomes;
}

/**
 * Decides and stores readings in order, one transaction for all of them: one select of the units
 * (locked on PostgreSQL so that concurrent messages of a unit apply one after another), then the ingest
 * log and meter rows, and last the positions, one update of the units and the "counters changed" domain
 * events (`writeLive`: one statement on PostgreSQL). Each reading stands alone: a refused one does not
 * affect the others. After the commit the domain events are published to the consumers that want them
 * (events/unit-of-work.ts `recorded(types)`); the caller announces the rest (`announce`).
 */
export async function writeReadings(
  ctx: AppContext,
  readings: Reading[],
  t: number = now(),
  options: IngestOptions = {},
): Promise<StoredReadings> {
  if (readings.length === 0) return { outcomes: [], announcement: { events: [], changed: [] } };
  const outcomes: IngestOutcome[] = [];
  const units = new Map<string, LiveUnit>();
  const changed = new Set<number>();
  // Units with a recorded move of their interval baselines (telematics/baseline-shift.ts).
  const shifted = new Set<number>();
  // Fault codes: the accepted readings' codes, and what tells the unit pages (telematics/fault-codes.ts).
  const faults: FaultSighting[] = [];
  let faultEvents: LiveEvent[] = [];

  // Cached per instance and dropped on every instance by an activation change (auth/access.ts).
  let tree = await loadAccountTree(ctx);

  await unitOfWork(ctx, async (trx, uow) => {
    const deviceIds = [...new Set(readings.map((r) => r.deviceId))];
    for (const row of await selectUnits(trx, ctx.db.ops, deviceIds)) {
      units.set(row.device_id, {
        id: row.id,
        fleetId: row.fleet_id,
        deviceId: row.device_id,
        base: { mileage: row.base_mileage, engineHours: row.base_engine_hours },
        baselined: false,
        sampled: false,
        fleetAccountId: row.fleet_account_id ?? null,
        dailyMaxKm: row.fleet_daily_max === null ? null : Number(row.fleet_daily_max),
        state: {
          lastTime: row.last_time,
          lastMs: row.last_ms ?? (row.last_time === null ? null : row.last_time * 1000),
          odometerSet: row.meter_odo_device === row.device_id,
          hoursSet: row.meter_hours_device === row.device_id,
          lat: row.lat,
          lon: row.lon,
          ignition: row.ignition === null ? null : row.ignition === 1,
          mileage: row.mileage,
          engineHours: row.engine_hours,
        },
        speed: row.speed,
        course: row.course,
        altitude: row.altitude,
        params: parseParams(row.params),
        accepted: false,
        counterDay: row.counter_day,
        counterDayEnd: row.counter_day_end,
        offset: { mileage: row.counter_off_mileage, engineHours: row.counter_off_engine_hours },
      });
    }

    // An account made on another instance since the tree was read: read it again, in this transaction.
    if ([...units.values()].some((u) => u.fleetAccountId !== null && !tree.byId.has(u.fleetAccountId)))
      tree = accountTreeOf(await trx.selectFrom('accounts').selectAll().execute());

    const positions: Insertable<PositionTable>[] = [];
    // statistics: the daily counter history, written with the positions (modules/statistics).
    let days = new CounterDays();
    // meter: refusals, baselines and each day's first reading (core contracts/meter.ts).
    const meter: MeterRow[] = [];
    const meterRow = (r: Reading, unit: LiveUnit, row: Partial<MeterRow>) =>
      meter.push({
        fleet_id: unit.fleetId,
        unit_id: unit.id,
        tm_ms: readingMs(r),
        received_at: t,
        source: options.source ?? r.source ?? 'osmand',
        status: 'accepted',
        device_id: r.deviceId,
        // Every row names it: SQLite's multi-row insert fills a missing column with null, not its default.
        shift_pending: 0,
        void_auto: 0,
        ...row,
      });
    const log: Insertable<IngestLogTable>[] = [];
    const logRow = (r: Reading, unitId: number | null, reason: string) =>
      log.push({
        received_at: t,
        device_id: r.deviceId,
        unit_id: unitId,
        msg_time: r.time,
        reason,
        payload: payloadOf(r),
      });

    for (const reading of readings) {
      const unit = units.get(reading.deviceId);
      if (!unit) {
        warn(ctx, reading.deviceId, UNKNOWN_DEVICE);
        logRow(reading, null, UNKNOWN_DEVICE);
        outcomes.push({ status: 'unknown', reason: UNKNOWN_DEVICE });
        continue;
      }
      if (unit.fleetAccountId !== null && !tree.isActive(unit.fleetAccountId)) {
        logRow(reading, unit.id, ACCOUNT_SUSPENDED);
        outcomes.push({ status: 'suspended', unitId: unit.id, reason: ACCOUNT_SUSPENDED });
        continue;
      }
      if (options.allowFleet && !options.allowFleet(unit.fleetId)) {
        outcomes.push({ status: 'denied', unitId: unit.id, reason: ACCESS_DENIED });
        continue;
      }
      const decision = decide(unit.state, reading, t, { dailyMaxKm: unit.dailyMaxKm });
      if (!decision.ok) {
        warn(ctx, reading.deviceId, decision.reason, unit.id);
        meterRow(reading, unit, {
          status: 'refused',
          reason: decision.reason,
          mileage: decision.mileage,
          engine_hours: decision.engineHours,
          payload: payloadOf(reading),
        });
        outcomes.push({ status: 'rejected', unitId: unit.id, reason: decision.reason });
        continue;
      }
      // A resend of the last message: acknowledged, but no position, history row or event of its own.
      if (decision.duplicate) {
        outcomes.push({ status: 'accepted', unitId: unit.id, countersChanged: false });
        continue;
      }
      const { next, countersChanged, baseline } = decision;
      const newDay = unit.counterDayEnd === null || reading.time >= unit.counterDayEnd;
      if (baseline) {
        // A device's first counter reading sets the counter (PRODUCT.md): the step is no distance
        // driven. Where the unit has a counter history, it joins the corrections (as a hand correction
        // does, modules/statistics/counter-days.ts), so the history goes on from the same driven
        // counters; the rows so far are written with the corrections before it.
        // (Earlier readings of this batch are written first: they may open the unit's history.)
        await days.flush(trx, ctx.db.ops);
        days = new CounterDays();
        if (unit.counterDay !== null) {
          const shifted = {
            mileage: next.mileage - baseline.mileage,
            engineHours: next.engineHours - baseline.engineHours,
          };
          days.note(unit, reading.time, unit.state, shifted);
          await days.flush(trx, ctx.db.ops);
          days = new CounterDays();
          unit.offset = {
            mileage: unit.offset.mileage + baseline.mileage,
            engineHours: unit.offset.engineHours + baseline.engineHours,
          };
        } else days.note(unit, reading.time, unit.state, next);
        // Actual counters (total − base + pulled) do not move either.
        unit.base = {
          mileage: unit.base.mileage + baseline.mileage,
          engineHours: unit.base.engineHours + baseline.engineHours,
        };
        unit.baselined = true;
        const odometer = next.odometerSet !== unit.state.odometerSet;
        const hours = next.hoursSet !== unit.state.hoursSet;
        // The unit's interval baselines move by the same step: recorded here on the history row
        // (pending), applied right after the commit, or at the next start after a crash
        // (baseline-shift.ts applyPendingShifts); the history shows it.
        const shift = await planBaselineShift(trx, unit, baseline, {
          mileage: odometer && unit.state.mileage > 0,
          engineHours: hours && unit.state.engineHours > 0,
        });
        if (shift) shifted.add(unit.id);
        meterRow(reading, unit, {
          status: 'baseline',
          mileage: odometer ? next.mileage : null,
          engine_hours: hours ? next.engineHours : null,
          old_mileage: odometer ? unit.state.mileage : null,
          old_engine_hours: hours ? unit.state.engineHours : null,
          shift_mileage: shift?.mileage ?? null,
          shift_engine_hours: shift?.engineHours ?? null,
          shift_pending: shift ? 1 : 0,
        });
        unit.sampled = true;
      } else {
        // statistics: a new fleet day of the unit opens a counter history row (unit.state is still the
        // state before this reading).
        days.note(unit, reading.time, unit.state, next);
        // meter: the first accepted reading of a fleet day is the day's sample.
        if (newDay && !unit.sampled) {
          meterRow(reading, unit, { mileage: next.mileage, engine_hours: next.engineHours });
          unit.sampled = true;
        }
      }
      Object.assign(unit, {
        state: next,
        speed: reading.speed,
        course: reading.course,
        altitude: reading.altitude,
        accepted: true,
      });
      mergeParams(unit.params, reading.params);
      if (countersChanged) changed.add(unit.id);
      positions.push({
        unit_id: unit.id,
        tm: reading.time,
        lat: reading.lat,
        lon: reading.lon,
        speed: reading.speed,
        course: reading.course,
        altitude: reading.altitude,
        ignition: next.ignition === null ? null : Number(next.ignition),
        mileage: next.mileage,
        engine_hours: next.engineHours,
      });
      if (reading.faultCodes?.length)
        faults.push({
          unitId: unit.id,
          fleetId: unit.fleetId,
          time: reading.time,
          codes: reading.faultCodes,
        });
      outcomes.push({ status: 'accepted', unitId: unit.id, countersChanged });
    }

    for (const rows of chunks(log)) await trx.insertInto('ingest_log').values(rows).execute();
    for (const rows of chunks(meter)) await trx.insertInto('meter_readings').values(rows).execute();
    await trimMeter(trx, meter, t);
    await days.flush(trx, ctx.db.ops); // statistics: writes only when a unit's fleet day changed
    const accepted = [...units.values()].filter((u) => u.accepted);
    await updateBaselined(
      trx,
      accepted.filter((u) => u.baselined),
    );
    // Domain events: "counters changed", one per unit of a fleet whose counters moved (events/domain.ts).
    const counterEvents = [...units.values()]
      .filter((u) => u.fleetId !== null && changed.has(u.id))
      .map((u) =>
        countersChanged(
          { id: u.id, fleetId: u.fleetId!, mileage: u.state.mileage, engineHours: u.state.engineHours },
          t,
          null,
        ),
      );
    // Only consumers that want "counters changed" are woken for them (events/outbox.ts `publish`); the
    // status engine's own events, if a reading crossed a notice, are published by the engine.
    if (counterEvents.length > 0) uow.recorded([DomainEventType.countersChanged]);
    const fault = await writeFaultCodes(trx, faults, t);
    if (fault.recorded) uow.recorded([DomainEventType.faultCodeOpened]);
    faultEvents = fault.live;
    // The positions, the other units' live columns and the events: one statement on PostgreSQL.
    await writeLive(trx, ctx.db.ops, {
      positions,
      columns: LIVE_COLUMNS,
      types: LIVE_TYPES,
      units: accepted
        .filter((u) => !u.baselined)
        .map((unit) => {
          const values = liveColumns(unit);
          return [unit.id, ...LIVE_COLUMNS.map((c) => values[c])];
        }),
      events: domainEventRows(counterEvents),
    });
  });
  const events: LiveEvent[] = [];
  for (const unit of units.values())
    if (unit.accepted && unit.fleetId !== null)
      events.push({ t: 'e', s: 'avl_unit', fid: unit.fleetId, d: messageEvent(unit) });
  events.push(...faultEvents);
  // After the commit: a failure to move or read the moved intervals must not fail the stored readings.
  // (A crash here leaves the recorded shifts pending: the next start applies them, routes.ts.)
  if (shifted.size > 0)
    try {
      const applied = await applyPendingShifts(ctx, [...shifted]);
      events.push(...(await shiftedIntervalEvents(ctx.db.kysely, applied)));
    } catch (err) {
      ctx.log.error({ err }, 'interval baselines not moved with the counter baseline');
    }
  return { outcomes, announcement: { events, changed: [...changed] } };
}

/** A warning for the operator, rate-limited per device identifier. */
function warn(ctx: AppContext, deviceId: string, reason: string, unitId?: number): void {
  const skipped = warnings.take(deviceId);
  if (skipped === null) return;
  ctx.log.warn({ deviceId, unitId, skipped }, `telematics reading refused: ${reason}`);
}

/**
 * Keeps the meter history bounded (core contracts/meter.ts): for each unit that got rows, its refused
 * readings past the newest `METER_REFUSED_PER_UNIT_MAX` and its readings older than the retention go.
 */
async function trimMeter(trx: Transaction<Database>, rows: MeterRow[], t: number) {
  if (rows.length === 0) return;
  const cutoffMs = (t - METER_RETENTION_DAYS * 86_400) * 1000;
  const refused = new Set(rows.filter((r) => r.status === 'refused').map((r) => r.unit_id));
  // One statement per chunk of units, not one per unit: at a day's first readings every unit of a large
  // fleet has a row, and a delete per unit held the group's transaction (and its row locks on PostgreSQL)
  // for seconds (the load soak's two-instance run).
  // A row whose shift is still pending stays until it is applied (baseline-shift.ts): deleting it would
  // lose the shift, and waiting on its claim would wait for a services lock.
  for (const ids of chunks([...new Set(rows.map((r) => r.unit_id))]))
    await trx
      .deleteFrom('meter_readings')
      .where('unit_id', 'in', ids)
      .where('tm_ms', '<', cutoffMs)
      .where('shift_pending', '=', 0)
      .execute();
  for (const unitId of refused) {
    const edge = await trx
      .selectFrom('meter_readings')
      .select('id')
      .where('unit_id', '=', unitId)
      .where('status', '=', 'refused')
      .orderBy('id', 'desc')
      .offset(METER_REFUSED_PER_UNIT_MAX)
      .limit(1)
      .executeTakeFirst();
    if (edge)
      await trx
        .deleteFrom('meter_readings')
        .where('unit_id', '=', unitId)
        .where('status', '=', 'refused')
        .where('id', '<=', edge.id)
        .execute();
  }
}

/**
 * After the commit: the stored readings stay stored whatever the bus or a listener does (a device told
 * of a failure would resend them), so failures here are logged, not thrown.
 */
export async function announce(ctx: AppContext, { events, changed }: Announcement): Promise<void> {
  try {
    await publishLive(ctx, events);
  } catch (err) {
    ctx.log.error({ err }, 'unit message events not published');
  }
  if (changed.length === 0) return;
  for (const listener of ctx.countersListeners) {
    try {
      await listener(changed);
    } catch (err) {
      ctx.log.error({ err, unitIds: changed }, 'counters listener failed');
    }
  }
}
