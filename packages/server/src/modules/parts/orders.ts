import {
  averageCostAfterReceipt,
  isEditablePurchaseOrder,
  isFullyReceived,
  type PurchaseOrderAction,
  type PurchaseOrderCreateInput,
  type PurchaseOrderListQuery,
  type PurchaseOrderReceiveInput,
  type PurchaseOrderStatus,
  type PurchaseOrderUpdateInput,
  purchaseOrderTransition,
  toThousandths,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database, PurchaseOrderRow } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput } from '../../http/errors.js';
import { changedFixedFields } from '../../http/fixed-fields.js';
import { loadLocation, loadOrder, orderWireById, orderWires } from './load.js';
import { allowsNegativeStock, applyMove } from './stock.js';

/**
 * Purchase orders (docs/product.md "Parts and stock"): draft → ordered → partly received → received,
 * or cancelled (core parts.ts). Receiving adds stock at a location and moves the part's average cost.
 */

const t3 = (v: number | string) => toThousandths(v) ?? 0;
type Line = { part_id: number; qty: number | string; cost: number | string };

async function checkRefs(
  db: Kysely<Database>,
  fleetId: number,
  lines: Line[] | undefined,
  locationId: number | null | undefined,
) {
  const issues: { field: string; message: string }[] = [];
  if (locationId != null)
    await loadLocation(db, fleetId, locationId).catch(() =>
      issues.push({ field: 'body.location_id', message: 'Unknown stock location in this fleet' }),
    );
  const ids = [...new Set((lines ?? []).map((l) => l.part_id))];
  if (ids.length) {
    const known = new Set(
      (
        await db
          .selectFrom('parts')
          .select('id')
          .where('fleet_id', '=', fleetId)
          .where('id', 'in', ids)
          .execute()
      ).map((r) => r.id),
    );
    (lines ?? []).forEach((l, i) => {
      if (!known.has(l.part_id))
        issues.push({ field: `body.lines.${i}.part_id`, message: 'Unknown part in this fleet' });
    });
  }
  if (issues.length) throw invalidInput(issues);
}

async function writeLines(db: Kysely<Database>, fleetId: number, orderId: number, lines: Line[]) {
  await db.deleteFrom('purchase_order_lines').where('purchase_order_id', '=', orderId).execute();
  if (lines.length === 0) return;
  await db
    .insertInto('purchase_order_lines')
    .values(
      lines.map((l, position) => ({
        purchase_order_id: orderId,
        fleet_id: fleetId,
        position,
        part_id: l.part_id,
        qty: t3(l.qty),
        cost: t3(l.cost),
        received: 0,
      })),
    )
    .execute();
}

export async function listOrders(ctx: AppContext, actor: Actor, fleetId: number, q: PurchaseOrderListQuery) {
  await requireFleet(ctx, actor, fleetId, 'part.view');
  let query = ctx.db.kysely.selectFrom('purchase_orders').where('fleet_id', '=', fleetId);
  if (q.status) query = query.where('status', '=', q.status);
  const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit ?? 10_000)
    .offset(q.offset ?? 0)
    .execute();
  return { purchase_orders: await orderWires(ctx.db.kysely, fleetId, rows), total: Number(n) };
}

export async function getOrder(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'part.view');
  return orderWireById(ctx.db.kysely, fleetId, id);
}

export async function createOrder(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: PurchaseOrderCreateInput,
) {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  const id = await unitOfWork(ctx, async (trx) => {
    await checkRefs(trx, fleetId, input.lines, input.location_id);
    const at = now();
    const { id } = await trx
      .insertInto('purchase_orders')
      .values({
        fleet_id: fleetId,
        vendor: input.vendor,
        status: 'draft',
        location_id: input.location_id ?? null,
        note: input.note ?? '',
        created_by: actor.userId,
        ordered_at: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeLines(trx, fleetId, id, input.lines ?? []);
    return id;
  });
  return orderWireById(ctx.db.kysely, fleetId, id);
}

async function lockOrder(ctx: AppContext, trx: Kysely<Database>, fleetId: number, id: number) {
  const row = await ctx.db.ops
    .forUpdate(
      trx.selectFrom('purchase_orders').selectAll().where('fleet_id', '=', fleetId).where('id', '=', id),
    )
    .executeTakeFirst();
  return row ?? loadOrder(trx, fleetId, id);
}

const refuse = (row: PurchaseOrderRow, reason: string) =>
  conflict('The purchase order cannot do this in its status', [
    { id: row.id, kind: 'purchase_order', reason, value: row.status },
  ]);

export async function updateOrder(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  patch: PurchaseOrderUpdateInput,
) {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await unitOfWork(ctx, async (trx) => {
    const row = await lockOrder(ctx, trx, fleetId, id);
    const fixed = changedFixedFields(patch, { status: row.status });
    if (fixed.length) throw invalidInput(fixed);
    if (!isEditablePurchaseOrder(row.status as PurchaseOrderStatus)) throw refuse(row, 'not_editable');
    await checkRefs(trx, fleetId, patch.lines, patch.location_id);
    await trx
      .updateTable('purchase_orders')
      .set({
        ...(patch.vendor !== undefined && { vendor: patch.vendor }),
        ...(patch.location_id !== undefined && { location_id: patch.location_id }),
        ...(patch.note !== undefined && { note: patch.note }),
        updated_at: now(),
      })
      .where('id', '=', id)
      .execute();
    if (patch.lines !== undefined) await writeLines(trx, fleetId, id, patch.lines);
  });
  return orderWireById(ctx.db.kysely, fleetId, id);
}

export async function deleteOrder(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await unitOfWork(ctx, async (trx) => {
    const row = await lockOrder(ctx, trx, fleetId, id);
    if (row.status !== 'draft' && row.status !== 'cancelled') throw refuse(row, 'not_deletable');
    await trx.deleteFrom('purchase_order_lines').where('purchase_order_id', '=', id).execute();
    await trx.deleteFrom('purchase_orders').where('id', '=', id).execute();
  });
  return { error: 0 as const };
}

/** POST .../order and .../cancel. */
export async function actOnOrder(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  action: Exclude<PurchaseOrderAction, 'receive'>,
) {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await unitOfWork(ctx, async (trx) => {
    const row = await lockOrder(ctx, trx, fleetId, id);
    const to = purchaseOrderTransition(row.status as PurchaseOrderStatus, action);
    if (!to) throw refuse(row, action);
    if (action === 'order') {
      const { n } = await trx
        .selectFrom('purchase_order_lines')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('purchase_order_id', '=', id)
        .executeTakeFirstOrThrow();
      if (Number(n) === 0) throw refuse(row, 'no_lines');
    }
    const at = now();
    await trx
      .updateTable('purchase_orders')
      .set({ status: to, updated_at: at, ...(action === 'order' && { ordered_at: at }) })
      .where('id', '=', id)
      .execute();
  });
  return orderWireById(ctx.db.kysely, fleetId, id);
}

/**
 * POST .../receive: each line's quantity received at the location; stock grows by a move of kind
 * `receive`, the part's average cost moves (core `averageCostAfterReceipt`, over all its locations).
 * More than is still outstanding is refused (409).
 */
export async function receiveOrder(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  input: PurchaseOrderReceiveInput,
) {
  await requireFleet(ctx, actor, fleetId, 'part.manage');
  await unitOfWork(ctx, async (trx) => {
    const row = await lockOrder(ctx, trx, fleetId, id);
    if (!purchaseOrderTransition(row.status as PurchaseOrderStatus, 'receive')) throw refuse(row, 'receive');
    await loadLocation(trx, fleetId, input.location_id).catch(() => {
      throw invalidInput([{ field: 'body.location_id', message: 'Unknown stock location in this fleet' }]);
    });
    const lines = await trx
      .selectFrom('purchase_order_lines')
      .selectAll()
      .where('purchase_order_id', '=', id)
      .execute();
    const byId = new Map(lines.map((l) => [l.id, l]));
    const issues = input.lines.flatMap((r, i) =>
      byId.has(r.line_id) ? [] : [{ field: `body.lines.${i}.line_id`, message: 'Not a line of this order' }],
    );
    if (issues.length) throw invalidInput(issues);
    const over = input.lines.filter((r) => {
      const l = byId.get(r.line_id)!;
      return Number(l.received) + t3(r.qty) > Number(l.qty);
    });
    if (over.length)
      throw conflict(
        'More than was ordered',
        over.map((r) => ({ id: r.line_id, kind: 'purchase_order_line', reason: 'over_received' })),
      );
    const mc = { fleetId, by: actor.userId, at: now() };
    const allow = await allowsNegativeStock(trx, fleetId);
    for (const r of input.lines) {
      const line = byId.get(r.line_id)!;
      const qty = t3(r.qty);
      const part = await ctx.db.ops
        .forUpdate(trx.selectFrom('parts').select(['id', 'cost']).where('id', '=', line.part_id))
        .executeTakeFirstOrThrow();
      const { total } = await trx
        .selectFrom('part_stock')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('qty'), eb.lit(0)).as('total'))
        .where('part_id', '=', line.part_id)
        .executeTakeFirstOrThrow();
      const cost = averageCostAfterReceipt(Number(total), Number(part.cost), qty, Number(line.cost));
      await trx
        .updateTable('parts')
        .set({ cost, updated_at: mc.at })
        .where('id', '=', line.part_id)
        .execute();
      await applyMove(
        trx,
        mc,
        {
          partId: line.part_id,
          locationId: input.location_id,
          delta: qty,
          kind: 'receive',
          refType: 'p',
          refId: id,
        },
        allow,
      );
      line.received = Number(line.received) + qty;
      await trx
        .updateTable('purchase_order_lines')
        .set({ received: line.received })
        .where('id', '=', line.id)
        .execute();
    }
    const full = isFullyReceived(lines.map((l) => ({ qty: Number(l.qty), received: Number(l.received) })));
    const to = purchaseOrderTransition(row.status as PurchaseOrderStatus, 'receive', full)!;
    await trx
      .updateTable('purchase_orders')
      .set({ status: to, updated_at: mc.at })
      .where('id', '=', id)
      .execute();
  });
  return orderWireById(ctx.db.kysely, fleetId, id);
}
