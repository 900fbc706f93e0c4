import { ServiceFlag } from '@fleetkeep/core';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
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

/**
 * Plans the move of a unit's assignment baselines by the step of each counter whose baseline the unit's
 * device set (`hadCounter`: the unit had a value for it before; a unit counting from nothing has no
 * scale to keep), inside the ingestion transaction but with a plain read: no row of `assignments` or
 * `services` is locked there. Returns null when the unit has no assignment to move.
 */
export async function planBaselineShift(
  trx: Transaction<Database>,
  unit: { id: number; fleetId: number | null },
  step: Baseline,
  hadCounter: { mileage: boolean; engineHours: boolean },
): Promise<Shift | null> {
  if (unit.fleetId === null) return null;
  const mileage = hadCounter.mileage && step.mileage !== 0 ? step.mileage : 0;
  const engineHours = hadCounter.engineHours && step.engineHours !== 0 ? step.engineHours : 0;
  if (mileage === 0 && engineHours === 0) return null;
  const assigned = await trx
    .selectFrom('assignments')
    .select(['id', 'interval_id'])
    .where('object_type', '=', 'u')
    .where('object_id', '=', unit.id)
    .where('fleet_id', '=', unit.fleetId)
    .execute();
  if (assigned.length === 0) return null;
  return {
    fleetId: unit.fleetId,
    unitId: unit.id,
    intervalIds: [...new Set(assigned.map((a) => a.interval_id))],
    mileage: mileage === 0 ? null : mileage,
    engineHours: engineHours === 0 ? null : engineHours,
  };
}

/**
 * Applies planned shifts right after the readings' commit, in one transaction of its own that takes its
 * row locks in the order every service writer does (open services, then assignments; units not at all):
 * inside the ingestion transaction, which holds its units from the start, moving services would wait for
 * a service write that in turn waits for those units (a deadlock PostgreSQL detected under the kill -9
 * test's load). The status engine runs on the units after this, as for any counter change.
 */
export async function applyBaselineShifts(db: Kysely<Database>, shifts: Shift[]): Promise<void> {
  if (shifts.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const s of shifts) {
      const mileage = s.mileage ?? 0;
      const engineHours = s.engineHours ?? 0;
      const assignmentIds = trx
        .selectFrom('assignments')
        .select('id')
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
        .where('assignment_id', 'in', assignmentIds)
        .execute();
      await trx
        .updateTable('assignments')
        .set((eb) => ({ lcnm: eb('lcnm', '+', mileage), lceh: eb('lceh', '+', engineHours) }))
        .where('object_type', '=', 'u')
        .where('object_id', '=', s.unitId)
        .where('fleet_id', '=', s.fleetId)
        .execute();
    }
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
