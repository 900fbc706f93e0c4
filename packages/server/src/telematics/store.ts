import type { UnitMessageEvent } from '@fleetkeep/core';
import type { Insertable } from 'kysely';
import { accountTreeOf, loadAccountTree } from '../auth/access.js';
import { type AppContext, now } from '../context.js';
import type { IngestLogTable, PositionTable } from '../db/schema.js';
import { countersChanged } from '../events/domain.js';
import { recordDomainEvents } from '../events/outbox.js';
import { round3 } from '../modules/fleets/mappers.js';
import { CounterDays } from '../modules/statistics/counter-days.js';
import type { Reading } from './reading.js';
import { type CounterState, decide } from './rules.js';

/**
 * Where every entry point's readings end (OsmAnd port, `/api/ingest/*`, the demo simulator):
 * DESIGN §3 "Telematics ingestion", PRODUCT.md "Service objects and counters".
 */

export const UNKNOWN_DEVICE = 'Unknown device';
export const ACCESS_DENIED = 'Access denied';
/** Readings of a unit whose fleet belongs to a suspended account are refused (issue 9 point 2). */
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
}

/** Unit parameters grow by merging; a unit keeps at most this many. */
const UNIT_PARAMS_MAX = 200;
const LOG_PAYLOAD_MAX = 2000;
/** Rows per multi-row insert: well inside both dialects' bind-parameter limits. */
const INSERT_CHUNK = 500;

interface LiveUnit {
  id: number;
  fleetId: number | null;
  /** Account of the unit's fleet; null outside any fleet. */
  fleetAccountId: number | null;
  state: CounterState;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  params: Record<string, unknown>;
  accepted: boolean;
  /** statistics: latest counter history day and its end, corrections so far (modules/statistics). */
  counterDay: number | null;
  counterDayEnd: number | null;
  offset: { mileage: number; engineHours: number };
}

const parseParams = (text: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
};

function mergeParams(target: Record<string, unknown>, source: Reading['params']): void {
  let size = Object.keys(target).length;
  for (const [key, value] of Object.entries(source)) {
    if (!(key in target)) {
      if (size >= UNIT_PARAMS_MAX) continue;
      size++;
    }
    target[key] = value;
  }
}

function payloadOf(reading: Reading): string {
  const { raw, ...parsed } = reading;
  const text = JSON.stringify(raw ?? parsed) ?? '';
  return text.length > LOG_PAYLOAD_MAX ? text.slice(0, LOG_PAYLOAD_MAX) : text;
}

function messageEvent(unit: LiveUnit): UnitMessageEvent {
  const { state } = unit;
  const t = state.lastTime ?? 0;
  return {
    id: unit.id,
    lmsg: { t, p: unit.params },
    pos:
      state.lat === null || state.lon === null
        ? null
        : { t, y: state.lat, x: state.lon, s: unit.speed, c: unit.course, z: unit.altitude },
    cnm: round3(state.mileage),
    cneh: round3(state.engineHours),
  };
}

const chunks = <T>(rows: T[]): T[][] =>
  Array.from({ length: Math.ceil(rows.length / INSERT_CHUNK) }, (_, k) =>
    rows.slice(k * INSERT_CHUNK, (k + 1) * INSERT_CHUNK),
  );

/**
 * Decides and stores readings in order, one transaction for all of them: one select of the units
 * (locked on PostgreSQL so that concurrent messages of a unit apply one after another), then the
 * positions, the ingest log rows, one update per unit and the "counters changed" domain events. Each
 * reading stands alone: a refused one does not affect the others. Afterwards the domain events are
 * published, each moved unit's message too, and the counters listeners hear which units' counters changed.
 */
export async function storeReadings(
  ctx: AppContext,
  readings: Reading[],
  t: number = now(),
  options: IngestOptions = {},
): Promise<IngestOutcome[]> {
  if (readings.length === 0) return [];
  const outcomes: IngestOutcome[] = [];
  const units = new Map<string, LiveUnit>();
  const changed = new Set<number>();

  // Cached per instance and dropped on every instance by an activation change (auth/access.ts).
  let tree = await loadAccountTree(ctx);

  await ctx.db.kysely.transaction().execute(async (trx) => {
    let select = trx
      .selectFrom('units')
      .select([
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
        // statistics: the unit's counter history state, in the same select.
        'counter_day',
        'counter_day_end',
        'counter_off_mileage',
        'counter_off_engine_hours',
      ])
      .select((eb) =>
        eb
          .selectFrom('fleets')
          .select('fleets.account_id')
          .whereRef('fleets.id', '=', 'units.fleet_id')
          .as('fleet_account_id'),
      )
      .where('device_id', 'in', [...new Set(readings.map((r) => r.deviceId))])
      .orderBy('id');
    select = ctx.db.ops.forUpdate(select);
    for (const row of await select.execute()) {
      units.set(row.device_id, {
        id: row.id,
        fleetId: row.fleet_id,
        fleetAccountId: row.fleet_account_id ?? null,
        state: {
          lastTime: row.last_time,
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
    const days = new CounterDays();
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
      const decision = decide(unit.state, reading, t);
      if (!decision.ok) {
        logRow(reading, unit.id, decision.reason);
        outcomes.push({ status: 'rejected', unitId: unit.id, reason: decision.reason });
        continue;
      }
      const { next, countersChanged } = decision;
      // statistics: a new fleet day of the unit opens a counter history row (unit.state is still the
      // state before this reading).
      days.note(unit, reading.time, unit.state, next);
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
      outcomes.push({ status: 'accepted', unitId: unit.id, countersChanged });
    }

    for (const rows of chunks(positions)) await trx.insertInto('positions').values(rows).execute();
    for (const rows of chunks(log)) await trx.insertInto('ingest_log').values(rows).execute();
    await days.flush(trx, ctx.db.dialect); // statistics: writes only when a unit's fleet day changed
    for (const unit of units.values()) {
      if (!unit.accepted) continue;
      const { state } = unit;
      await trx
        .updateTable('units')
        .set({
          last_time: state.lastTime,
          lat: state.lat,
          lon: state.lon,
          speed: unit.speed,
          course: unit.course,
          altitude: unit.altitude,
          ignition: state.ignition === null ? null : Number(state.ignition),
          mileage: state.mileage,
          engine_hours: state.engineHours,
          params: JSON.stringify(unit.params),
          counter_day: unit.counterDay, // statistics
          counter_day_end: unit.counterDayEnd, // statistics
        })
        .where('id', '=', unit.id)
        .execute();
    }
    // Domain events: "counters changed", one per unit of a fleet whose counters moved (events/domain.ts).
    await recordDomainEvents(
      trx,
      [...units.values()]
        .filter((u) => u.fleetId !== null && changed.has(u.id))
        .map((u) =>
          countersChanged(
            { id: u.id, fleetId: u.fleetId!, mileage: u.state.mileage, engineHours: u.state.engineHours },
            t,
            null,
          ),
        ),
    );
  });
  ctx.outbox.publish();

  await announce(
    ctx,
    [...units.values()].filter((u) => u.accepted),
    [...changed],
  );
  return outcomes;
}

/**
 * After the commit: the stored readings stay stored whatever the bus or a listener does (a device told
 * of a failure would resend them), so failures here are logged, not thrown.
 */
async function announce(ctx: AppContext, moved: LiveUnit[], changed: number[]): Promise<void> {
  try {
    await ctx.bus.publishMany(
      moved
        .filter((unit) => unit.fleetId !== null)
        .map((unit) => ({ t: 'e', s: 'avl_unit', fid: unit.fleetId, d: messageEvent(unit) })),
    );
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
