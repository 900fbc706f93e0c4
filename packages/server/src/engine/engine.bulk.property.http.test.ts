import {
  type DomainEvent,
  evaluate,
  forecastDate,
  OVERDUE_MASK,
  ServiceFlag,
  TZ_DST_EUROPE,
  TZ_DST_SOUTH,
} from '@fleetkeep/core';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../context.js';
import type { Database, ServiceRow } from '../db/schema.js';
import { engineEvents } from '../events/domain.js';
import { assign, createInterval } from '../test/engine-fixtures.js';
import { accountOf, createUnit, startTestServer, type TestServer } from '../test/harness.js';
import { type EngineScope, recompute } from './index.js';
import { isDue } from './plan.js';

/**
 * Property: the set-based engine (one read of the assignments with their counters,
 * bulk writes) writes the same rows and records the same domain events as the per-row path would.
 * The per-row reference below reads each assignment, its interval, fleet zone, unit and open service
 * one at a time and applies core `evaluate` as PRODUCT.md "The status engine" says; random fleets,
 * intervals, baselines, counters, existing services (Due with any overdue flags, In progress,
 * archived), assignments of units that are gone, and scopes (fleet, time rules only, objects, ids).
 */

const RUNS = 20;
const ARCHIVED = ServiceFlag.closed | ServiceFlag.rejected;
/** An object id no unit has: its assignments are left alone. */
const GONE_UNIT = 900_000_000;

const ruleArb = fc.record({
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
});

/** What an assignment has before the run: no service, or one in some state. */
const existingArb = fc.constantFrom('none', 'due', 'overdue', 'inProgress', 'closed', 'rejected');

const assignmentArb = fc.record({
  unit: fc.nat(),
  interval: fc.nat(),
  /** Share of the frequency used since the baseline: 0 to 1.3, so some are past due. */
  share: fc.double({ min: 0, max: 1.3, noNaN: true }),
  existing: existingArb,
  overdueFlags: fc.subarray([256, 512, 1024]),
});

const scopeArb = fc.constantFrom('fleet', 'timeRules', 'objects', 'ids', 'union');

const zoneArb = fc
  .record({
    minutes: fc.integer({ min: -720, max: 840 }),
    dst: fc.constantFrom(0, TZ_DST_EUROPE, TZ_DST_SOUTH),
  })
  .map(({ minutes, dst }) => (minutes & 0xffff) | dst);

interface Expected {
  created: Map<number, Omit<ServiceRow, 'id' | 'created_at' | 'updated_at'>>;
  changed: Map<number, number>;
}

describe('status engine: the bulk path equals the per-row path', () => {
  let t: TestServer;
  let db: Kysely<Database>;
  let accountId: number;
  let n = 0;

  beforeAll(async () => {
    t = await startTestServer();
    db = t.server.ctx.db.kysely;
    accountId = await accountOf(t, 'manager');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function createFleet(tz: number): Promise<number> {
    const row = await db
      .insertInto('fleets')
      .values({
        account_id: accountId,
        name: `bulk fleet ${++n}`,
        tz,
        cur: 'EUR',
        ms: 0,
        fm: 1,
        created_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function openService(
    fleetId: number,
    a: { id: number; interval_id: number; object_type: string; object_id: number },
    f: number,
    at: number,
  ) {
    await db
      .insertInto('services')
      .values({
        fleet_id: fleetId,
        object_type: a.object_type,
        object_id: a.object_id,
        interval_id: a.interval_id,
        assignment_id: a.id,
        f,
        name: 'existing',
        description: '',
        creator_id: null,
        created_at: at,
        updated_at: at,
        cf: '[]',
      })
      .execute();
  }

  /** The per-row reference: what the engine must do for each assignment in scope, read one by one. */
  async function perRow(assignmentIds: number[], at: number): Promise<Expected> {
    const expected: Expected = { created: new Map(), changed: new Map() };
    for (const id of assignmentIds) {
      const a = await db.selectFrom('assignments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const i = await db
        .selectFrom('intervals')
        .selectAll()
        .where('id', '=', a.interval_id)
        .executeTakeFirst();
      const fleet = await db
        .selectFrom('fleets')
        .select('tz')
        .where('id', '=', a.fleet_id)
        .executeTakeFirst();
      const unit =
        a.object_type === 'u'
          ? await db.selectFrom('units').selectAll().where('id', '=', a.object_id).executeTakeFirst()
          : undefined;
      if (!i || (a.object_type === 'u' && !unit)) continue;
      const tz = fleet?.tz ?? 0;
      const counters = unit
        ? { mileage: unit.mileage, engineHours: unit.engine_hours }
        : { mileage: null, engineHours: null };
      const e = evaluate(i, a, counters, at, tz);
      const open = (
        await db.selectFrom('services').selectAll().where('assignment_id', '=', id).execute()
      ).find((s) => (s.f & ARCHIVED) === 0);
      if (open) {
        const f = (open.f & ~OVERDUE_MASK) | e.overdueFlags;
        if (isDue(open.f) && f !== open.f) expected.changed.set(open.id, f);
        continue;
      }
      if (e.notice.length === 0) continue;
      const isUnit = a.object_type === 'u';
      expected.created.set(a.id, {
        fleet_id: a.fleet_id,
        object_type: a.object_type,
        object_id: a.object_id,
        interval_id: i.id,
        assignment_id: a.id,
        f: ServiceFlag.upcoming | e.overdueFlags,
        name: i.name,
        description: i.description,
        creator_id: null,
        start_date: null,
        end_date: null,
        planned_date: e.plannedDate,
        // No positions in these fleets: the average daily distance is unknown.
        forecast_date: isUnit ? forecastDate(e.remaining.mileage, null, e.today, tz) : null,
        limit_mileage: e.remaining.mileage === null ? null : a.lcnm + i.cnmd,
        limit_engine_hours: e.remaining.engineHours === null ? null : a.lceh + i.cnehd,
        last_date: a.ltm,
        last_mileage: isUnit ? a.lcnm : null,
        last_engine_hours: isUnit ? a.lceh : null,
        mileage: null,
        engine_hours: null,
        manual_cost: null,
        notify_days: null,
        cf: '[]',
      });
    }
    return expected;
  }

  /** The domain events recorded after outbox row `after`, without their random ids. */
  async function eventsAfter(fleetId: number, after: number) {
    const rows = await db
      .selectFrom('domain_events')
      .select('payload')
      .where('fleet_id', '=', fleetId)
      .where('id', '>', after)
      .execute();
    return rows.map((r) => {
      const { id: _id, ...event } = JSON.parse(r.payload) as DomainEvent;
      return event;
    });
  }

  const byKey = (e: object) => JSON.stringify(e, Object.keys(e).sort());

  it('same services, line items, flags and domain events for random fleets and scopes', async () => {
    await fc.assert(
      fc.asyncProperty(
        zoneArb,
        fc.array(ruleArb, { minLength: 1, maxLength: 4 }),
        fc.array(
          fc.record({
            mileage: fc.integer({ min: 0, max: 300_000 }),
            hours: fc.integer({ min: 0, max: 8000 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.array(assignmentArb, { minLength: 1, maxLength: 14 }),
        scopeArb,
        fc.integer({ min: 0, max: 400 * DAY }),
        async (tz, rules, units, specs, scopeKind, ahead) => {
          const T0 = now();
          const at = T0 + ahead;
          const fleetId = await createFleet(tz);
          const unitIds = [];
          for (const u of units)
            unitIds.push(
              await createUnit(t, {
                accountId,
                fleetId,
                name: `bulk unit ${++n}`,
                mileage: u.mileage,
                engineHours: u.hours,
              }),
            );
          const intervals = [];
          for (const [k, rule] of rules.entries())
            intervals.push({
              rule,
              id: await createInterval(
                db,
                fleetId,
                `bulk interval ${++n}`,
                rule,
                k % 2 === 0 ? [{ name: `part ${n}`, kind: 2, qty: 1000 + k, cost: 2500 * (k + 1) }] : [],
              ),
            });
          const assignmentIds: number[] = [];
          const pairs = new Set<string>();
          for (const spec of specs) {
            const interval = intervals[spec.interval % intervals.length]!;
            // One in seven points at a unit that is gone.
            const which = spec.unit % (units.length + 1);
            const unitId = which === units.length ? GONE_UNIT + n : unitIds[which]!;
            const counters = units[which] ?? { mileage: 0, hours: 0 };
            if (pairs.has(`${interval.id}:${unitId}`)) continue;
            pairs.add(`${interval.id}:${unitId}`);
            const id = await assign(db, {
              fleetId,
              intervalId: interval.id,
              type: 'u',
              id: unitId,
              lcnm: Math.max(0, counters.mileage - spec.share * interval.rule.cnmd),
              lceh: Math.max(0, counters.hours - spec.share * interval.rule.cnehd),
              ltm: T0 - Math.round(spec.share * 200 * DAY),
            });
            assignmentIds.push(id);
            const a = { id, interval_id: interval.id, object_type: 'u', object_id: unitId };
            const overdue = spec.overdueFlags.reduce((f, k) => f | k, spec.overdueFlags.length ? 4 : 0);
            const flags: Record<string, number | null> = {
              none: null,
              due: ServiceFlag.upcoming,
              overdue: ServiceFlag.upcoming | overdue,
              inProgress: ServiceFlag.upcoming | ServiceFlag.inProgress | overdue,
              closed: ServiceFlag.closed,
              rejected: ServiceFlag.rejected,
            };
            const f = flags[spec.existing] ?? null;
            if (f !== null) await openService(fleetId, a, f, T0);
          }

          const half = (ids: number[]) => ids.filter((_, k) => k % 2 === 0);
          const scopes: Record<string, EngineScope> = {
            fleet: { fleetId },
            timeRules: { fleetId, timeRulesOnly: true },
            objects: { objects: half(unitIds).map((id) => ({ type: 'u' as const, id })) },
            ids: { assignmentIds: half(assignmentIds) },
            union: {
              objects: half(unitIds).map((id) => ({ type: 'u' as const, id })),
              assignmentIds: half([...assignmentIds].reverse()),
            },
          };
          const scope = scopes[scopeKind]!;
          const inScope = await db
            .selectFrom('assignments')
            .innerJoin('intervals', 'intervals.id', 'assignments.interval_id')
            .select(['assignments.id', 'assignments.object_id', 'intervals.de'])
            .where('assignments.fleet_id', '=', fleetId)
            .execute();
          const objectIds = new Set((scope.objects ?? []).map((o) => o.id));
          const ids = new Set(scope.assignmentIds ?? []);
          const looked = inScope
            .filter(
              (r) =>
                (scope.fleetId !== undefined && (!scope.timeRulesOnly || r.de === 1)) ||
                objectIds.has(r.object_id) ||
                ids.has(r.id),
            )
            .map((r) => r.id);

          const expected = await perRow(looked, at);
          const before = await db
            .selectFrom('services')
            .selectAll()
            .where('fleet_id', '=', fleetId)
            .orderBy('id')
            .execute();
          const lastEvent = await db
            .selectFrom('domain_events')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst();
          const lastEventId = Number(lastEvent?.id ?? 0);

          expect(await recompute(t.server.ctx, scope, at)).toEqual({
            created: expected.created.size,
            changed: expected.changed.size,
          });

          const after = await db
            .selectFrom('services')
            .selectAll()
            .where('fleet_id', '=', fleetId)
            .orderBy('id')
            .execute();
          const old = new Map(before.map((s) => [s.id, s]));
          const created = after.filter((s) => !old.has(s.id));
          // Created: exactly the expected rows.
          expect(
            new Map(created.map(({ id: _i, created_at: _c, updated_at: _u, ...s }) => [s.assignment_id, s])),
          ).toEqual(expected.created);
          // Existing: the expected flag changes, every other row untouched.
          for (const s of after.filter((r) => old.has(r.id))) {
            const was = old.get(s.id)!;
            const f = expected.changed.get(s.id);
            expect(s).toEqual(f === undefined ? was : { ...was, f, updated_at: s.updated_at });
          }
          // Line items: the interval's, on each new service.
          for (const s of created) {
            const lines = await db
              .selectFrom('service_line_items')
              .select(['position', 'name', 'kind', 'qty', 'cost'])
              .where('service_id', '=', s.id)
              .orderBy('position')
              .execute();
            const source = await db
              .selectFrom('interval_line_items')
              .select(['position', 'name', 'kind', 'qty', 'cost'])
              .where('interval_id', '=', s.interval_id as number)
              .orderBy('position')
              .execute();
            expect(lines).toEqual(source);
          }
          // Domain events: those of the per-row writes, once each.
          const changedRows = after
            .filter((s) => expected.changed.has(s.id))
            .map((row) => ({ row, from: old.get(row.id)!.f }));
          const want = engineEvents(created, changedRows, at).map(byKey).sort();
          expect((await eventsAfter(fleetId, lastEventId)).map(byKey).sort()).toEqual(want);

          // Once: running again at the same moment writes nothing and records nothing.
          expect(await recompute(t.server.ctx, scope, at)).toEqual({ created: 0, changed: 0 });
          expect(await eventsAfter(fleetId, lastEventId)).toHaveLength(want.length);
        },
      ),
      { numRuns: RUNS },
    );
  }, 240_000);
});
