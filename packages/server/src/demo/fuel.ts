import type { FuelFillingCreateInput } from '@fleetkeep/core';
import { requireFleet } from '../auth/access.js';
import type { Actor } from '../auth/actor.js';
import type { AppContext } from '../context.js';
import { unitOfWork } from '../events/unit-of-work.js';
import { figuresOf, planCreate } from '../modules/fuel/rules.js';
import {
  addFuelTypes,
  eventBase,
  FuelChanges,
  fuelContext,
  throwIssues,
  unitsOf,
} from '../modules/fuel/write.js';
import { applyCostDelta, fuelContribution } from '../modules/statistics/cost-days.js';

/** Rows of one insert statement: 14 values a row, within both dialects' parameter limits. */
const ROWS = 500;

/**
 * The demo's year of fuel fillings in one transaction (a few thousand rows: one insert per filling, as
 * `insertFilling` does, would take seconds). Each row is planned by the fuel module's `planCreate`
 * (its checks and defaults), and the transaction records the same as the writer does per row: the
 * `fuel.created` domain events, the daily cost aggregates with `applyCostDelta` (which also bumps the
 * statistics version) and new fuel types in the library. No live events: nobody is connected while
 * the demo is seeded. demo/maintenance.http.test.ts proves the aggregates equal a scan of the rows.
 */
export async function writeFillings(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  inputs: FuelFillingCreateInput[],
): Promise<number> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fuel.manage');
  const fc = fuelContext(fleet, actor);
  await unitOfWork(ctx, async (trx, uow) => {
    const units = await unitsOf(
      trx,
      fleetId,
      inputs.map((i) => i.uid),
    );
    const plans = inputs.map((input, row) => {
      const plan = planCreate(fc, input, units.get(input.uid), `body.fuel_fillings.${row}.`);
      return { ...plan, issues: plan.issues.map((i) => ({ ...i, row })) };
    });
    throwIssues(plans.flatMap((p) => p.issues));
    const rows = plans.map((p) => p.row);
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += ROWS) {
      const made = await trx
        .insertInto('fuel_fillings')
        .values(rows.slice(i, i + ROWS))
        .returning('id')
        .execute();
      // Ids grow in the order of the rows of one statement; RETURNING itself promises no order.
      ids.push(...made.map((r) => r.id).sort((a, b) => a - b));
    }
    await uow.record(
      rows.map((row, i) => ({
        type: 'fuel.created' as const,
        ...eventBase(fc),
        fillingId: ids[i]!,
        ...figuresOf(row),
      })),
    );
    // statistics: the daily cost aggregates, in this transaction (modules/statistics/cost-days.ts).
    await applyCostDelta(
      trx,
      null,
      rows.map((row) => fuelContribution(fleetId, fc.tz, figuresOf(row))),
    );
    await addFuelTypes(trx, fleetId, rows, new FuelChanges());
  });
  return inputs.length;
}
