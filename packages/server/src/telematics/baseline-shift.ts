import { ServiceFlag } from '@fleetkeep/core';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { AppContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { unitOfWork } from '../events/unit-of-work.js';
import { loadIntervals } from '../modules/intervals/store.js';
import type { Baseline } from './rules.js';

/**
 * Interval baselines follow a counter's new baseline (PRODUCT.md "Service objects and counters": a
 * device's first reading "sets the counter (a new baseline, not a jump)"). The step a device's first
 * reading makes (telematics/rules.ts `Baseline`: new − old, 0 where it looks driven) is no distance
 * driven, so the unit's interval assignments keep the distance (engine time) since their last service:
 * their "last service" mileage (engine hours) moves by the step, and so do the limit and last counters
 * of the open services made from them, which are on the same scale. Nothing is created or closed here;
 * the status engine then runs on the unit as for any counter change (its Due service's overdue flags
 * follow the moved baselines, and the partial unique index keeps one open service per assignment).
 *
 * Only a device baseline moves them: a hand correction or an accepted refused reading is a person's
 * deliberate value for the counter (modules/meter), which leaves the interval baselines where they are.
 */

export interface Shift {
  fleetId: number;
  unitId: number;
  /** Intervals whose assignments moved, for the live `interval` events after the commit. */
  intervalIds: number[];
  /** The steps applied (null where that counter did not move a baseline). */
  mileage: number | null;
  engineHours: number | null;
}

const OPEN = sql<boolean>`(f & ${sql.lit(ServiceFlag.closed | ServiceFlag.rejected)}) = 0`;

/** The steps a device baseline moves a unit's interval baselines by (null where a counter does not move). */
export interface ShiftStep {
  mileage: number | null;
  engineHours: number | null;
}

/**
 * The move of a unit's assignment baselines by the step of each counter whose baseline the unit's
 * device set (`hadCounter`: the unit had a value for it before; a unit counting from nothing has no
 * scale to keep), or null when nothing moves. Pure (pipeline/plan.ts); whether the unit has assignments
 * to move is read once per group (`unitsWithAssignments`).
 */
export function shiftStep(
  fleetId: number | null,
  step: Baseline,
  hadCounter: { mileage: boolean; engineHours: boolean },
): ShiftStep | null {
  if (fleetId === null) return null;
  const mileage = hadCounter.mileage && step.mileage !== 0 ? step.mileage : 0;
  const engineHours = hadCounter.engineHours && step.engineHours !== 0 ? step.engineHours : 0;
  if (mileage === 0 && engineHours === 0) return null;
  return { mileage: mileage === 0 ? null : mileage, engineHours: engineHours === 0 ? null : engineHours };
}

/**
 * Of the given units (each in its fleet), those with interval assignments: one plain read inside the
 * ingestion transaction, for the units whose baseline may move them; no row of `assignments` or
 * `services` is locked there.
 */
export async function unitsWithAssignments(
  trx: Transaction<Database>,
  units: readonly { id: number; fleetId: number }[],
): Promise<Set<number>> {
  if (units.length === 0) return new Set();
  const fleetOf = new Map(units.map((u) => [u.id, u.fleetId]));
  const rows = await trx
    .selectFrom('assignments')
    .select(['object_id', 'fleet_id'])
    .where('object_type', '=', 'u')
    .where('object_id', 'in', [...fleetOf.keys()])
    .execute();
  return new Set(rows.filter((r) => fleetOf.get(r.object_id) === r.fleet_id).map((r) => r.object_id));
}

/**
 * The move of one unit's assignment baselines (`shiftStep`), or null when it has no assignment to move:
 * for a person's "meter replaced" (modules/meter/integrity.ts), inside its transaction.
 */
export async function planBaselineShift(
  trx: Transaction<Database>,
  unit: { id: number; fleetId: number | null },
  step: Baseline,
  hadCounter: { mileage: boolean; engineHours: boolean },
): Promise<ShiftStep | null> {
  const shift = shiftStep(unit.fleetId, step, hadCounter);
  if (!shift || unit.fleetId === null) return null;
  const assigned = await unitsWithAssignments(trx, [{ id: unit.id, fleetId: unit.fleetId }]);
  return assigned.has(unit.id) ? shift : null;
}

/**
 * Applies the shifts recorded but not yet applied: each baseline row of the meter history
 * whose step the readings' transaction recorded with `shift_pending = 1` (pipeline/plan.ts). Called right after
 * the readings' commit for the units that got one, and at every start for all units (`recoverShifts`), so
 * that a process killed between the two commits loses no shift.
 *
 * Idempotent, keyed on the row: in one transaction per call, each row is first claimed by setting its
 * marker to 0 where it is still 1; a row another instance (or an earlier run) claimed is skipped, so a
 * step is applied once. Then the row locks are taken in the order every service writer takes them (open
 * services, then assignments; units not at all): inside the ingestion transaction, which holds its units
 * from the start, moving services would wait for a service write that in turn waits for those units (a
 * deadlock PostgreSQL detected under the kill -9 test's load). Only ingestion writes pending rows, and its
 * trim leaves them alone (pipeline/commit.ts `trimMeter`), so the claim waits for nothing a service writer holds.
 * Returns the shifts applied; the status engine runs on their units after this, as for any counter change.
 */
export async function applyPendingShifts(
  ctx: AppContext,
  unitIds?: number[],
  options: { announce?: boolean } = {},
): Promise<Shift[]> {
  if (unitIds?.length === 0) return [];
  return unitOfWork(ctx, async (trx, uow) => {
    let select = trx
      .selectFrom('meter_readings')
      .select(['id', 'fleet_id', 'unit_id', 'shift_mileage', 'shift_engine_hours'])
      .where('shift_pending', '=', 1)
      .orderBy('id');
    if (unitIds) select = select.where('unit_id', 'in', unitIds);
    const applied: Shift[] = [];
    for (const row of await select.execute()) {
      const claim = await trx
        .updateTable('meter_readings')
        .set({ shift_pending: 0 })
        .where('id', '=', row.id)
        .where('shift_pending', '=', 1)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) === 0 || row.fleet_id === null) continue;
      const s = { fleetId: row.fleet_id, unitId: row.unit_id };
      const mileage = row.shift_mileage ?? 0;
      const engineHours = row.shift_engine_hours ?? 0;
      const assignments = () =>
        trx
          .selectFrom('assignments')
          .where('object_type', '=', 'u')
          .where('object_id', '=', s.unitId)
          .where('fleet_id', '=', s.fleetId);
      await trx
        .updateTable('services')
        .set((eb) => ({
          limit_mileage: eb('limit_mileage', '+', mileage),
          last_mileage: eb('last_mileage', '+', mileage),
          limit_engine_hours: eb('limit_engine_hours', '+', engineHours),
          last_engine_hours: eb('last_engine_hours', '+', engineHours),
        }))
        .where(OPEN)
        .where('fleet_id', '=', s.fleetId)
        .where('assignment_id', 'in', assignments().select('id'))
        .execute();
      const moved = await trx
        .updateTable('assignments')
        .set((eb) => ({ lcnm: eb('lcnm', '+', mileage), lceh: eb('lceh', '+', engineHours) }))
        .where('object_type', '=', 'u')
        .where('object_id', '=', s.unitId)
        .where('fleet_id', '=', s.fleetId)
        .returning('interval_id')
        .execute();
      applied.push({
        ...s,
        intervalIds: [...new Set(moved.map((a) => a.interval_id))],
        mileage: row.shift_mileage,
        engineHours: row.shift_engine_hours,
      });
    }
    // `announce`: the moved intervals' live events go out with this commit; else the caller adds them to
    // its own announcement (pipeline/announce.ts, a readings group's).
    if (options.announce && applied.length > 0)
      uow.afterCommit(() => shiftedIntervalEvents(ctx.db.kysely, applied));
    return applied;
  });
}

/** After the commit: the moved intervals' live events (their `u` lists carry the baselines, DESIGN §5). */
export async function shiftedIntervalEvents(db: Kysely<Database>, shifts: Shift[]) {
  const byFleet = new Map<number, Set<number>>();
  for (const s of shifts) {
    const ids = byFleet.get(s.fleetId) ?? new Set<number>();
    for (const id of s.intervalIds) ids.add(id);
    byFleet.set(s.fleetId, ids);
  }
  const events = [];
  for (const [fid, ids] of byFleet)
    for (const d of await loadIntervals(db, fid, [...ids]))
      events.push({ t: 'u' as const, s: 'interval' as const, fid, d });
  return events;
}

/**
 * At start (routes.ts): applies the shifts a killed process recorded but did not apply, then
 * announces them as the step after a commit does: the moved intervals' live events and the status engine
 * on their units. A failure is logged: the rows stay pending for the next start.
 */
export async function recoverShifts(ctx: AppContext): Promise<void> {
  try {
    const applied = await applyPendingShifts(ctx, undefined, { announce: true });
    if (applied.length === 0) return;
    ctx.log.warn({ units: applied.map((s) => s.unitId) }, 'interval baselines moved after a restart');
    const units = [...new Set(applied.map((s) => s.unitId))];
    for (const listener of ctx.countersListeners) await listener(units);
  } catch (err) {
    ctx.log.error({ err }, 'recorded interval baseline moves not applied at start');
  }
}
