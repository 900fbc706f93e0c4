import { type FieldIssue, LineItemKind, toThousandths } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { now } from '../../context.js';
import type { Database, LineItemRow } from '../../db/schema.js';

/** A validation failure of one field; `row` is set for batch rows (core `fieldIssue`). */
export type Issue = FieldIssue;

/** Natural, case-insensitive name order (spec §3 "Name sorting is natural and case-insensitive"). */
export const nameCollator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export function byName<T extends { name: string; id: number }>(a: T, b: T): number {
  return nameCollator.compare(a.name, b.name) || a.id - b.id;
}

/** Library identity: name and kind, case-insensitive (PRODUCT.md "Line-items library"). */
export const itemKey = (kind: number, name: string) => `${kind}:${name.trim().toLowerCase()}`;

/** Thousandths of a value that passed `decimal3`. */
export const thousandths = (v: number | string) => toThousandths(v) ?? 0;

/** Kind of a library item from the wire's number or the import's labour/part text (core `lineItemKindInput`). */
export function kindOf(v: number | string): number {
  if (typeof v === 'number') return v;
  return /part/i.test(v) ? LineItemKind.part : LineItemKind.task;
}

/** Moved to db/dialect (the dialect differences in one place); re-exported for this module's importers. */
export { isUniqueViolation } from '../../db/dialect/index.js';

export interface NewLibraryItem {
  name: string;
  kind: number;
  /** Integer thousandths. */
  cost: number;
}

/**
 * Adds the names not yet in the fleet's library (case-insensitive, per kind) and returns the rows it
 * created, for the caller to publish after commit (PRODUCT.md "Intervals": names typed into
 * intervals and services join the library).
 */
export async function ensureLibraryItems(
  trx: Kysely<Database>,
  fleetId: number,
  items: NewLibraryItem[],
): Promise<LineItemRow[]> {
  if (items.length === 0) return [];
  const existing = await trx
    .selectFrom('line_items')
    .select(['name', 'kind'])
    .where('fleet_id', '=', fleetId)
    .execute();
  const seen = new Set(existing.map((r) => itemKey(r.kind, r.name)));
  const fresh: NewLibraryItem[] = [];
  for (const item of items) {
    const key = itemKey(item.kind, item.name);
    if (seen.has(key)) continue;
    seen.add(key);
    fresh.push({ ...item, name: item.name.trim() });
  }
  if (fresh.length === 0) return [];
  const t = now();
  // A concurrent insert of the same name is not an error here: the name is in the library either way.
  return trx
    .insertInto('line_items')
    .values(
      fresh.map((i) => ({ fleet_id: fleetId, name: i.name, kind: i.kind, cost: i.cost, created_at: t })),
    )
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .execute();
}

/** Common fuel types the UI offers to add to the fuel tab (PRODUCT.md "Line-items library"). */
export const FUEL_PRESETS = ['Diesel', 'Petrol 95', 'Petrol 98', 'LPG', 'CNG', 'AdBlue', 'Electricity kWh'];
