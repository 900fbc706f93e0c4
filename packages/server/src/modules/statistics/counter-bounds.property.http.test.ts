import { ACL_ALL, TZ_DST_EUROPE } from '@fleetkeep/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetDays } from '../../test/cost-scan.js';
import {
  accountOf,
  createFleet,
  createUnit,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/**
 * Distance and engine hours of the fleet call's unit rows (read per unit and bound) against a scan of the
 * counter history
 * (`counter_days`, migration 008) done here, for random histories with gaps, fractional counters, hand
 * corrections and live counters on the latest day, in a zone with daylight saving (the periods cross its
 * changes when the test runs near one), and against the unit call of each unit.
 */
describe('fleet distance and engine hours equal a scan of the counter history', () => {
  let t: TestServer;
  let accountId: number;
  let n = 0;
  const tz = 60 | TZ_DST_EUROPE;
  const SPAN = 30;
  const UNITS = 3;

  beforeAll(async () => {
    t = await startTestServer();
    accountId = await accountOf(t, 'manager');
  });
  afterAll(() => t?.close());

  const db = () => t.server.ctx.db.kysely;
  const { dayStart, iso } = fleetDays(tz);

  /** A unit's history: days back (distinct), each with what it drove before and during it. */
  const history = fc.uniqueArray(
    fc.record({
      back: fc.nat(SPAN),
      gap: fc.integer({ min: 0, max: 50_000 }),
      drove: fc.integer({ min: 0, max: 90_000 }),
      hours: fc.integer({ min: 0, max: 9_000 }),
    }),
    { selector: (d) => d.back, maxLength: 8 },
  );
  const unit = fc.record({
    days: history,
    offM: fc.integer({ min: -500_000, max: 500_000 }),
    offH: fc.integer({ min: -5_000, max: 5_000 }),
    liveExtra: fc.integer({ min: 0, max: 20_000 }),
  });
  const period = fc
    .tuple(fc.nat(SPAN + 2), fc.nat(SPAN + 2))
    .map(([a, b]) => [Math.max(a, b), Math.min(a, b)] as const);

  interface Row {
    day: number;
    fm: number;
    lm: number;
    fh: number;
    lh: number;
  }

  /** Distance and hours of one unit from its rows (service.ts `periodCounters`, spelled out). */
  function expected(rows: Row[], live: { day: number | null; m: number; h: number }, a: number, b: number) {
    const upTo = rows.filter((r) => r.day <= b);
    const end = upTo[upTo.length - 1];
    if (!end || end.day < a) return { mileage: 0, engine_hours: 0 };
    const before = rows.filter((r) => r.day < a).pop();
    const first = rows.find((r) => r.day >= a && r.day <= b)!;
    const baseM = before ? before.lm : first.fm;
    const baseH = before ? before.lh : first.fh;
    const isLive = end.day === live.day;
    const endM = isLive ? live.m : end.lm;
    const endH = isLive ? live.h : end.lh;
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    return { mileage: r3(Math.max(endM - baseM, 0)), engine_hours: r3(Math.max(endH - baseH, 0)) };
  }

  it('for random histories and periods', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(unit, { minLength: UNITS, maxLength: UNITS }),
        fc.array(period, { minLength: 1, maxLength: 4 }),
        async (specs, periods) => {
          const fleetId = await createFleet(t, accountId, `Counter bounds ${++n}`);
          await db().updateTable('fleets').set({ tz }).where('id', '=', fleetId).execute();
          const name = `counter-bounds-user-${n}`;
          await createUser(t, { name, accountId, memberships: [{ fleetId, acl: ACL_ALL }] });
          const client = await t.login(name);
          const models: { id: number; rows: Row[]; live: { day: number | null; m: number; h: number } }[] =
            [];
          for (const [i, spec] of specs.entries()) {
            const id = await createUnit(t, { accountId, fleetId, name: `counter bounds ${n}-${i}` });
            // Oldest first; counters in thousandths of a km (or hour), so that they are fractional.
            let m = 1000 + i * 7.001;
            let h = 10 + i * 0.3;
            const rows: Row[] = [];
            for (const d of [...spec.days].sort((x, y) => y.back - x.back)) {
              m += d.gap / 1000;
              const fm = m;
              m += d.drove / 1000;
              h += d.hours / 3000;
              rows.push({ day: dayStart(d.back), fm, lm: m, fh: h - d.hours / 3000, lh: h });
            }
            if (rows.length)
              await db()
                .insertInto('counter_days')
                .values(
                  rows.map((r) => ({
                    unit_id: id,
                    day: r.day,
                    first_mileage: r.fm,
                    last_mileage: r.lm,
                    first_engine_hours: r.fh,
                    last_engine_hours: r.lh,
                  })),
                )
                .execute();
            const latest = rows[rows.length - 1];
            const offM = spec.offM / 1000;
            const offH = spec.offH / 1000;
            // The live counters (less the corrections) go on from the latest day's last ones.
            const live = {
              day: latest?.day ?? null,
              m: (latest?.lm ?? m) + spec.liveExtra / 1000,
              h: (latest?.lh ?? h) + spec.liveExtra / 7000,
            };
            await db()
              .updateTable('units')
              .set({
                counter_day: live.day,
                mileage: live.m + offM,
                engine_hours: live.h + offH,
                counter_off_mileage: offM,
                counter_off_engine_hours: offH,
              })
              .where('id', '=', id)
              .execute();
            // What the server computes from: the live counters less the corrections, as stored.
            const stored = await db()
              .selectFrom('units')
              .select(['mileage', 'engine_hours', 'counter_off_mileage', 'counter_off_engine_hours'])
              .where('id', '=', id)
              .executeTakeFirstOrThrow();
            live.m = stored.mileage - stored.counter_off_mileage;
            live.h = stored.engine_hours - stored.counter_off_engine_hours;
            models.push({ id, rows, live });
          }
          for (const [from, to] of periods) {
            const query = `from=${iso(from)}&to=${iso(to)}`;
            const fleet = await client.get(`/api/fleets/${fleetId}/statistics?${query}`);
            expect(fleet.status, JSON.stringify(fleet.body)).toBe(200);
            const rows = (fleet.body as { units: { uid: number; mileage: number; engine_hours: number }[] })
              .units;
            for (const m of models) {
              const want = expected(m.rows, m.live, dayStart(from), dayStart(to));
              const row = rows.find((r) => r.uid === m.id);
              const got = row
                ? { mileage: row.mileage, engine_hours: row.engine_hours }
                : { mileage: 0, engine_hours: 0 };
              expect(got, `unit ${m.id} ${query}`).toEqual(want);
              const single = await client.get(`/api/fleets/${fleetId}/units/${m.id}/statistics?${query}`);
              expect(single.body, `unit call ${m.id} ${query}`).toMatchObject(want);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
