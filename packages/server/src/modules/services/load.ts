import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, ServiceRow } from '../../db/schema.js';
import { type LineWire, lineToWire, type OwnerState, serviceToWire } from '../maintenance-wire.js';

/** Which services a read covers; applied to the services table and to the per-service lookups alike. */
export type Scope = <O>(
  qb: SelectQueryBuilder<Database, 'services', O>,
) => SelectQueryBuilder<Database, 'services', O>;

export const byIds =
  (fleetId: number, ids: number[]): Scope =>
  (qb) =>
    qb.where('fleet_id', '=', fleetId).where('id', 'in', ids.length ? ids : [0]);

const OWNER_TABLE = { u: 'units', d: 'drivers', t: 'trailers' } as const;
export type ObjectKey = `${'u' | 'd' | 't'}:${number}`;
export const objectKey = (type: string, id: number) => `${type}:${id}` as ObjectKey;

const CHUNK = 1000;

/**
 * Counters and `ins` of the services' owners still in the fleet (units have counters; drivers and
 * trailers none). An object that left keeps its archived services but shows no live data (spec §4 "-").
 */
async function ownerStates(
  db: Kysely<Database>,
  fleetId: number,
  rows: ServiceRow[],
): Promise<Map<ObjectKey, OwnerState>> {
  const out = new Map<ObjectKey, OwnerState>();
  for (const type of ['u', 'd', 't'] as const) {
    const ids = [...new Set(rows.filter((r) => r.object_type === type).map((r) => r.object_id))];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const part = ids.slice(i, i + CHUNK);
      if (type === 'u') {
        const units = await db
          .selectFrom('units')
          .select(['id', 'mileage', 'engine_hours', 'ins'])
          .where('id', 'in', part)
          .where('fleet_id', '=', fleetId)
          .execute();
        for (const u of units)
          out.set(objectKey('u', u.id), { mileage: u.mileage, engineHours: u.engine_hours, ins: u.ins });
      } else {
        const people = await db
          .selectFrom(OWNER_TABLE[type])
          .select(['id', 'ins'])
          .where('id', 'in', part)
          .where('fleet_id', '=', fleetId)
          .execute();
        for (const p of people)
          out.set(objectKey(type, p.id), { mileage: null, engineHours: null, ins: p.ins });
      }
    }
  }
  return out;
}

/**
 * The wire of every service in scope, ordered by id: four queries plus one per 1,000 owners, whatever
 * the number of services (line items and attachment counts are read in bulk through the same scope).
 */
export async function loadWires(db: Kysely<Database>, fleetId: number, scope: Scope) {
  const rows = await scope(db.selectFrom('services').selectAll()).orderBy('id').execute();
  if (rows.length === 0) return [];
  const lines = await db
    .selectFrom('service_line_items')
    .select(['service_id', 'name', 'kind', 'qty', 'cost'])
    .where('service_id', 'in', scope(db.selectFrom('services').select('id')))
    .orderBy('service_id')
    .orderBy('position')
    .execute();
  const linesBy = new Map<number, LineWire[]>();
  for (const l of lines) {
    const list = linesBy.get(l.service_id);
    if (list) list.push(lineToWire(l));
    else linesBy.set(l.service_id, [lineToWire(l)]);
  }
  const counts = await db
    .selectFrom('attachments')
    .select(['owner_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('owner_type', '=', 'service')
    .where('owner_id', 'in', scope(db.selectFrom('services').select('id')))
    .groupBy('owner_id')
    .execute();
  const countBy = new Map(counts.map((c) => [c.owner_id, Number(c.n)]));
  const owners = await ownerStates(db, fleetId, rows);
  const none: OwnerState = { mileage: null, engineHours: null, ins: 0 };
  return rows.map((r) =>
    serviceToWire(
      r,
      linesBy.get(r.id) ?? [],
      countBy.get(r.id) ?? 0,
      owners.get(objectKey(r.object_type, r.object_id)) ?? none,
    ),
  );
}
