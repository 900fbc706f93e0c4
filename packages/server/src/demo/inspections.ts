import { BUILTIN_DVIR, DAY_SECONDS } from '@fleetkeep/core';
import type { AppContext } from '../context.js';
import { listForms } from '../modules/inspections/forms.js';
import { updateInspection } from '../modules/inspections/service.js';
import { submitInspection } from '../modules/inspections/submit.js';
import { actorOf } from './maintenance.js';
import type { DemoIds } from './seed.js';

/** A drawn signature as the pad sends it (a small PNG). */
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAHgAAAAoCAAAAAAQgWH5AAABBElEQVR42u2X4Q7DIAiEeYh7/1dlydbGablDF41ZYv9ZqB9cKVjzTZcd8AEf8EowgC1g7AQT8sSQLNx8B/i9NwHM1CIGxyl/tBgNqRN8PR9uk4EZOTQZUSxwvbXgIcH7g+JgkLc4FtLNfRiNlYgA91uKzg+ysdJsHcs6sFCZirElU3CTcqUFvNNU4Wq00W+Rr4QfHuGCrMyFuDwKheLf0XeNSXBHkhA5IqxDtODIa7zS6lIDbyYmmi2v1qSO5XS9biuwp92EtjE11Wuw2ILHJHJKh4bJqTa1O4+B6XAen0cRWL2PnyZwPpxN+607fyVgl3quPNAvO+qmfxLbwOen7YD/DvwCJ5cNfpQzNNwAAAAASUVORK5CYII=';

/**
 * The demo's inspections (docs/product.md "Inspections"), so that a newcomer sees the loop: clean
 * DVIRs of two trucks by the driver, and one with a failed brake whose defect the mechanic certified
 * repaired; the next inspection of that truck is left to the visitor, who is asked to acknowledge it.
 * Submitted through the module's service functions; their times are moved into the past days.
 */
export async function seedDemoInspections(ctx: AppContext, ids: DemoIds): Promise<void> {
  const driver = await actorOf(ctx, 'viewer');
  const mechanic = await actorOf(ctx, 'mechanic');
  const db = ctx.db.kysely;
  const dvir = (await listForms(ctx, driver, ids.fleetId)).forms.find((f) => f.bi === BUILTIN_DVIR)!;
  const units = await db
    .selectFrom('units')
    .select(['id', 'mileage', 'base_mileage'])
    .where('fleet_id', '=', ids.fleetId)
    .orderBy('id')
    .limit(2)
    .execute();
  const pass = (i: number) => ({ i, ok: true });
  let daysAgo = 3;
  for (const unit of units) {
    const failed = unit === units[0];
    const sub = await submitInspection(ctx, driver, ids.fleetId, {
      fm: dvir.id,
      ot: 'u',
      oi: unit.id,
      mi: Math.max(0, Math.round(unit.mileage - unit.base_mileage)),
      res: dvir.items.map((_, i) =>
        failed && i === 0 ? { i, ok: false, tx: 'Brake pedal soft, pulls to the left' } : pass(i),
      ),
      sig: SIGNATURE,
    });
    if (failed)
      await updateInspection(ctx, mechanic, ids.fleetId, sub.id, {
        cert: [
          {
            id: sub.defects[0]!.id,
            c: 'repaired',
            n: 'Front brake pads and caliper replaced',
            sig: SIGNATURE,
          },
        ],
      });
    await db
      .updateTable('inspections')
      .set({ submitted_at: sub.at - daysAgo * DAY_SECONDS })
      .where('id', '=', sub.id)
      .execute();
    daysAgo -= 1;
  }
}
