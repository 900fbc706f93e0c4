import {
  fromThousandths,
  type PartMoveWire,
  type PartWire,
  type PurchaseOrderStatus,
  type PurchaseOrderWire,
  type StockLocationKind,
  type StockLocationWire,
  stockValue,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database, PartRow, PurchaseOrderRow } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';

/** Parts, locations, moves and purchase orders as read (docs/product.md "Parts and stock"). */

const CHUNK = 500;
function chunks<T>(list: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

export async function loadPart(db: Kysely<Database>, fleetId: number, id: number): Promise<PartRow> {
  const row = await db
    .selectFrom('parts')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Part not found');
  return row;
}

export async function loadLocation(db: Kysely<Database>, fleetId: number, id: number) {
  const row = await db
    .selectFrom('stock_locations')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Stock location not found');
  return row;
}

async function locationNames(db: Kysely<Database>, fleetId: number) {
  const rows = await db
    .selectFrom('stock_locations')
    .select(['id', 'name'])
    .where('fleet_id', '=', fleetId)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Rows of one fleet to wires with their stock per location, in their order. */
export async function partWires(db: Kysely<Database>, fleetId: number, rows: PartRow[]): Promise<PartWire[]> {
  if (rows.length === 0) return [];
  const names = await locationNames(db, fleetId);
  const stock = new Map<number, { location_id: number; qty: number; threshold: number | null }[]>();
  const query = db
    .selectFrom('part_stock')
    .select(['part_id', 'location_id', 'qty', 'threshold'])
    .where('fleet_id', '=', fleetId);
  const all = rows.length > CHUNK;
  const found = all
    ? await query.execute()
    : (
        await Promise.all(
          chunks(rows.map((r) => r.id)).map((ids) => query.where('part_id', 'in', ids).execute()),
        )
      ).flat();
  for (const s of found) {
    const list = stock.get(s.part_id) ?? [];
    list.push({
      location_id: s.location_id,
      qty: Number(s.qty),
      threshold: s.threshold === null ? null : Number(s.threshold),
    });
    stock.set(s.part_id, list);
  }
  return rows.map((r) => {
    const own = (stock.get(r.id) ?? []).sort((a, b) =>
      (names.get(a.location_id) ?? '').localeCompare(names.get(b.location_id) ?? ''),
    );
    const onHand = own.reduce((sum, s) => sum + s.qty, 0);
    const cost = Number(r.cost);
    const perLocation = own.map((s) => ({
      location_id: s.location_id,
      location: names.get(s.location_id) ?? '',
      qty: fromThousandths(s.qty),
      threshold: s.threshold === null ? null : fromThousandths(s.threshold),
      low: s.threshold !== null && s.qty <= s.threshold,
    }));
    return {
      id: r.id,
      number: r.number,
      name: r.name,
      manufacturer: r.manufacturer,
      unit: r.unit,
      cost: fromThousandths(cost),
      lid: r.line_item_id,
      stock: perLocation,
      on_hand: fromThousandths(onHand),
      value: fromThousandths(stockValue(onHand, cost)),
      low: perLocation.some((s) => s.low),
      created: Number(r.created_at),
      updated: Number(r.updated_at),
    };
  });
}

export async function partWireById(db: Kysely<Database>, fleetId: number, id: number): Promise<PartWire> {
  const [wire] = await partWires(db, fleetId, [await loadPart(db, fleetId, id)]);
  return wire!;
}

export async function locationWires(db: Kysely<Database>, fleetId: number, id?: number) {
  let query = db
    .selectFrom('stock_locations as l')
    .select((eb) => [
      'l.id',
      'l.name',
      'l.kind',
      eb
        .selectFrom('part_stock as s')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('s.location_id', '=', 'l.id')
        .where('s.qty', '<>', 0)
        .as('parts'),
    ])
    .where('l.fleet_id', '=', fleetId);
  if (id !== undefined) query = query.where('l.id', '=', id);
  const rows = await query.orderBy('l.name').orderBy('l.id').execute();
  return rows.map(
    (r): StockLocationWire => ({
      id: r.id,
      name: r.name,
      kind: r.kind as StockLocationKind,
      parts: Number(r.parts ?? 0),
    }),
  );
}

async function userNames(db: Kysely<Database>, ids: (number | null)[]) {
  const wanted = [...new Set(ids.filter((i): i is number => i !== null))];
  if (wanted.length === 0) return new Map<number, string>();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'name', 'full_name'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, r.full_name || r.name]));
}

export async function moveWires(
  db: Kysely<Database>,
  fleetId: number,
  partId: number,
  limit: number,
): Promise<PartMoveWire[]> {
  const rows = await db
    .selectFrom('part_moves')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('part_id', '=', partId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const names = await locationNames(db, fleetId);
  const people = await userNames(
    db,
    rows.map((r) => r.user_id),
  );
  return rows.map((r) => ({
    id: r.id,
    part_id: r.part_id,
    location_id: r.location_id,
    location: names.get(r.location_id) ?? '',
    kind: r.kind as PartMoveWire['kind'],
    reason: r.reason,
    qty: fromThousandths(Number(r.qty)),
    before: fromThousandths(Number(r.before)),
    after: fromThousandths(Number(r.after)),
    ref_type: r.ref_type,
    ref_id: r.ref_id,
    note: r.note,
    by: r.user_id === null ? null : { id: r.user_id, nm: people.get(r.user_id) ?? '' },
    at: Number(r.at),
  }));
}

export async function loadOrder(
  db: Kysely<Database>,
  fleetId: number,
  id: number,
): Promise<PurchaseOrderRow> {
  const row = await db
    .selectFrom('purchase_orders')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Purchase order not found');
  return row;
}

export async function orderWires(
  db: Kysely<Database>,
  fleetId: number,
  rows: PurchaseOrderRow[],
): Promise<PurchaseOrderWire[]> {
  if (rows.length === 0) return [];
  const lines = (
    await Promise.all(
      chunks(rows.map((r) => r.id)).map((ids) =>
        db
          .selectFrom('purchase_order_lines as l')
          .innerJoin('parts as p', 'p.id', 'l.part_id')
          .select([
            'l.id',
            'l.purchase_order_id',
            'l.part_id',
            'l.qty',
            'l.cost',
            'l.received',
            'p.number',
            'p.name',
          ])
          .where('l.fleet_id', '=', fleetId)
          .where('l.purchase_order_id', 'in', ids)
          .orderBy('l.position')
          .execute(),
      ),
    )
  ).flat();
  const people = await userNames(
    db,
    rows.map((r) => r.created_by),
  );
  return rows.map((r) => {
    const own = lines.filter((l) => l.purchase_order_id === r.id);
    const total = own.reduce((sum, l) => sum + stockValue(Number(l.qty), Number(l.cost)), 0);
    return {
      id: r.id,
      vendor: r.vendor,
      status: r.status as PurchaseOrderStatus,
      location_id: r.location_id,
      note: r.note,
      lines: own.map((l) => ({
        id: l.id,
        part_id: l.part_id,
        part: `${l.number} ${l.name}`,
        qty: fromThousandths(Number(l.qty)),
        cost: fromThousandths(Number(l.cost)),
        received: fromThousandths(Number(l.received)),
      })),
      total: fromThousandths(total),
      created_by: r.created_by === null ? null : { id: r.created_by, nm: people.get(r.created_by) ?? '' },
      ordered_at: r.ordered_at === null ? null : Number(r.ordered_at),
      created: Number(r.created_at),
      updated: Number(r.updated_at),
    };
  });
}

export async function orderWireById(db: Kysely<Database>, fleetId: number, id: number) {
  const [wire] = await orderWires(db, fleetId, [await loadOrder(db, fleetId, id)]);
  return wire!;
}
