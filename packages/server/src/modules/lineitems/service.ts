import {
  type LineItemBody,
  type LineItemImportRow,
  LineItemKind,
  type LineItemUpdateBody,
  type LineItemWire,
  type LiveEvent,
  type RecordRefusal,
} from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { LineItemRow } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, notFound } from '../../http/errors.js';
import { libraryItemToWire } from '../maintenance-wire.js';
import { byName, FUEL_PRESETS, isUniqueViolation, itemKey, kindOf, thousandths } from './library.js';

/**
 * Spec §6: "Line items and user settings need viewService or viewInterval". Changing the library is
 * for those who manage what uses it: intervals or services (manageService is also manageFuelFilling,
 * bit 128, so the fuel tab follows the same rule).
 */

const DUPLICATE = 'An item with this name and type exists';

/** The live events of library rows created or changed by any module (lineitem collection, DESIGN §6). */
export function libraryEvents(rows: LineItemRow[], t: 'c' | 'u' = 'c'): LiveEvent[] {
  return rows.map((row) => ({ t, s: 'lineitem', fid: row.fleet_id, d: libraryItemToWire(row) }));
}

async function fleetItems(ctx: AppContext, fleetId: number) {
  return ctx.db.kysely.selectFrom('line_items').selectAll().where('fleet_id', '=', fleetId).execute();
}

function duplicateOf(rows: LineItemRow[], kind: number, name: string, exceptId?: number) {
  const key = itemKey(kind, name);
  return rows.some((r) => r.id !== exceptId && itemKey(r.kind, r.name) === key);
}

/** Runs a write and maps the unique index of line_items to error 10 on both dialects. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE);
    throw err;
  }
}

export async function listItems(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'lineitem.view');
  const rows = await fleetItems(ctx, fleetId);
  return { line_items: rows.sort(byName).map(libraryItemToWire) };
}

export async function fuelPresets(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'lineitem.view');
  return { fuel_presets: FUEL_PRESETS.map((n) => ({ n, t: LineItemKind.fuel, c: 0 })) };
}

export async function createItem(ctx: AppContext, actor: Actor, fleetId: number, input: LineItemBody) {
  await requireFleet(ctx, actor, fleetId, 'lineitem.manage');
  const kind = kindOf(input.t);
  if (duplicateOf(await fleetItems(ctx, fleetId), kind, input.n))
    throw conflict(DUPLICATE, [{ field: 'body.n', reason: DUPLICATE }]);
  const row = await guarded(() =>
    unitOfWork(ctx, async (trx, uow) => {
      const row = await trx
        .insertInto('line_items')
        .values({ fleet_id: fleetId, name: input.n, kind, cost: thousandths(input.c), created_at: now() })
        .returningAll()
        .executeTakeFirstOrThrow();
      uow.emit(...libraryEvents([row]));
      return row;
    }),
  );
  return libraryItemToWire(row);
}

export async function updateItem(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  itemId: number,
  patch: LineItemUpdateBody,
) {
  await requireFleet(ctx, actor, fleetId, 'lineitem.manage');
  const rows = await fleetItems(ctx, fleetId);
  const item = rows.find((r) => r.id === itemId);
  if (!item) throw notFound('Line item not found');
  const name = patch.n ?? item.name;
  const kind = patch.t === undefined ? item.kind : kindOf(patch.t);
  if (duplicateOf(rows, kind, name, itemId))
    throw conflict(DUPLICATE, [{ field: 'body.n', reason: DUPLICATE }]);
  const row = await guarded(() =>
    unitOfWork(ctx, async (trx, uow) => {
      const row = await trx
        .updateTable('line_items')
        .set({ name, kind, cost: patch.c === undefined ? item.cost : thousandths(patch.c) })
        .where('id', '=', itemId)
        .where('fleet_id', '=', fleetId)
        .returningAll()
        .executeTakeFirstOrThrow();
      uow.emit(...libraryEvents([row], 'u'));
      return row;
    }),
  );
  return libraryItemToWire(row);
}

export async function deleteItem(ctx: AppContext, actor: Actor, fleetId: number, itemId: number) {
  await requireFleet(ctx, actor, fleetId, 'lineitem.manage');
  await unitOfWork(ctx, async (trx, uow) => {
    const res = await trx
      .deleteFrom('line_items')
      .where('id', '=', itemId)
      .where('fleet_id', '=', fleetId)
      .executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw notFound('Line item not found');
    uow.emit({ t: 'd', s: 'lineitem', fid: fleetId, d: { id: itemId } });
  });
  return { error: 0 as const };
}

/**
 * POST /api/line_items/batch, the line-items import (spec §5 "Import: line items"): the fleet of each
 * row comes from the row (DESIGN §5); the actor must be allowed to write every fleet named. All rows
 * or none; a row that repeats an existing item or an earlier row is a conflict (error 10).
 */
export async function batchItems(ctx: AppContext, actor: Actor, rows: LineItemImportRow[]) {
  const fleetIds = [...new Set(rows.map((r) => r.fid))];
  for (const fid of fleetIds) await requireFleet(ctx, actor, fid, 'lineitem.manage');
  const existing = fleetIds.length
    ? await ctx.db.kysely
        .selectFrom('line_items')
        .select(['fleet_id', 'name', 'kind'])
        .where('fleet_id', 'in', fleetIds)
        .execute()
    : [];
  const seen = new Set(existing.map((r) => `${r.fleet_id}:${itemKey(r.kind, r.name)}`));
  const issues: RecordRefusal[] = [];
  rows.forEach((r, i) => {
    const key = `${r.fid}:${itemKey(kindOf(r.t), r.n)}`;
    if (seen.has(key)) issues.push({ row: i, field: `body.lineitems.${i}.n`, reason: DUPLICATE });
    seen.add(key);
  });
  if (issues.length) throw conflict('Some line items exist already', issues);
  if (rows.length === 0) return { line_items: [] as LineItemWire[] };
  const t = now();
  const created = await guarded(() =>
    unitOfWork(ctx, async (trx, uow) => {
      const created = await trx
        .insertInto('line_items')
        .values(
          rows.map((r) => ({
            fleet_id: r.fid,
            name: r.n,
            kind: kindOf(r.t),
            cost: thousandths(r.c),
            created_at: t,
          })),
        )
        .returningAll()
        .execute();
      uow.emit(...libraryEvents(created));
      return created;
    }),
  );
  return { line_items: created.sort(byName).map(libraryItemToWire) };
}
