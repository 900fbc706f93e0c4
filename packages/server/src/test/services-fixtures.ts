import { localDate, startOfDay } from '@fleetkeep/core';
import { DAY, now } from '../context.js';
import { createUnit, type TestServer } from './harness.js';

/**
 * Helpers of the services test suites: the fleet's "today", units, and intervals with assignments
 * written directly (the intervals module owns their API).
 */
export async function servicesFixture(t: TestServer) {
  const db = t.server.ctx.db.kysely;
  const fleetId = t.demo.fleetId;
  const { tz, account_id: accountId } = await db
    .selectFrom('fleets')
    .select(['tz', 'account_id'])
    .where('id', '=', fleetId)
    .executeTakeFirstOrThrow();
  let n = 0;
  const today = () => startOfDay(tz, now());
  return {
    db,
    fleetId,
    tz,
    base: `/api/fleets/${fleetId}/services`,
    today,
    /** Start of the day `offset` days from today in the fleet zone. */
    day: (offset: number) => startOfDay(tz, today() + offset * DAY + 6 * 3600),
    /** The same day as YYYY-MM-DD. */
    iso: (offset: number) => localDate(tz, today() + offset * DAY + 6 * 3600),
    unit(mileage = 5000, engineHours = 300) {
      return createUnit(t, { accountId, fleetId, name: `svc unit ${++n}`, mileage, engineHours });
    },
    async unitRow(id: number) {
      return db.selectFrom('units').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    },
    /** An interval far from due (nothing for the engine to do) assigned to a unit. */
    async assignment(unitId: number, baseline = { lcnm: 0, lceh: 0, ltm: now() - 30 * DAY, cnt: 0 }) {
      const t0 = now();
      const iv = await db
        .insertInto('intervals')
        .values({
          fleet_id: fleetId,
          name: `svc interval ${++n}`,
          description: '',
          cnme: 1,
          cnmd: 1_000_000,
          cnmo: 0,
          cnehe: 0,
          cnehd: 0,
          cneho: 0,
          de: 0,
          dd: 0,
          du: 'd',
          do: 0,
          creator_id: null,
          created_at: t0,
          updated_at: t0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const a = await db
        .insertInto('assignments')
        .values({
          fleet_id: fleetId,
          interval_id: iv.id,
          object_type: 'u',
          object_id: unitId,
          ...baseline,
          created_at: t0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ivid: iv.id, aid: a.id };
    },
    async assignmentRow(id: number) {
      return db.selectFrom('assignments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    },
    /** A one-byte attachment of a service, written straight into the database (as another path would). */
    async attach(serviceId: number) {
      await db
        .insertInto('attachments')
        .values({
          fleet_id: fleetId,
          owner_type: 'service',
          owner_id: serviceId,
          name: 'a.txt',
          content_type: 'text/plain',
          size: 1,
          data: Buffer.from('a'),
          created_at: now(),
          creator_id: null,
        })
        .execute();
    },
  };
}
