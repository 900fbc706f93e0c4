import type { ServiceCreateInput, ServiceListQuery, ServiceUpdateInput, ServiceWire } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import type { Database, ServiceRow } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { validateCustomValues } from '../customfields/service.js';
import { runChange } from './effects.js';
import { byIds, loadWires, objectKey } from './load.js';
import { lookup, planCreate, planUpdate } from './plan.js';
import { isArchived, statusOf } from './rules.js';
import { insertService, lineCounts, planContext, throwIssues, updateService } from './write.js';

/**
 * Open services (neither closed nor rejected), written as the literal condition of the partial index
 * `services_open_fleet` (migration 006) so that both dialects can use it: a bound `0` would not match.
 */
const OPEN = sql<boolean>`(${sql.ref('f')} & 24) = 0`;

/** GET /fleets/{fid}/services: the open services (Due, overdue, In progress; spec §4 "Active group"). */
export async function listServices(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  filter: ServiceListQuery,
): Promise<{ services: ServiceWire[] }> {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  const services = await loadWires(ctx.db.kysely, fleetId, (qb) => {
    let q = qb.where('fleet_id', '=', fleetId).where(OPEN);
    if (filter.object_type) q = q.where('object_type', '=', filter.object_type);
    if (filter.object_id !== undefined) q = q.where('object_id', '=', filter.object_id);
    return q;
  });
  return { services };
}

export async function getService(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
): Promise<ServiceWire> {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  const [wire] = await loadWires(ctx.db.kysely, fleetId, byIds(fleetId, [id]));
  if (!wire) throw notFound('Service not found');
  return wire;
}

export async function loadService(db: Kysely<Database>, fleetId: number, id: number) {
  const row = await db
    .selectFrom('services')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Service not found');
  return row;
}

export async function createService(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: ServiceCreateInput,
): Promise<ServiceWire> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'service.manage');
  const pc = planContext(fleet, actor);
  const { wires } = await runChange(ctx, fleetId, async (trx, ch) => {
    const plan = planCreate(pc, input, await lookup(trx, fleetId, [input]));
    // customfields: values must be service fields of this fleet.
    plan.issues.push(...(await validateCustomValues(trx, ctx.db.dialect, fleetId, 's', input.cf)));
    throwIssues([plan], false);
    await insertService(trx, ch, plan);
  });
  return wires[0]!;
}

/** Guard of a dedicated status call: the reason it is refused, or undefined. */
type Guard = (row: ServiceRow) => string | undefined;

export async function updateOne(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  patch: ServiceUpdateInput,
  guard?: Guard,
): Promise<ServiceWire> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'service.manage');
  const pc = planContext(fleet, actor);
  const { wires } = await runChange(ctx, fleetId, async (trx, ch) => {
    const existing = await loadService(trx, fleetId, id);
    const refused = guard?.(existing);
    if (refused) throw conflict(refused);
    const lk = await lookup(trx, fleetId, [{ t: existing.object_type, uid: existing.object_id }]);
    const counts = await lineCounts(trx, [id]);
    const plan = planUpdate(
      pc,
      existing,
      patch,
      lk.objects.get(objectKey(existing.object_type, existing.object_id)),
      counts.get(id) ?? 0,
    );
    // customfields: values must be service fields of this fleet.
    plan.issues.push(...(await validateCustomValues(trx, ctx.db.dialect, fleetId, 's', patch.cf)));
    throwIssues([plan], false);
    await updateService(trx, ch, pc, existing, plan);
  });
  return wires[0]!;
}

/** PUT .../services/{id}/confirm: a Due service goes In progress, started today (spec §7). */
export function confirmService(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  return updateOne(ctx, actor, fleetId, id, { f: 2 }, (row) =>
    statusOf(row.f) === 'due' ? undefined : 'Only a Due service can be confirmed',
  );
}

/** POST .../services/{id}/status with f = 16: reject a Due or In progress service (PRODUCT.md). */
export function rejectService(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  return updateOne(ctx, actor, fleetId, id, { f: 16 }, (row) =>
    isArchived(row.f) ? 'Only a Due or In progress service can be rejected' : undefined,
  );
}
