import type { StockLocationKind, StockLocationWire } from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, notFound } from '../../http/errors.js';
import { loadLocation, locationWires } from './load.js';

/** Stock locations: workshops, vans and stores (docs/product.md "Parts and stock"). */

async function one(ctx: AppContext, fleetId: number, id: number): Promise<StockLocationWire> {
  const [wire] = await locationWires(ctx.db.kysely, fleetId, id);
  if (!wire) throw notFound('Stock location not found');
  return wire;
}

export async function listLocations(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'part.view');
  return { locations: await locationWires(ctx.db.kysely, fleetId) };
}

export async function getLocation(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'part.view');
  return one(ctx, fleetId, id);
}

export async function createLocation(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: { name: string; kind: StockLocationKind },
) {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  const { id } = await ctx.db.kysely
    .insertInto('stock_locations')
    .values({ fleet_id: fleetId, name: input.name, kind: input.kind, created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return one(ctx, fleetId, id);
}

export async function updateLocation(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  patch: { name?: string; kind?: StockLocationKind },
) {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await loadLocation(ctx.db.kysely, fleetId, id);
  if (patch.name !== undefined || patch.kind !== undefined)
    await ctx.db.kysely
      .updateTable('stock_locations')
      .set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.kind !== undefined && { kind: patch.kind }),
      })
      .where('fleet_id', '=', fleetId)
      .where('id', '=', id)
      .execute();
  return one(ctx, fleetId, id);
}

/** Deletes a location without stock and without moves (409 otherwise: the history is kept). */
export async function deleteLocation(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await unitOfWork(ctx, async (trx) => {
    await loadLocation(trx, fleetId, id);
    const used = await trx
      .selectFrom('part_moves')
      .select('id')
      .where('location_id', '=', id)
      .executeTakeFirst();
    const stocked = await trx
      .selectFrom('part_stock')
      .select('part_id')
      .where('location_id', '=', id)
      .where('qty', '<>', 0)
      .executeTakeFirst();
    if (used || stocked)
      throw conflict('The location has stock or history', [{ id, kind: 'stock_location', reason: 'in_use' }]);
    await trx.deleteFrom('part_stock').where('location_id', '=', id).execute();
    await trx.deleteFrom('stock_locations').where('id', '=', id).execute();
  });
  return { error: 0 as const };
}
