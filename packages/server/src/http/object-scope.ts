import type { AppContext } from '../context.js';
import { notFound } from './errors.js';

/**
 * Routes of one service object: a path segment `units/:p`, `drivers/:p` or `trailers/:p`. Under a fleet
 * path the object must be in that fleet; an object outside it (another fleet's, even one the caller may
 * see there, or none at all) answers 404 `{error: 5}` like an unknown one (DESIGN §5 "A user never reads
 * or changes another fleet's data, whatever ids it sends"). Read from the route's path, so that a new
 * object route is covered without saying so.
 */

export type ObjectTable = 'units' | 'drivers' | 'trailers';

export interface ObjectScope {
  table: ObjectTable;
  /** The path parameter holding the object id. */
  param: string;
}

/** The reasons of the 404, one per kind of object (the services' own wording). */
export const OBJECT_NOT_FOUND: Readonly<Record<ObjectTable, string>> = {
  units: 'Unit not found',
  drivers: 'Driver not found',
  trailers: 'Trailer not found',
};

/** The 404 reason of a table's record when it is a service object (drivers, trailers, units). */
export function objectNotFound(table: string): string | undefined {
  return Object.hasOwn(OBJECT_NOT_FOUND, table) ? OBJECT_NOT_FOUND[table as ObjectTable] : undefined;
}

const OBJECT_SEGMENT = /\/(units|drivers|trailers)\/:(\w+)/;
const scopes = new Map<string, ObjectScope | null>();

/** The object a route's path names, if any (worked out once per route). */
export function objectScopeOf(url: string): ObjectScope | undefined {
  let scope = scopes.get(url);
  if (scope === undefined) {
    const match = OBJECT_SEGMENT.exec(url);
    scope = match ? { table: match[1] as ObjectTable, param: match[2]! } : null;
    scopes.set(url, scope);
  }
  return scope ?? undefined;
}

/** Throws the 404 unless the object is in the fleet. */
export async function requireObjectInFleet(
  ctx: AppContext,
  scope: ObjectScope,
  objectId: number,
  fleetId: number,
): Promise<void> {
  const row = await ctx.db.kysely
    .selectFrom(scope.table)
    .select('id')
    .where('id', '=', objectId)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!row) throw notFound(OBJECT_NOT_FOUND[scope.table]);
}
