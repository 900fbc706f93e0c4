import {
  type ServiceCreateInput,
  type ServiceListQuery,
  type ServiceUpdateInput,
  type ServiceWire,
  serviceListReply,
  serviceWire,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { Database, ServiceRow } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import type { TaggedList } from '../../http/etag.js';
import { validateCustomValues } from '../customfields/service.js';
import { runChange } from './effects.js';
import { keptListWires } from './kept.js';
import { loadOneWire, loadWires, objectKey, type Scope } from './load.js';
import { lookup, planCreate, planUpdate } from './plan.js';
import { isArchived, statusOf } from './rules.js';
import { insertService, lineCounts, planContext, throwIssues, updateService } from './write.js';

/**
 * Open services (neither closed nor rejected), written as the literal condition of the partial index
 * `services_open_fleet` (migration 006) so that both dialects can use it: a bound `0` would not match.
 */
const OPEN = sql<boolean>`(${sql.ref('f')} & 24) = 0`;

/** The revisions a services list's tag is made of (migration 020): its rows and its owners' live state. */
export const SERVICE_LIST_COLLECTIONS = ['services', 'owners'] as const;

/** The open services of a fleet (Deleted, Closed and Rejected left out), optionally of one object. */
const openScope =
  (fleetId: number, filter: ServiceListQuery): Scope =>
  (qb) => {
    let q = qb.where('fleet_id', '=', fleetId).where(OPEN);
    if (filter.object_type) q = q.where('object_type', '=', filter.object_type);
    if (filter.object_id !== undefined) q = q.where('object_id', '=', filter.object_id);
    return q;
  };

async function openServices(db: Db, fleetId: number, filter: ServiceListQuery) {
  return { services: await loadWires(db.kysely, db.ops, fleetId, openScope(fleetId, filter)) };
}

/** GET /fleets/{fid}/services: the open services (Due, overdue, In progress; spec §4 "Active group"). */
export async function listServices(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  filter: ServiceListQuery,
): Promise<{ services: ServiceWire[] }> {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  return openServices(ctx.db, fleetId, filter);
}

/** The same read as a tagged list (http/etag.ts): access checked now, rows read only when needed. */
export async function openServicesRead(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  filter: ServiceListQuery,
): Promise<TaggedList> {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  const variant = `${filter.object_type ?? ''}:${filter.object_id ?? ''}`;
  return {
    collections: SERVICE_LIST_COLLECTIONS,
    variant,
    schema: serviceListReply,
    // Rows kept per services revision; only the objects' live state is read again (kept.ts).
    build: async () => ({
      services: await keptListWires(
        ctx.db,
        fleetId,
        `${fleetId}|open|${variant}`,
        openScope(fleetId, filter),
      ),
    }),
  };
}

/**
 * GET .../services/{id}: one service's reply is made of the same revisions as the lists (`services`,
 * `owners`), so its body is kept per revisions and id (http/etag.ts `sendByRevisions`), read with the
 * access revision in the request's one round trip (the route's `taggedBy`).
 */
export async function serviceRead(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
): Promise<TaggedList> {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  return {
    collections: SERVICE_LIST_COLLECTIONS,
    variant: String(id),
    schema: serviceWire,
    build: () => getService(ctx, actor, fleetId, id),
  };
}

export async function getService(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
): Promise<ServiceWire> {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  // A named prepared statement on PostgreSQL (db/database.ts `fixed`): no parse and plan per read.
  const wire = await loadOneWire(ctx.db.kysely, fleetId, id, (query, parameters) =>
    ctx.db.fixed(query, parameters),
  );
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
    plan.issues.push(...(await validateCustomValues(trx, ctx.db.ops, fleetId, 's', input.cf)));
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
    plan.issues.push(...(await validateCustomValues(trx, ctx.db.ops, fleetId, 's', patch.cf)));
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
