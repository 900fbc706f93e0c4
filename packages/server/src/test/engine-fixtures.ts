import { type Kysely, sql } from 'kysely';
import type { Database, ServiceRow } from '../db/schema.js';

/**
 * Rows for the engine's tests, written directly: the intervals and services APIs are other modules.
 * Closing and rejecting follow PRODUCT.md "The status engine" (baseline reset, executions counted).
 */

export interface RuleInput {
  cnme?: number;
  cnmd?: number;
  cnmo?: number;
  cnehe?: number;
  cnehd?: number;
  cneho?: number;
  de?: number;
  dd?: number;
  du?: string;
  do?: number;
}

const NO_RULE = { cnme: 0, cnmd: 0, cnmo: 0, cnehe: 0, cnehd: 0, cneho: 0, de: 0, dd: 0, du: 'd', do: 0 };

export async function createInterval(
  db: Kysely<Database>,
  fleetId: number,
  name: string,
  rule: RuleInput,
  lines: { name: string; kind: number; qty: number; cost: number }[] = [],
): Promise<number> {
  const t = Math.floor(Date.now() / 1000);
  const row = await db
    .insertInto('intervals')
    .values({
      fleet_id: fleetId,
      name,
      description: `${name} description`,
      ...({ ...NO_RULE, ...rule } as typeof NO_RULE),
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (lines.length)
    await db
      .insertInto('interval_line_items')
      .values(lines.map((l, position) => ({ interval_id: row.id, position, ...l })))
      .execute();
  return row.id;
}

export async function assign(
  db: Kysely<Database>,
  a: {
    fleetId: number;
    intervalId: number;
    type: 'u' | 'd' | 't';
    id: number;
    lcnm?: number;
    lceh?: number;
    ltm: number;
  },
): Promise<number> {
  const row = await db
    .insertInto('assignments')
    .values({
      fleet_id: a.fleetId,
      interval_id: a.intervalId,
      object_type: a.type,
      object_id: a.id,
      lcnm: a.lcnm ?? 0,
      lceh: a.lceh ?? 0,
      ltm: a.ltm,
      cnt: 0,
      created_at: a.ltm,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function servicesOf(db: Kysely<Database>, assignmentId: number): Promise<ServiceRow[]> {
  return db
    .selectFrom('services')
    .selectAll()
    .where('assignment_id', '=', assignmentId)
    .orderBy('id')
    .execute();
}

export async function openServicesOf(db: Kysely<Database>, assignmentId: number): Promise<ServiceRow[]> {
  return (await servicesOf(db, assignmentId)).filter((s) => (s.f & 24) === 0);
}

export async function setCounters(
  db: Kysely<Database>,
  unitId: number,
  mileage: number,
  engineHours: number,
) {
  await db
    .updateTable('units')
    .set({ mileage, engine_hours: engineHours })
    .where('id', '=', unitId)
    .execute();
}

/** Closes (f 8) or rejects (f 16) a service and resets its assignment's baseline to `at` and the counters. */
export async function finish(
  db: Kysely<Database>,
  service: ServiceRow,
  how: 'close' | 'reject',
  at: number,
  counters: { mileage: number; engineHours: number },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('services')
      .set({
        f: how === 'close' ? 8 : 16,
        end_date: at,
        mileage: counters.mileage,
        engine_hours: counters.engineHours,
        updated_at: at,
      })
      .where('id', '=', service.id)
      .execute();
    await trx
      .updateTable('assignments')
      .set({
        lcnm: counters.mileage,
        lceh: counters.engineHours,
        ltm: at,
        cnt: how === 'close' ? sql<number>`cnt + 1` : sql<number>`cnt`,
      })
      .where('id', '=', service.assignment_id as number)
      .execute();
  });
}

/** Everything the engine may write, for "running again changes nothing" comparisons. */
export async function snapshot(db: Kysely<Database>, fleetId: number) {
  const services = await db
    .selectFrom('services')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const assignments = await db
    .selectFrom('assignments')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const lines = await db
    .selectFrom('service_line_items')
    .innerJoin('services', 'services.id', 'service_line_items.service_id')
    .select(['service_line_items.id', 'service_id', 'service_line_items.name', 'qty', 'cost'])
    .where('services.fleet_id', '=', fleetId)
    .orderBy('service_line_items.id')
    .execute();
  return { services, assignments, lines };
}
