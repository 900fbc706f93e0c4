import { crossesLowStock, fromThousandths, type MoveKind, type PartUse, useDeltas } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { recordDomainEvents } from '../../events/outbox.js';
import { conflict, invalidInput } from '../../http/errors.js';

/**
 * Stock moves (docs/product.md "Parts and stock"): every change of a part's stock at a location is one
 * conditional update, so that two writers taking the last unit at once cannot both succeed (SQLite
 * serialises the writes; on PostgreSQL the second update waits for the first's row lock and then sees
 * the new quantity), and one row of `part_moves` with the quantity before and after. A move that
 * crosses the low-stock threshold records `part.lowStock` in the same transaction.
 */

export interface Move {
  partId: number;
  locationId: number;
  /** Change in thousandths; negative takes stock. */
  delta: number;
  kind: MoveKind;
  reason?: string | null;
  refType?: 's' | 'w' | 'p' | null;
  refId?: number | null;
  note?: string;
}

export interface MoveContext {
  fleetId: number;
  by: number | null;
  at: number;
}

/** Whether the fleet lets moves take stock below zero. */
export async function allowsNegativeStock(db: Kysely<Database>, fleetId: number): Promise<boolean> {
  const row = await db
    .selectFrom('fleets')
    .select('allow_negative_stock')
    .where('id', '=', fleetId)
    .executeTakeFirst();
  return Number(row?.allow_negative_stock ?? 0) === 1;
}

/** Applies one move; 409 `insufficient_stock` when it would go below zero and that is not allowed. */
export async function applyMove(
  trx: Kysely<Database>,
  mc: MoveContext,
  move: Move,
  allowNegative: boolean,
): Promise<{ before: number; after: number; lowStock: boolean }> {
  await trx
    .insertInto('part_stock')
    .values({
      part_id: move.partId,
      location_id: move.locationId,
      fleet_id: mc.fleetId,
      qty: 0,
      threshold: null,
    })
    .onConflict((oc) => oc.columns(['part_id', 'location_id']).doNothing())
    .execute();
  let update = trx
    .updateTable('part_stock')
    .set((eb) => ({ qty: eb('qty', '+', move.delta) }))
    .where('part_id', '=', move.partId)
    .where('location_id', '=', move.locationId)
    .where('fleet_id', '=', mc.fleetId);
  if (move.delta < 0 && !allowNegative) update = update.where('qty', '>=', -move.delta);
  const row = await update.returning(['qty', 'threshold']).executeTakeFirst();
  if (!row) {
    const current = await trx
      .selectFrom('part_stock')
      .select('qty')
      .where('part_id', '=', move.partId)
      .where('location_id', '=', move.locationId)
      .executeTakeFirst();
    throw conflict('Not enough stock', [
      {
        id: move.partId,
        kind: 'part',
        reason: 'insufficient_stock',
        value: String(fromThousandths(Number(current?.qty ?? 0))),
      },
    ]);
  }
  const after = Number(row.qty);
  const before = after - move.delta;
  const threshold = row.threshold === null ? null : Number(row.threshold);
  await trx
    .insertInto('part_moves')
    .values({
      fleet_id: mc.fleetId,
      part_id: move.partId,
      location_id: move.locationId,
      kind: move.kind,
      reason: move.reason ?? null,
      qty: move.delta,
      before,
      after,
      ref_type: move.refType ?? null,
      ref_id: move.refId ?? null,
      note: move.note ?? '',
      user_id: mc.by,
      at: mc.at,
    })
    .execute();
  const lowStock = crossesLowStock(before, after, threshold);
  if (lowStock && threshold !== null)
    await recordDomainEvents(trx, [
      {
        type: 'part.lowStock',
        fid: mc.fleetId,
        at: mc.at,
        by: mc.by,
        partId: move.partId,
        locationId: move.locationId,
        qty: after,
        threshold,
      },
    ]);
  return { before, after, lowStock };
}

/** A line as the stock sees it: the part, its location and its quantity (thousandths). */
export interface StockLine {
  pid?: number | null;
  slid?: number | null;
  qty: number;
}

const usesOf = (lines: StockLine[]): PartUse[] =>
  lines.flatMap((l) =>
    l.pid != null && l.slid != null ? [{ partId: l.pid, locationId: l.slid, qty: l.qty }] : [],
  );

/**
 * 400 unless every line's part and location are of the fleet and a part comes with its location.
 * `field` is the body path of the lines (`body.li`).
 */
export async function checkStockLines(
  trx: Kysely<Database>,
  fleetId: number,
  lines: { pid?: number | null; slid?: number | null }[],
  field = 'body.li',
): Promise<void> {
  const issues: { field: string; message: string }[] = [];
  lines.forEach((l, i) => {
    if ((l.pid == null) !== (l.slid == null))
      issues.push({ field: `${field}.${i}.slid`, message: 'A part needs a stock location' });
  });
  if (issues.length) throw invalidInput(issues);
  const pids = [...new Set(lines.flatMap((l) => (l.pid == null ? [] : [l.pid])))];
  const slids = [...new Set(lines.flatMap((l) => (l.slid == null ? [] : [l.slid])))];
  const parts = pids.length
    ? new Set(
        (
          await trx
            .selectFrom('parts')
            .select('id')
            .where('fleet_id', '=', fleetId)
            .where('id', 'in', pids)
            .execute()
        ).map((r) => r.id),
      )
    : new Set<number>();
  const places = slids.length
    ? new Set(
        (
          await trx
            .selectFrom('stock_locations')
            .select('id')
            .where('fleet_id', '=', fleetId)
            .where('id', 'in', slids)
            .execute()
        ).map((r) => r.id),
      )
    : new Set<number>();
  lines.forEach((l, i) => {
    if (l.pid != null && !parts.has(l.pid))
      issues.push({ field: `${field}.${i}.pid`, message: 'Unknown part in this fleet' });
    if (l.slid != null && !places.has(l.slid))
      issues.push({ field: `${field}.${i}.slid`, message: 'Unknown stock location in this fleet' });
  });
  if (issues.length) throw invalidInput(issues);
}

/**
 * Moves of kind `use` for replacing a record's lines: what the old lines took is given back and what
 * the new ones take is taken, per part and location (core `useDeltas`), gives first.
 */
export async function applyLineUses(
  trx: Kysely<Database>,
  mc: MoveContext,
  ref: { type: 's' | 'w'; id: number },
  before: StockLine[],
  after: StockLine[],
): Promise<void> {
  const deltas = useDeltas(usesOf(before), usesOf(after));
  if (deltas.length === 0) return;
  const allowNegative = await allowsNegativeStock(trx, mc.fleetId);
  for (const d of deltas)
    await applyMove(
      trx,
      mc,
      {
        partId: d.partId,
        locationId: d.locationId,
        delta: d.qty,
        kind: 'use',
        refType: ref.type,
        refId: ref.id,
      },
      allowNegative,
    );
}

/** Gives back what the lines of deleted services took (before the services are deleted). */
export async function releaseServiceParts(
  trx: Kysely<Database>,
  mc: MoveContext,
  serviceIds: number[],
): Promise<void> {
  if (serviceIds.length === 0) return;
  const rows = await trx
    .selectFrom('service_line_items')
    .select(['service_id', 'part_id', 'location_id', 'qty'])
    .where('service_id', 'in', serviceIds)
    .where('part_id', 'is not', null)
    .execute();
  for (const id of serviceIds) {
    const lines = rows
      .filter((r) => r.service_id === id)
      .map((r) => ({ pid: r.part_id, slid: r.location_id, qty: Number(r.qty) }));
    await applyLineUses(trx, mc, { type: 's', id }, lines, []);
  }
}
