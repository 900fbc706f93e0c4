import { DomainEventType, type LiveEvent, type NewDomainEvent } from '@fleetkeep/core';
import type { Insertable, Updateable } from 'kysely';
import type { Database, IngestLogTable, PositionTable } from '../../db/schema.js';
import { countersChanged } from '../../events/domain.js';
import { type CounterDay, CounterDays } from '../../modules/statistics/counter-days.js';
import { type ShiftStep, shiftStep } from '../baseline-shift.js';
import type { FaultSighting } from '../fault-codes.js';
import {
  LIVE_COLUMNS,
  type LiveUnit,
  liveColumns,
  mergeParams,
  messageEvent,
  payloadOf,
} from '../live-unit.js';
import { type Reading, type ReadingSource, readingMs } from '../reading.js';
import {
  ACCOUNT_SUSPENDED,
  type Accepted,
  type IngestOutcome,
  outcomeOf,
  UNKNOWN_DEVICE,
  type Verdict,
} from './decide.js';

/**
 * Step 3 of ingestion: a group's verdicts (decide.ts) become one write plan, a pure value of the rows
 * to insert, the units to update and the events to record, which the commit (commit.ts) executes as it
 * is. What the plan writes per accepted reading: its position, the unit's live columns, the counter
 * history's day rows (modules/statistics), the meter history's baseline or daily sample row
 * (modules/meter), its fault codes; per refused reading its meter history row; per unknown or suspended
 * device an ingest log row.
 */

/** A meter history row as ingestion writes it, with its pending marker (migration 027). */
export type MeterRow = Insertable<Database['meter_readings']>;

/** A unit a baseline moved: its live columns with its base, corrections and baseline devices. */
export interface BaselinedUnit {
  id: number;
  values: Updateable<Database['units']>;
}

export interface WritePlan {
  /** The group's "now" (Unix seconds): the meter history's retention is trimmed from it. */
  t: number;
  log: Insertable<IngestLogTable>[];
  meter: MeterRow[];
  /** The counter history's rows (upserted: a known day keeps its first counters). */
  counterDays: CounterDay[];
  baselined: BaselinedUnit[];
  /** The other accepted units: id, then `LIVE_COLUMNS` in order (statements.ts `writeLive`). */
  live: unknown[][];
  positions: Insertable<PositionTable>[];
  /** "Counters changed", one per fleet unit whose counters moved. */
  events: NewDomainEvent[];
  faults: FaultSighting[];
}

export interface GroupPlan {
  writes: WritePlan;
  /** Per reading, in order. */
  outcomes: IngestOutcome[];
  /** The domain-event types the plan records (the fault codes' own are the commit's). */
  recorded: string[];
  /** Each accepted fleet unit's message, in unit order, for after the commit. */
  messages: LiveEvent[];
  /** Units whose counters moved, in the order they first moved. */
  changed: number[];
  /** Units whose baseline recorded a pending move of their interval baselines (baseline-shift.ts). */
  shifted: number[];
}

export interface PlanOptions {
  /** The group's "now", Unix seconds. */
  t: number;
  /** Where the readings come from, as the meter history names it (default: each reading's own, else OsmAnd). */
  source?: ReadingSource;
  /** Units with interval assignments (baseline-shift.ts `unitsWithAssignments` of `shiftCandidates`). */
  assigned: ReadonlySet<number>;
}

/** A unit while its group is planned: the snapshot's values moved by the accepted readings so far. */
interface Working extends LiveUnit {
  /** A baseline moved the base, the corrections or the baseline devices: written with the unit. */
  baselined: boolean;
  /** The meter history already has this group's first reading of a new day (daily sample). */
  sampled: boolean;
  accepted: boolean;
}

const working = (u: LiveUnit): Working => ({
  ...u,
  base: { ...u.base },
  offset: { ...u.offset },
  params: { ...u.params },
  baselined: false,
  sampled: false,
  accepted: false,
});

/** The interval baselines' move of an accepted baseline reading, before knowing of assignments. */
function baselineStep(v: Accepted): ShiftStep | null {
  if (!v.baseline) return null;
  return shiftStep(v.unit.fleetId, v.baseline, {
    mileage: v.next.odometerSet !== v.before.odometerSet && v.before.mileage > 0,
    engineHours: v.next.hoursSet !== v.before.hoursSet && v.before.engineHours > 0,
  });
}

/** The units whose assignments the plan must know of: those a baseline of the group may move. */
export function shiftCandidates(verdicts: readonly Verdict[]): { id: number; fleetId: number }[] {
  const units = new Map<number, { id: number; fleetId: number }>();
  for (const v of verdicts)
    if (v.kind === 'accepted' && v.unit.fleetId !== null && baselineStep(v))
      units.set(v.unit.id, { id: v.unit.id, fleetId: v.unit.fleetId });
  return [...units.values()];
}

/** The write plan of a group: `units` as read (in id order), `verdicts` per reading in order. */
export function planGroup(
  units: readonly LiveUnit[],
  verdicts: readonly Verdict[],
  options: PlanOptions,
): GroupPlan {
  const { t } = options;
  const work = new Map(units.map((u) => [u.id, working(u)]));
  const writes: WritePlan = {
    t,
    log: [],
    meter: [],
    counterDays: [],
    baselined: [],
    live: [],
    positions: [],
    events: [],
    faults: [],
  };
  const days = new CounterDays();
  const changed = new Set<number>();
  const shifted = new Set<number>();

  const meterRow = (r: Reading, unit: LiveUnit, row: Partial<MeterRow>) =>
    writes.meter.push({
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
  const logRow = (r: Reading, unitId: number | null, reason: string) =>
    writes.log.push({
      received_at: t,
      device_id: r.deviceId,
      unit_id: unitId,
      msg_time: r.time,
      reason,
      payload: payloadOf(r),
    });

  for (const v of verdicts) {
    if (v.kind === 'unknown') logRow(v.reading, null, UNKNOWN_DEVICE);
    else if (v.kind === 'suspended') logRow(v.reading, v.unit.id, ACCOUNT_SUSPENDED);
    else if (v.kind === 'refused')
      meterRow(v.reading, v.unit, {
        status: 'refused',
        reason: v.reason,
        mileage: v.mileage,
        engine_hours: v.engineHours,
        payload: payloadOf(v.reading),
      });
    if (v.kind !== 'accepted') continue;

    const unit = work.get(v.unit.id)!;
    const { reading, before, next, baseline } = v;
    const newDay = unit.counterDayEnd === null || reading.time >= unit.counterDayEnd;
    if (baseline) {
      // A device's first counter reading sets the counter (PRODUCT.md): the step is no distance
      // driven. Where the unit has a counter history, it joins the corrections (as a hand correction
      // does, modules/statistics/counter-days.ts), so the history goes on from the same driven
      // counters; the day rows so far are made with the corrections before it.
      if (unit.counterDay !== null) {
        const shiftedCounters = {
          mileage: next.mileage - baseline.mileage,
          engineHours: next.engineHours - baseline.engineHours,
        };
        days.add(unit, unit.tz, reading.time, before, shiftedCounters);
        unit.offset = {
          mileage: unit.offset.mileage + baseline.mileage,
          engineHours: unit.offset.engineHours + baseline.engineHours,
        };
      } else days.add(unit, unit.tz, reading.time, before, next);
      // Actual counters (total − base + pulled) do not move either.
      unit.base = {
        mileage: unit.base.mileage + baseline.mileage,
        engineHours: unit.base.engineHours + baseline.engineHours,
      };
      unit.baselined = true;
      const odometer = next.odometerSet !== before.odometerSet;
      const hours = next.hoursSet !== before.hoursSet;
      // The unit's interval baselines move by the same step: recorded here on the history row
      // (pending), applied right after the commit, or at the next start after a crash
      // (baseline-shift.ts applyPendingShifts); the history shows it.
      const step = baselineStep(v);
      const shift = step && options.assigned.has(unit.id) ? step : null;
      if (shift) shifted.add(unit.id);
      meterRow(reading, unit, {
        status: 'baseline',
        mileage: odometer ? next.mileage : null,
        engine_hours: hours ? next.engineHours : null,
        old_mileage: odometer ? before.mileage : null,
        old_engine_hours: hours ? before.engineHours : null,
        shift_mileage: shift?.mileage ?? null,
        shift_engine_hours: shift?.engineHours ?? null,
        shift_pending: shift ? 1 : 0,
      });
      unit.sampled = true;
    } else {
      // statistics: a new fleet day of the unit opens a counter history row.
      days.add(unit, unit.tz, reading.time, before, next);
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
    if (v.countersChanged) changed.add(unit.id);
    writes.positions.push({
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
      writes.faults.push({
        unitId: unit.id,
        fleetId: unit.fleetId,
        time: reading.time,
        codes: reading.faultCodes,
      });
  }

  writes.counterDays = days.list();
  const accepted = [...work.values()].filter((u) => u.accepted);
  for (const unit of accepted) {
    const values = liveColumns(unit);
    if (unit.baselined)
      writes.baselined.push({
        id: unit.id,
        values: {
          ...values,
          base_mileage: unit.base.mileage,
          base_engine_hours: unit.base.engineHours,
          counter_off_mileage: unit.offset.mileage,
          counter_off_engine_hours: unit.offset.engineHours,
          meter_odo_device: unit.state.odometerSet ? unit.deviceId : null,
          meter_hours_device: unit.state.hoursSet ? unit.deviceId : null,
        },
      });
    else writes.live.push([unit.id, ...LIVE_COLUMNS.map((c) => values[c])]);
  }
  // Domain events: "counters changed", one per unit of a fleet whose counters moved (events/domain.ts).
  writes.events = accepted
    .filter((u) => u.fleetId !== null && changed.has(u.id))
    .map((u) =>
      countersChanged(
        { id: u.id, fleetId: u.fleetId!, mileage: u.state.mileage, engineHours: u.state.engineHours },
        t,
        null,
      ),
    );
  return {
    writes,
    outcomes: verdicts.map(outcomeOf),
    recorded: writes.events.length > 0 ? [DomainEventType.countersChanged] : [],
    messages: accepted
      .filter((u) => u.fleetId !== null)
      .map((u) => ({ t: 'e', s: 'avl_unit', fid: u.fleetId!, d: messageEvent(u) }) as LiveEvent),
    changed: [...changed],
    shifted: [...shifted],
  };
}
