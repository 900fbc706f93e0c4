import { fuelFillingImportRow as importRow } from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import { breathe } from '../../db/yield.js';
import { parseRows } from '../../http/batch-rows.js';
import { customValueChecker } from '../customfields/service.js';
import { planCreate } from './rules.js';
import { addFuelTypes, fuelContext, insertFilling, runFuelChange, throwIssues, unitsOf } from './write.js';

/**
 * POST .../fuel-fillings/batch with `fuel_fillings` (spec §7; the import of `/fuelfillings/import`):
 * atomic, all rows or none (DESIGN §5); every failing field of every row is listed with its `row`, the
 * index in the request, as the services batch does.
 */
export async function createMany(ctx: AppContext, actor: Actor, fleetId: number, input: unknown[]) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fuel.manage');
  const fc = fuelContext(fleet, actor);
  const { rows, issues: shapeIssues } = parseRows(importRow, input, 'fuel_fillings');
  const { wires } = await runFuelChange(ctx, fleet, async (trx, ch) => {
    const checkCustom = await customValueChecker(
      trx,
      ctx.db.ops,
      fleetId,
      'f',
      rows.map((r) => r.data.cf),
    );
    const units = await unitsOf(
      trx,
      fleetId,
      rows.map((r) => r.data.uid),
    );
    const plans = rows.map(({ row, data }) => {
      const { total_cost, ...fields } = data;
      const prefix = `body.fuel_fillings.${row}.`;
      // The import's total_cost is the entered total (as the services import reads it).
      const plan = planCreate(
        fc,
        { ...fields, manual_cost: fields.manual_cost ?? total_cost },
        units.get(data.uid),
        prefix,
      );
      plan.issues.push(...checkCustom(data.cf, prefix));
      return { issues: plan.issues.map((i) => ({ ...i, row })), row: plan.row };
    });
    throwIssues([...shapeIssues, ...plans.flatMap((p) => p.issues)]);
    for (const [i, plan] of plans.entries()) {
      await breathe(i);
      await insertFilling(trx, fc, plan.row, ch);
    }
    await addFuelTypes(
      trx,
      fleetId,
      plans.map((p) => p.row),
      ch,
    );
  });
  return { fuel_fillings: wires };
}
