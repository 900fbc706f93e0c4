import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Ids per `in (...)` list: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
export const IN_LIST = 500;

/** `items` cut into lists of at most `size`, for `in (...)` lists and multi-row inserts. */
export function chunks<T>(items: readonly T[], size = IN_LIST): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The names by id of units, trailers or drivers, or of users (the full name, else the login), looked up
 * once per batch of rows; an id that is gone has no entry.
 */
export async function namesOf(
  db: Kysely<Database>,
  table: 'units' | 'trailers' | 'drivers' | 'users',
  ids: readonly number[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const part of chunks([...new Set(ids)])) {
    if (table === 'users') {
      for (const r of await db
        .selectFrom('users')
        .select(['id', 'name', 'full_name'])
        .where('id', 'in', part)
        .execute())
        out.set(r.id, r.full_name || r.name);
    } else {
      for (const r of await db.selectFrom(table).select(['id', 'name']).where('id', 'in', part).execute())
        out.set(r.id, r.name);
    }
  }
  return out;
}
