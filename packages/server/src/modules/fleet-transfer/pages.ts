import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Reading a fleet's collections page by page for the streamed export (memory stays flat
 * for a large fleet): keyset pages by id, each read only when the writer wants more.
 *
 * The export is no snapshot (a long read transaction would hold SQLite's one connection while a slow
 * client downloads): each collection is cut at the highest id it had when the export began, so rows
 * written meanwhile are left out and every reference points at a record read before or with it.
 */

type Db = Kysely<Database>;

/** Rows per page, and a hook before each page read; tests make pages small and hold a page back. */
export const exportPaging: {
  pageSize: number;
  beforePage: ((collection: string, page: number) => Promise<void>) | null;
} = { pageSize: 1000, beforePage: null };

/** The highest id of each table when the export begins (the cut of every collection). */
export type Cut = Record<CutTable, number>;
export const CUT_TABLES = [
  'units',
  'drivers',
  'trailers',
  'custom_fields',
  'line_items',
  'intervals',
  'assignments',
  'services',
  'fuel_fillings',
  'attachments',
  'meter_readings',
  'counter_corrections',
  'notification_setups',
  'channel_setups',
  'issues',
  'inspection_forms',
  'inspections',
  'work_orders',
  'vehicle_assignments',
] as const;
export type CutTable = (typeof CUT_TABLES)[number];

/** One statement: a subquery per table. */
export async function cutOf(db: Db): Promise<Cut> {
  const row = await db
    .selectNoFrom((eb) =>
      CUT_TABLES.map((table) =>
        eb
          .selectFrom(table)
          .select((sub) => sub.fn.max<number>('id').as('id'))
          .as(table),
      ),
    )
    .executeTakeFirst();
  const values = (row ?? {}) as Record<CutTable, number | string | null>;
  return Object.fromEntries(CUT_TABLES.map((table) => [table, Number(values[table] ?? 0)])) as Cut;
}

/** Yields the pages of `read(after, limit)` (rows ordered by id, above `after`) until a short one. */
export async function* pages<T extends { id: number }>(
  collection: string,
  read: (after: number, limit: number) => Promise<T[]>,
): AsyncGenerator<T[]> {
  let after = 0;
  for (let page = 0; ; page++) {
    if (exportPaging.beforePage) await exportPaging.beforePage(collection, page);
    const size = exportPaging.pageSize;
    const rows = await read(after, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.id;
  }
}

export function group<T, K>(rows: T[], key: (r: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const list = out.get(key(r));
    if (list) list.push(r);
    else out.set(key(r), [r]);
  }
  return out;
}
