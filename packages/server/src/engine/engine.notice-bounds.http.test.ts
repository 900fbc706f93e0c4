import {
  evaluate,
  INTERVAL_RULES_OFF,
  type IntervalRule,
  TZ_DST_EUROPE,
  TZ_DST_SOUTH,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../context.js';
import type { Database } from '../db/schema.js';
import { createInterval } from '../test/engine-fixtures.js';
import { accountOf, createUnit, startTestServer, type TestServer } from '../test/harness.js';
import { recompute } from './index.js';

/**
 * A fleet-wide run reads only the assignments that may be within notice (plan.ts `mayBeWithinNotice`, a
 * loose SQL bound). Here every assignment sits at or just around the exact point where core
 * `evaluate` starts to find it within notice: time rules of every calendar unit in zones with and
 * without daylight saving, on month ends and around leap days, and counters a rounding step either side
 * of the threshold. The run must create a service for exactly the assignments `evaluate` says.
 */

const UNITS = ['d', 'w', 'm', 'y'] as const;
const ZONES = [0, 840, -720 & 0xffff, 60 | TZ_DST_EUROPE, (-180 & 0xffff) | TZ_DST_SOUTH];
const AT = [
  Date.UTC(2025, 2, 1, 12) / 1000, // the day after February
  Date.UTC(2024, 2, 31, 0, 30) / 1000, // Europe's change to summer time, a leap year
  Date.UTC(2024, 0, 31, 23, 50) / 1000, // a month end late in the day
];
const MILEAGE = 100_000;
const HOURS = 5_000;
/** Counter offsets from the exact threshold: rounding (core status.ts rounds to 1/1000) and beyond. */
const COUNTER_STEPS = [-1.5, -0.002, -0.0006, -0.0004, 0, 0.0004, 0.0006, 0.002, 1.5];

interface Row {
  interval_id: number;
  object_type: 'u' | 'd';
  object_id: number;
  lcnm: number;
  lceh: number;
  ltm: number;
}

const withinNotice = (
  rule: IntervalRule,
  row: Row,
  counters: { mileage: number | null; engineHours: number | null },
  at: number,
  tz: number,
) => evaluate(rule, row, counters, at, tz).notice.length > 0;

/** The latest last date at which the time rule is within notice at `at` (found by halving). */
function lastDateWithin(rule: IntervalRule, at: number, tz: number): number {
  const none = { mileage: null, engineHours: null };
  const row = (ltm: number) => ({
    interval_id: 0,
    object_type: 'd' as const,
    object_id: 0,
    lcnm: 0,
    lceh: 0,
    ltm,
  });
  let lo = at - 20 * 366 * DAY; // within notice
  let hi = at + DAY; // not: the due date is after it
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (withinNotice(rule, row(mid), none, at, tz)) lo = mid;
    else hi = mid;
  }
  return lo;
}

describe('status engine: the fleet read leaves out only assignments outside notice', () => {
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

  it('creates services for exactly the assignments core evaluate finds within notice, at the edges', async () => {
    for (const tz of ZONES)
      for (const at of AT) {
        const fleet = await db
          .insertInto('fleets')
          .values({
            account_id: accountId,
            name: `bounds ${++n}`,
            tz,
            cur: 'EUR',
            ms: 0,
            fm: 1,
            created_at: now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const fleetId = fleet.id;
        const rules = new Map<number, IntervalRule>();
        const rows: Row[] = [];
        const counters = new Map<number, { mileage: number; engineHours: number }>();

        // Time rules: drivers (no counters), last dates from a day before the edge to hours after it.
        let driver = 0;
        for (const du of UNITS)
          for (const dd of [1, 13])
            for (const notice of [0, 30]) {
              const rule = { ...INTERVAL_RULES_OFF, de: 1, dd, du, do: notice };
              const id = await createInterval(db, fleetId, `time ${++n}`, rule);
              rules.set(id, rule);
              const edge = lastDateWithin(rule, at, tz);
              for (const offset of [-2 * DAY, -DAY, -3600, -61, -1, 0, 1, 61, 3600, DAY / 2, DAY, 3 * DAY])
                rows.push({
                  interval_id: id,
                  object_type: 'd',
                  object_id: ++driver,
                  lcnm: 0,
                  lceh: 0,
                  ltm: edge + offset,
                });
            }

        // Counter rules: units whose counters sit a step either side of baseline + frequency − notice.
        const mileageRule = { ...INTERVAL_RULES_OFF, cnme: 1, cnmd: 15_000, cnmo: 1_000 };
        const exactMileage = { ...INTERVAL_RULES_OFF, cnme: 1, cnmd: 15_000, cnmo: 0 };
        const hoursRule = { ...INTERVAL_RULES_OFF, cnehe: 1, cnehd: 500, cneho: 25 };
        const exactHours = { ...INTERVAL_RULES_OFF, cnehe: 1, cnehd: 500, cneho: 0 };
        const counterRules: [number, IntervalRule][] = [];
        for (const rule of [mileageRule, exactMileage, hoursRule, exactHours]) {
          const id = await createInterval(db, fleetId, `counter ${++n}`, rule);
          rules.set(id, rule);
          counterRules.push([id, rule]);
        }
        for (const step of COUNTER_STEPS) {
          const unit = { mileage: MILEAGE + step, engineHours: HOURS + step };
          const unitId = await createUnit(t, { accountId, fleetId, name: `bounds unit ${++n}`, ...unit });
          counters.set(unitId, unit);
          for (const [id, rule] of counterRules)
            rows.push({
              interval_id: id,
              object_type: 'u',
              object_id: unitId,
              lcnm: MILEAGE - rule.cnmd + rule.cnmo,
              lceh: HOURS - rule.cnehd + rule.cneho,
              ltm: at,
            });
        }

        const inserted = await db
          .insertInto('assignments')
          .values(rows.map((r) => ({ ...r, fleet_id: fleetId, cnt: 0, created_at: at })))
          .returning(['id', 'interval_id', 'object_type', 'object_id', 'lcnm', 'lceh', 'ltm'])
          .execute();
        const want = inserted
          .filter((r) => {
            const c = counters.get(r.object_id);
            const unit = r.object_type === 'u' && c ? c : { mileage: null, engineHours: null };
            return withinNotice(rules.get(r.interval_id)!, r as Row, unit, at, tz);
          })
          .map((r) => r.id)
          .sort((a, b) => a - b);
        // Both sides of every edge are present, so the comparison below tells something.
        expect(want.length).toBeGreaterThan(0);
        expect(want.length).toBeLessThan(inserted.length);

        await recompute(t.server.ctx, { fleetId }, at);
        const created = await db
          .selectFrom('services')
          .select('assignment_id')
          .where('fleet_id', '=', fleetId)
          .execute();
        expect(created.map((s) => s.assignment_id).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(want);
      }
  });
});
