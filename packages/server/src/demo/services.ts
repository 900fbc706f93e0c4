import { type ServiceCreateInput, serviceWriteChanges } from '@fleetkeep/core';
import { requireFleet } from '../auth/access.js';
import type { Actor } from '../auth/actor.js';
import type { AppContext } from '../context.js';
import { serviceEvents } from '../events/domain.js';
import { unitOfWork } from '../events/unit-of-work.js';
import { ensureLibraryItems, thousandths } from '../modules/lineitems/library.js';
import { lookup, planCreate } from '../modules/services/plan.js';
import { planContext, throwIssues } from '../modules/services/write.js';
import { trackServices } from '../modules/statistics/cost-days.js';

/** Rows of one insert statement, within both dialects' parameter limits. */
const ROWS = 400;

/**
 * The demo's year of closed services in one transaction (one `insertService` per row would take most
 * of the seed's time). Each row is planned by the services module's `planCreate` (its date, cost and
 * interval checks), and the transaction records what `insertService` records per row: the
 * `service.closed` domain events, the line items and their new library items, and the daily cost
 * aggregates through `trackServices` (which bumps the statistics version). Only closed services that
 * close no assignment: baselines and the status engine stay with the modules' own calls. No live
 * events: nobody is connected while the demo is seeded. demo/maintenance.http.test.ts proves the
 * aggregates equal a scan of the rows.
 */
export async function writeClosedServices(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  inputs: ServiceCreateInput[],
): Promise<number[]> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'service.manage');
  const pc = planContext(fleet, actor);
  return unitOfWork(ctx, async (trx, uow) => {
    const lk = await lookup(trx, fleetId, inputs);
    const plans = inputs.map((input, i) => planCreate(pc, input, lk, `body.services.${i}.`));
    throwIssues(plans, true);
    if (plans.some((p) => p.to !== 'closed' || p.row.assignment_id !== null))
      throw new Error('writeClosedServices writes closed services of no assignment only');
    const made: number[] = [];
    for (let i = 0; i < plans.length; i += ROWS) {
      const rows = await trx
        .insertInto('services')
        .values(plans.slice(i, i + ROWS).map((p) => p.row))
        .returning('id')
        .execute();
      // Ids grow in the order of the rows of one statement; RETURNING itself promises no order.
      made.push(...rows.map((r) => r.id).sort((a, b) => a - b));
    }
    // Domain events "service closed", as insertService records them (events/domain.ts).
    await uow.record(
      plans.flatMap((p, i) =>
        serviceEvents(
          serviceWriteChanges(null, p.row.f),
          { id: made[i]!, ...p.row },
          p.row.created_at,
          p.row.creator_id,
        ),
      ),
    );
    const lines = plans.flatMap((p, i) =>
      (p.lines ?? []).map((l, position) => ({
        service_id: made[i]!,
        position,
        name: l.n,
        kind: l.t,
        qty: thousandths(l.q),
        cost: thousandths(l.c),
      })),
    );
    for (let i = 0; i < lines.length; i += ROWS)
      await trx
        .insertInto('service_line_items')
        .values(lines.slice(i, i + ROWS))
        .execute();
    await ensureLibraryItems(
      trx,
      fleetId,
      lines.map((l) => ({ name: l.name, kind: l.kind, cost: l.cost })),
    );
    // statistics: closed services add to the daily cost aggregates (modules/statistics).
    const costs = await trackServices(trx, []);
    for (const id of made) costs.add(id);
    await costs.done();
    return made;
  });
}
