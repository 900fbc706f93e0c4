import type { Kysely } from 'kysely';
import { now } from '../context.js';
import type { Database } from '../db/schema.js';
import { assign, createInterval } from './engine-fixtures.js';
import { accountOf, startTestServer } from './harness.js';

/**
 * Maintenance of one service object, written directly, for the removal tests of
 * modules/fleets/objects-admin.ts (PRODUCT.md "Service objects and counters").
 */

type ObjectType = 'u' | 'd' | 't';

/**
 * A service of an object in a fleet, written directly: `f` 1 Due, 129 manual Due, 2 in progress, 8
 * closed. Also the matrix cases' service (service-cases.ts), with its name and a planned date.
 */
export async function seedService(
  db: Kysely<Database>,
  fleetId: number,
  type: ObjectType,
  objectId: number,
  f: number,
  assignmentId: number | null,
  options: { name?: string; plannedDate?: number | null } = {},
): Promise<number> {
  const t0 = now();
  const row = await db
    .insertInto('services')
    .values({
      fleet_id: fleetId,
      object_type: type,
      object_id: objectId,
      interval_id: null,
      assignment_id: assignmentId,
      f,
      name: options.name ?? `service f${f}`,
      description: '',
      creator_id: null,
      created_at: t0,
      updated_at: t0,
      start_date: f & 8 ? t0 - 86400 : null,
      end_date: f & 8 ? t0 - 86400 : null,
      planned_date: options.plannedDate ?? null,
      forecast_date: null,
      limit_mileage: null,
      limit_engine_hours: null,
      last_date: null,
      last_mileage: null,
      last_engine_hours: null,
      mileage: null,
      engine_hours: null,
      manual_cost: null,
      notify_days: null,
      cf: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Services of an object (id and flags), by id. */
export const servicesOf = (db: Kysely<Database>, type: ObjectType, objectId: number) =>
  db
    .selectFrom('services')
    .select(['id', 'f'])
    .where('object_type', '=', type)
    .where('object_id', '=', objectId)
    .orderBy('id')
    .execute();

/** An interval assignment of the object with a Due service, a manual Due service and an archived one. */
export async function withMaintenance(
  db: Kysely<Database>,
  fleetId: number,
  type: ObjectType,
  objectId: number,
  name: string,
) {
  const intervalId = await createInterval(db, fleetId, name, { de: 1, dd: 30 });
  const assignmentId = await assign(db, { fleetId, intervalId, type, id: objectId, ltm: now() });
  const due = await seedService(db, fleetId, type, objectId, 1, assignmentId);
  const manual = await seedService(db, fleetId, type, objectId, 129, null);
  const archived = await seedService(db, fleetId, type, objectId, 8, null);
  return { intervalId, assignmentId, due, manual, archived };
}

/** The server and the demo users the service-object administration tests act as. */
export async function startObjectsAdmin() {
  const t = await startTestServer();
  const [admin, manager, mechanic, outsider] = await Promise.all([
    t.login('admin'),
    t.login('manager'),
    t.login('mechanic'),
    t.login('outsider'),
  ]);
  return {
    t,
    admin,
    manager,
    mechanic,
    outsider,
    base: `/api/fleets/${t.demo.fleetId}`,
    demoAccount: await accountOf(t, 'admin'),
  };
}
