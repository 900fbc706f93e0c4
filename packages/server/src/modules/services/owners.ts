import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OwnerState } from '../maintenance-wire.js';

/** The object a service belongs to, in the service's fleet. */
export interface OwnerRef {
  fleetId: number;
  type: string;
  id: number;
}

/** The key of an object's state in `ownerStates`. */
export const ownerKey = (type: string, id: number) => `${type}:${id}`;

export const NO_OWNER: OwnerState = { mileage: null, engineHours: null, ins: 0 };

const TABLES: Record<string, 'units' | 'drivers' | 'trailers'> = { u: 'units', d: 'drivers', t: 'trailers' };

/** More ids than this read the fleet's objects of the type whole (one bound parameter per id otherwise). */
const IDS_PER_READ = 1000;

/**
 * The live state services show of their objects, while each object is in the service's fleet (one that
 * left, or another fleet's, shows none, spec §4 "-", as the single read's join): counters for units, the
 * in-progress marker for all; by `ownerKey`. Used by the kept lists (kept.ts) and the engine's events.
 */
export async function ownerStates(
  db: Kysely<Database>,
  refs: Iterable<OwnerRef>,
): Promise<Map<string, OwnerState>> {
  const groups = new Map<string, { fleetId: number; type: string; ids: Set<number> }>();
  for (const r of refs) {
    const key = `${r.fleetId}|${r.type}`;
    let group = groups.get(key);
    if (!group) {
      group = { fleetId: r.fleetId, type: r.type, ids: new Set() };
      groups.set(key, group);
    }
    group.ids.add(r.id);
  }
  const out = new Map<string, OwnerState>();
  for (const { fleetId, type, ids } of groups.values()) {
    const table = TABLES[type];
    if (!table) continue;
    let query = db.selectFrom(table).where('fleet_id', '=', fleetId);
    if (ids.size <= IDS_PER_READ) query = query.where('id', 'in', [...ids]);
    if (table === 'units') {
      const units = await query.select(['id', 'mileage', 'engine_hours', 'ins']).execute();
      for (const u of units)
        out.set(ownerKey('u', u.id), { mileage: u.mileage, engineHours: u.engine_hours, ins: u.ins });
    } else {
      for (const o of await query.select(['id', 'ins']).execute())
        out.set(ownerKey(type, o.id), { mileage: null, engineHours: null, ins: o.ins });
    }
  }
  return out;
}
