import { addCalendar, type CalendarUnit, localDayNumber, OVERDUE_MASK, startOfDay } from '@fleetkeep/core';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../context.js';
import type { Database } from '../db/schema.js';
import { assign, createInterval, finish, snapshot } from '../test/engine-fixtures.js';
import { accountOf, createUnit, startTestServer, type TestServer } from '../test/harness.js';
import { type EngineScope, recompute } from './index.js';

/**
 * Property: over random intervals and random sequences of counter increases, time passing, closes,
 * rejects and starts (In progress), after every step followed by a recomputation:
 * - never two open services for one assignment;
 * - a Due service carries overdue iff its threshold has passed — STRICTLY: counter > baseline +
 *   frequency, or the local date after the due date (baseline date + frequency);
 * - an assignment without an open service has no kind within its advance notice (remaining ≤ notice);
 * - recomputing again at the same moment changes nothing (services, line items, assignments).
 */

const RUNS = 25;
const MAX_STEPS = 30;

const ruleArb = fc
  .record({
    cnme: fc.constantFrom(0, 1),
    cnmd: fc.integer({ min: 1, max: 5000 }),
    cnmo: fc.integer({ min: 0, max: 3000 }),
    cnehe: fc.constantFrom(0, 1),
    cnehd: fc.integer({ min: 1, max: 300 }),
    cneho: fc.integer({ min: 0, max: 100 }),
    de: fc.constantFrom(0, 1),
    dd: fc.integer({ min: 1, max: 12 }),
    du: fc.constantFrom('d', 'w', 'm', 'y'),
    do: fc.integer({ min: 0, max: 30 }),
  })
  .filter((r) => r.cnme + r.cnehe + r.de > 0);

const stepArb = fc.oneof(
  fc.record({
    kind: fc.constant('drive' as const),
    km: fc.integer({ min: 0, max: 2500 }),
    hours: fc.integer({ min: 0, max: 60 }),
  }),
  fc.record({ kind: fc.constant('wait' as const), seconds: fc.integer({ min: 0, max: 90 * DAY }) }),
  fc.record({
    kind: fc.constantFrom('close' as const, 'reject' as const, 'start' as const),
    which: fc.nat(2),
  }),
  // Lands exactly on (or next to) a threshold or notice point, where strictness matters.
  fc.record({
    kind: fc.constant('edge' as const),
    which: fc.nat(2),
    what: fc.constantFrom('mileage' as const, 'hours' as const, 'days' as const),
    notice: fc.boolean(),
    offset: fc.integer({ min: -1, max: 1 }),
  }),
);

describe('status engine properties (PRODUCT.md "The status engine")', () => {
  let t: TestServer;
  let db: Kysely<Database>;
  let fleetId: number;
  let accountId: number;
  let tz: number;
  let n = 0;
  /** One clock for every run: earlier runs' assignments share the fleet, so time must not go back. */
  let clock = now();

  beforeAll(async () => {
    t = await startTestServer();
    db = t.server.ctx.db.kysely;
    fleetId = t.demo.fleetId;
    accountId = await accountOf(t, 'manager');
    tz = (await db.selectFrom('fleets').select('tz').where('id', '=', fleetId).executeTakeFirstOrThrow()).tz;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function check(unitId: number, assignmentIds: number[], at: number, scope: EngineScope) {
    const unit = await db.selectFrom('units').selectAll().where('id', '=', unitId).executeTakeFirstOrThrow();
    for (const id of assignmentIds) {
      const a = await db.selectFrom('assignments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const i = await db
        .selectFrom('intervals')
        .selectAll()
        .where('id', '=', a.interval_id)
        .executeTakeFirstOrThrow();
      const services = await db.selectFrom('services').selectAll().where('assignment_id', '=', id).execute();
      const open = services.filter((s) => (s.f & 24) === 0);
      expect(open.length).toBeLessThanOrEqual(1);

      const km = i.cnme ? a.lcnm + i.cnmd - unit.mileage : null;
      const hours = i.cnehe ? a.lceh + i.cnehd - unit.engine_hours : null;
      const due = i.de ? addCalendar(tz, a.ltm, i.dd, i.du as CalendarUnit) : null;
      const days = due === null ? null : localDayNumber(tz, due) - localDayNumber(tz, at);
      let expected = 0;
      if (km !== null && km < 0) expected |= 4 | 256;
      if (hours !== null && hours < 0) expected |= 4 | 512;
      if (days !== null && days < 0) expected |= 4 | 1024;
      const s = open[0];
      if (s && (s.f & 2) === 0) expect(s.f & OVERDUE_MASK).toBe(expected);
      if (!s) {
        expect(km !== null && km <= i.cnmo).toBe(false);
        expect(hours !== null && hours <= i.cneho).toBe(false);
        expect(days !== null && days <= i.do).toBe(false);
      }
    }
    const before = await snapshot(db, fleetId);
    expect(await recompute(t.server.ctx, scope, at)).toEqual({ created: 0, changed: 0 });
    expect(await snapshot(db, fleetId)).toEqual(before);
  }

  it('keeps its invariants over random counter, time, close and reject sequences', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ruleArb, { minLength: 1, maxLength: 3 }),
        fc.array(stepArb, { maxLength: MAX_STEPS }),
        fc.boolean(),
        async (rules, steps, byFleet) => {
          const T0 = clock;
          let at = T0;
          let mileage = 1000;
          let hours = 100;
          const u = await createUnit(t, {
            accountId,
            fleetId,
            name: `prop unit ${++n}`,
            mileage,
            engineHours: hours,
          });
          const assignments: number[] = [];
          for (const rule of rules) {
            const iv = await createInterval(db, fleetId, `prop interval ${++n}`, rule);
            assignments.push(
              await assign(db, {
                fleetId,
                intervalId: iv,
                type: 'u',
                id: u,
                lcnm: mileage,
                lceh: hours,
                ltm: T0,
              }),
            );
          }
          const scope: EngineScope = byFleet ? { fleetId } : { objects: [{ type: 'u', id: u }] };
          const run = () => recompute(t.server.ctx, scope, at);
          await run();
          await check(u, assignments, at, scope);
          for (const step of steps) {
            if (step.kind === 'drive') {
              mileage += step.km;
              hours += step.hours;
              await db
                .updateTable('units')
                .set({ mileage, engine_hours: hours })
                .where('id', '=', u)
                .execute();
            } else if (step.kind === 'wait') {
              at += step.seconds;
              clock = at;
            } else if (step.kind === 'edge') {
              const a = await db
                .selectFrom('assignments')
                .innerJoin('intervals', 'intervals.id', 'assignments.interval_id')
                .selectAll()
                .where('assignments.id', '=', assignments[step.which % assignments.length]!)
                .executeTakeFirstOrThrow();
              if (step.what === 'mileage')
                mileage = Math.max(mileage, a.lcnm + a.cnmd - (step.notice ? a.cnmo : 0) + step.offset);
              if (step.what === 'hours')
                hours = Math.max(hours, a.lceh + a.cnehd - (step.notice ? a.cneho : 0) + step.offset);
              if (step.what === 'days') {
                const due = startOfDay(tz, addCalendar(tz, a.ltm, a.dd, a.du as CalendarUnit));
                at = Math.max(at, addCalendar(tz, due, step.offset - (step.notice ? a.do : 0), 'd'));
                clock = at;
              }
              await db
                .updateTable('units')
                .set({ mileage, engine_hours: hours })
                .where('id', '=', u)
                .execute();
            } else {
              const id = assignments[step.which % assignments.length]!;
              const open = await db
                .selectFrom('services')
                .selectAll()
                .where('assignment_id', '=', id)
                .where('f', '<', 8)
                .executeTakeFirst();
              if (open && step.kind === 'start') {
                await db
                  .updateTable('services')
                  .set({ f: 2, start_date: at })
                  .where('id', '=', open.id)
                  .execute();
              } else if (open && step.kind !== 'start') {
                await finish(db, open, step.kind, at, { mileage, engineHours: hours });
              }
            }
            await run();
            await check(u, assignments, at, scope);
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 240_000);
});
