import {
  PART_MOVES_MAX,
  type PartAdjustInput,
  type PartCreateInput,
  type PartListQuery,
  type PartListReply,
  type PartTransferInput,
  type PartUpdateInput,
  type PartWire,
  toThousandths,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput } from '../../http/errors.js';
import { isUniqueViolation } from '../lineitems/library.js';
import { loadLocation, loadPart, moveWires, partWireById, partWires } from './load.js';
import { allowsNegativeStock, applyMove } from './stock.js';

/**
 * Parts and their stock (docs/product.md "Parts and stock"). Reading needs `part.view`, every write
 * `part.manage`; every query filters on the fleet, so another fleet's part answers 404.
 */

const t3 = (v: number | string) => toThousandths(v) ?? 0;

async function checkLibraryItem(db: Kysely<Database>, fleetId: number, lid: number | null | undefined) {
  if (lid === null || lid === undefined) return;
  const row = await db
    .selectFrom('line_items')
    .select('id')
    .where('fleet_id', '=', fleetId)
    .where('id', '=', lid)
    .executeTakeFirst();
  if (!row) throw invalidInput([{ field: 'body.lid', message: 'Unknown line item in this fleet' }]);
}

const duplicate = (err: unknown) => {
  if (isUniqueViolation(err))
    throw conflict('A part with this number exists', [
      { kind: 'part', reason: 'duplicate', field: 'number' },
    ]);
  throw err;
};

export async function listParts(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  q: PartListQuery,
): Promise<PartListReply> {
  await requireFleet(ctx, actor, fleetId, 'part.view');
  const db = ctx.db.kysely;
  let query = db.selectFrom('parts').where('fleet_id', '=', fleetId);
  if (q.q) {
    const like = `%${q.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['number']), 'like', like),
        eb(eb.fn('lower', ['name']), 'like', like),
        eb(eb.fn('lower', ['manufacturer']), 'like', like),
      ]),
    );
  }
  if (q.location !== undefined)
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('part_stock')
        .select('part_id')
        .where('location_id', '=', q.location!)
        .where('qty', '<>', 0),
    );
  if (q.low === '1')
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('part_stock')
        .select('part_id')
        .where('fleet_id', '=', fleetId)
        .where('threshold', 'is not', null)
        .whereRef('qty', '<=', 'threshold'),
    );
  const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .orderBy('number')
    .orderBy('id')
    .limit(q.limit ?? 10_000)
    .offset(q.offset ?? 0)
    .execute();
  return { parts: await partWires(db, fleetId, rows), total: Number(n) };
}

export async function getPart(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'part.view');
  return partWireById(ctx.db.kysely, fleetId, id);
}

export async function createPart(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: PartCreateInput,
): Promise<PartWire> {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  const id = await unitOfWork(ctx, async (trx) => {
    await checkLibraryItem(trx, fleetId, input.lid);
    const at = now();
    const row = await trx
      .insertInto('parts')
      .values({
        fleet_id: fleetId,
        number: input.number,
        name: input.name,
        manufacturer: input.manufacturer ?? '',
        unit: input.unit ?? '',
        cost: input.cost === undefined ? 0 : t3(input.cost),
        line_item_id: input.lid ?? null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }).catch(duplicate);
  return partWireById(ctx.db.kysely, fleetId, id);
}

export async function updatePart(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  patch: PartUpdateInput,
): Promise<PartWire> {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await unitOfWork(ctx, async (trx) => {
    await loadPart(trx, fleetId, id);
    await checkLibraryItem(trx, fleetId, patch.lid);
    await trx
      .updateTable('parts')
      .set({
        ...(patch.number !== undefined && { number: patch.number }),
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.manufacturer !== undefined && { manufacturer: patch.manufacturer }),
        ...(patch.unit !== undefined && { unit: patch.unit }),
        ...(patch.cost !== undefined && { cost: t3(patch.cost) }),
        ...(patch.lid !== undefined && { line_item_id: patch.lid }),
        updated_at: now(),
      })
      .where('fleet_id', '=', fleetId)
      .where('id', '=', id)
      .execute();
  }).catch(duplicate);
  return partWireById(ctx.db.kysely, fleetId, id);
}

/** Deletes a part nobody used: no stock, no moves, no purchase-order lines (409 otherwise). */
export async function deletePart(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await unitOfWork(ctx, async (trx) => {
    await loadPart(trx, fleetId, id);
    const moved = await trx
      .selectFrom('part_moves')
      .select('id')
      .where('part_id', '=', id)
      .executeTakeFirst();
    const ordered = await trx
      .selectFrom('purchase_order_lines')
      .select('id')
      .where('part_id', '=', id)
      .executeTakeFirst();
    if (moved || ordered)
      throw conflict('The part has history', [
        { id, kind: 'part', reason: moved ? 'has_moves' : 'on_order' },
      ]);
    await trx.deleteFrom('part_stock').where('part_id', '=', id).execute();
    await trx.deleteFrom('parts').where('id', '=', id).execute();
  });
  return { error: 0 as const };
}

export async function listMoves(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'part.view');
  await loadPart(ctx.db.kysely, fleetId, id);
  return { moves: await moveWires(ctx.db.kysely, fleetId, id, PART_MOVES_MAX) };
}

export async function adjustPart(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  input: PartAdjustInput,
): Promise<PartWire> {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await unitOfWork(ctx, async (trx, work) => {
    await loadPart(trx, fleetId, id);
    await loadLocation(trx, fleetId, input.location_id).catch(() => {
      throw invalidInput([{ field: 'body.location_id', message: 'Unknown stock location in this fleet' }]);
    });
    const allow = await allowsNegativeStock(trx, fleetId);
    const r = await applyMove(
      trx,
      { fleetId, by: actor.userId, at: now() },
      {
        partId: id,
        locationId: input.location_id,
        delta: Math.round(input.delta * 1000),
        kind: 'adjust',
        reason: input.reason,
        note: input.note ?? '',
      },
      allow,
    );
    if (r.lowStock) work.recorded(['part.lowStock']);
  });
  return partWireById(ctx.db.kysely, fleetId, id);
}

export async function transferPart(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  input: PartTransferInput,
): Promise<PartWire> {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  if (input.from === input.to)
    throw invalidInput([{ field: 'body.to', message: 'Must differ from the source location' }]);
  await unitOfWork(ctx, async (trx, work) => {
    await loadPart(trx, fleetId, id);
    for (const [field, loc] of [
      ['body.from', input.from],
      ['body.to', input.to],
    ] as const)
      await loadLocation(trx, fleetId, loc).catch(() => {
        throw invalidInput([{ field, message: 'Unknown stock location in this fleet' }]);
      });
    const allow = await allowsNegativeStock(trx, fleetId);
    const qty = t3(input.qty);
    const mc = { fleetId, by: actor.userId, at: now() };
    const note = input.note ?? '';
    const out = await applyMove(
      trx,
      mc,
      { partId: id, locationId: input.from, delta: -qty, kind: 'transfer_out', note },
      allow,
    );
    await applyMove(
      trx,
      mc,
      { partId: id, locationId: input.to, delta: qty, kind: 'transfer_in', note },
      allow,
    );
    if (out.lowStock) work.recorded(['part.lowStock']);
  });
  return partWireById(ctx.db.kysely, fleetId, id);
}

export async function setThreshold(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  locationId: number,
  threshold: number | string | null,
): Promise<PartWire> {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await unitOfWork(ctx, async (trx) => {
    await loadPart(trx, fleetId, id);
    await loadLocation(trx, fleetId, locationId);
    const value = threshold === null ? null : t3(threshold);
    await trx
      .insertInto('part_stock')
      .values({ part_id: id, location_id: locationId, fleet_id: fleetId, qty: 0, threshold: value })
      .onConflict((oc) => oc.columns(['part_id', 'location_id']).doUpdateSet({ threshold: value }))
      .execute();
  });
  return partWireById(ctx.db.kysely, fleetId, id);
}

export async function getSettings(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'part.view');
  return { allow_negative_stock: await allowsNegativeStock(ctx.db.kysely, fleetId) };
}

export async function putSettings(ctx: AppContext, actor: Actor, fleetId: number, allow: boolean) {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await ctx.db.kysely
    .updateTable('fleets')
    .set({ allow_negative_stock: allow ? 1 : 0 })
    .where('id', '=', fleetId)
    .execute();
  return { allow_negative_stock: allow };
}
