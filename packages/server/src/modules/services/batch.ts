import {
  SERVICE_BATCH_MAX as BATCH_MAX,
  serviceImportRow as importRow,
  numberArrayError,
  type ServiceUpdateInput as UpdateInput,
} from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import { breathe, pause } from '../../db/yield.js';
import { parseRows } from '../../http/batch-rows.js';
import { conflict, invalidInput } from '../../http/errors.js';
import { customValueChecker } from '../customfields/service.js';
import { runChange } from './effects.js';
import { objectKey } from './load.js';
import { lookup, planCreate, planUpdate } from './plan.js';
import { type DateIn, dayOf } from './rules.js';
import { insertService, lineCounts, planContext, throwIssues, updateService } from './write.js';

/**
 * Batch calls on services (spec §7; DESIGN §5: atomic, all rows or none, per-row errors with `row`, the
 * index in the request).
 */

/** POST .../services/batch: the service import (spec §5 "Import: services"). */
export async function createMany(ctx: AppContext, actor: Actor, fleetId: number, input: unknown[]) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'service.manage');
  const pc = planContext(fleet, actor);
  // Rows are checked one by one so that the reply lists the failures of every row at once.
  const parsed = parseRows(importRow, input, 'services');
  const shapeIssues = parsed.issues;
  const rows = parsed.rows.map((r) => r.data);
  const rowIndex = parsed.rows.map((r) => r.row);
  const { wires } = await runChange(ctx, fleetId, async (trx, ch) => {
    const lk = await lookup(trx, fleetId, rows);
    const checkCustom = await customValueChecker(
      trx,
      ctx.db.ops,
      fleetId,
      's',
      rows.map((r) => r.cf),
    ); // customfields
    const plans: ReturnType<typeof planCreate>[] = [];
    for (const [j, r] of rows.entries()) {
      await pause(j); // 10,000 imported rows are planned with turns for the event loop
      const i = rowIndex[j]!;
      const { total_cost, ...input } = r;
      const manual = input.manual_cost ?? total_cost;
      // Dates not after today and end not before start: the rules of planCreate (spec §5).
      const plan = planCreate(pc, { ...input, manual_cost: manual }, lk, `body.services.${i}.`);
      plan.issues.push(...checkCustom(input.cf, `body.services.${i}.`)); // customfields
      plans.push(plan);
    }
    const issues = [
      ...shapeIssues,
      ...plans.flatMap((p, j) => p.issues.map((x) => ({ ...x, row: rowIndex[j]! }))),
    ];
    if (issues.length) throw invalidInput(issues.sort((a, b) => a.row - b.row));
    throwIssues(plans, true);
    for (const [i, plan] of plans.entries()) {
      await breathe(i);
      await insertService(trx, ch, plan);
    }
  });
  return { services: wires };
}

/** PUT .../services/batch: updates many open services at once. */
export async function updateMany(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  rows: (UpdateInput & { id: number })[],
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'service.manage');
  const pc = planContext(fleet, actor);
  const { wires } = await runChange(ctx, fleetId, async (trx, ch) => {
    const ids = rows.map((r) => r.id);
    if (new Set(ids).size !== ids.length)
      throw invalidInput([{ field: 'body.services', message: 'Duplicate ids' }]);
    const existing = await trx
      .selectFrom('services')
      .selectAll()
      .where('fleet_id', '=', fleetId)
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(existing.map((r) => [r.id, r]));
    const missing = rows.flatMap((r, row) =>
      byId.has(r.id) ? [] : [{ row, id: r.id, reason: 'Not found' }],
    );
    if (missing.length) throw conflict('Some services cannot be changed', missing);
    const lk = await lookup(
      trx,
      fleetId,
      existing.map((r) => ({ t: r.object_type, uid: r.object_id })),
    );
    const counts = await lineCounts(trx, ids);
    const checkCustom = await customValueChecker(
      trx,
      ctx.db.ops,
      fleetId,
      's',
      rows.map((r) => r.cf),
    ); // customfields
    const plans = rows.map((r, i) => {
      const { id, ...patch } = r;
      const row = byId.get(id)!;
      const object = lk.objects.get(objectKey(row.object_type, row.object_id));
      const plan = planUpdate(pc, row, patch, object, counts.get(id) ?? 0, `body.services.${i}.`);
      plan.issues.push(...checkCustom(patch.cf, `body.services.${i}.`)); // customfields
      return plan;
    });
    throwIssues(plans, true);
    for (const [i, plan] of plans.entries()) {
      await breathe(i);
      await updateService(trx, ch, pc, byId.get(rows[i]!.id)!, plan);
    }
  });
  return { services: wires };
}

export interface StatusBatch {
  f: number;
  services: unknown;
  end_date?: DateIn;
}

/**
 * POST .../services/status/batch: set in progress (2), close (8: one end date for all, each object's
 * current counters) or reject (16) the selected services (PRODUCT.md "Services" batch actions). If any
 * one cannot take the transition nothing changes (409 with the refused ids).
 */
export async function statusMany(ctx: AppContext, actor: Actor, fleetId: number, body: StatusBatch) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'service.manage');
  const error = numberArrayError(body.services);
  if (error) throw invalidInput([{ field: 'body.services', message: error }], error);
  const ids = [...new Set(body.services as number[])];
  if (ids.length > BATCH_MAX)
    throw invalidInput([{ field: 'body.services', message: `At most ${BATCH_MAX}` }]);
  const pc = planContext(fleet, actor);
  if (body.f === 8 && body.end_date !== undefined) {
    const day = dayOf(pc.tz, body.end_date);
    if (day === undefined || day > pc.today)
      throw invalidInput([
        { field: 'body.end_date', message: day === undefined ? 'Invalid date' : 'Must be today or earlier' },
      ]);
  }
  const { wires } = await runChange(ctx, fleetId, async (trx, ch) => {
    const existing = ids.length
      ? await trx
          .selectFrom('services')
          .selectAll()
          .where('fleet_id', '=', fleetId)
          .where('id', 'in', ids)
          .execute()
      : [];
    const byId = new Map(existing.map((r) => [r.id, r]));
    const missing = ids.filter((id) => !byId.has(id)).map((id) => ({ id, reason: 'Not found' }));
    if (missing.length) throw conflict('Some services cannot be changed', missing);
    const lk = await lookup(
      trx,
      fleetId,
      existing.map((r) => ({ t: r.object_type, uid: r.object_id })),
    );
    const patch: UpdateInput =
      body.f === 8
        ? { f: 8, ...(body.end_date !== undefined && { end_date: body.end_date }) }
        : { f: body.f as 2 | 16 };
    const plans = ids.map((id) => {
      const row = byId.get(id)!;
      const object = lk.objects.get(objectKey(row.object_type, row.object_id));
      // Closing in a batch takes each object's current counters (PRODUCT.md "Services").
      const own =
        body.f === 8
          ? {
              ...patch,
              mileage: object?.mileage ?? row.mileage,
              engine_hours: object?.engineHours ?? row.engine_hours,
            }
          : patch;
      return { id, plan: planUpdate(pc, row, own, object, 0) };
    });
    const refused = plans.flatMap(({ id, plan }) =>
      plan.conflict || plan.issues.length
        ? [{ id, reason: plan.conflict ?? plan.issues.map((i) => i.message).join('; ') }]
        : [],
    );
    if (refused.length) throw conflict('Some services cannot take this status', refused);
    for (const [i, { id, plan }] of plans.entries()) {
      await breathe(i);
      await updateService(trx, ch, pc, byId.get(id)!, plan);
    }
  });
  return { services: wires };
}
