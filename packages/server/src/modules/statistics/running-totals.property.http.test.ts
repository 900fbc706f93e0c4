import { ACL_ALL, TZ_DST_EUROPE } from '@fleetkeep/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { backfillRunningTotals, RUNNING_FIGURES } from '../../db/migrations/021_cost_running_totals.js';
import { costScan, fleetDays } from '../../test/cost-scan.js';
import {
  accountOf,
  createFleet,
  createUnit,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import type { RunningTables } from './cost-days.js';

/**
 * The running totals of the daily cost aggregates (migration 021: a period's figures are the
 * difference of two running totals, never a sum of raw rows) after any sequence of writes: fuel fillings
 * created, moved to another unit or day, changed and deleted; closed services created, moved to another
 * day, changed and deleted; fuel fillings and services imported (POST …/import/{kind}). Afterwards every
 * row's running totals are what the scan of the raw rows adds up to for its object up to its day, and
 * the statistics of random periods (fleet rows per unit, and a unit's call) are the scan's sums of the
 * period.
 */
describe('running cost totals after random writes', () => {
  let t: TestServer;
  let accountId: number;
  let n = 0;
  // Central European time, with daylight saving: fillings near midnight test the fleet days.
  const tz = 60 | TZ_DST_EUROPE;
  const SPAN = 40;
  const UNITS = 3;

  beforeAll(async () => {
    t = await startTestServer();
    accountId = await accountOf(t, 'manager');
  });
  afterAll(() => t?.close());

  const db = () => t.server.ctx.db.kysely;
  const { dayStart, iso, dec } = fleetDays(tz);

  const thousandths = fc.integer({ min: 0, max: 200_000 });
  const filling = fc.record({
    unit: fc.nat(UNITS - 1),
    back: fc.nat(SPAN),
    minute: fc.nat(1439),
    volume: fc.integer({ min: 1, max: 150_000 }),
    cost: thousandths,
  });
  const command = fc.oneof(
    fc.record({ op: fc.constant('fuel' as const), f: filling }),
    fc.record({ op: fc.constant('fuelMove' as const), pick: fc.nat(), f: filling }),
    fc.record({ op: fc.constant('fuelDelete' as const), pick: fc.nat() }),
    fc.record({
      op: fc.constant('closed' as const),
      unit: fc.nat(UNITS - 1),
      back: fc.nat(SPAN),
      cost: thousandths,
    }),
    fc.record({
      op: fc.constant('archiveMove' as const),
      pick: fc.nat(),
      back: fc.nat(SPAN),
      cost: thousandths,
    }),
    fc.record({ op: fc.constant('archiveDelete' as const), pick: fc.nat() }),
    fc.record({
      op: fc.constant('importFuel' as const),
      rows: fc.array(fc.record({ unit: fc.nat(UNITS - 1), back: fc.nat(SPAN), cost: thousandths }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
    fc.record({
      op: fc.constant('importServices' as const),
      rows: fc.array(fc.record({ unit: fc.nat(UNITS - 1), back: fc.nat(SPAN), cost: thousandths }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
  );
  type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;
  const period = fc
    .tuple(fc.nat(SPAN + 2), fc.nat(SPAN + 2))
    .map(([a, b]) => [Math.max(a, b), Math.min(a, b)]);

  /** Every `cost_days` row of the fleet with its running totals, in key order. */
  const runningRows = (fleetId: number) =>
    db()
      .withTables<RunningTables>()
      .selectFrom('cost_days')
      .selectAll()
      .where('fleet_id', '=', fleetId)
      .orderBy('object_type')
      .orderBy('object_id')
      .orderBy('day')
      .execute();

  /** What the scan adds up to per object (`type:id`) over the days up to `last` (and from `first`). */
  function scanSums(scan: Record<string, number[]>, object: string, first: number, last: number) {
    const sum = [0, 0, 0, 0, 0, 0];
    for (const [key, v] of Object.entries(scan)) {
      const [day, type, id] = key.split(':');
      if (`${type}:${id}` !== object || Number(day) < first || Number(day) > last) continue;
      v.forEach((x, i) => {
        sum[i]! += x;
      });
    }
    return sum;
  }

  /** The running totals of every row equal the scan's sums of its object up to its day. */
  async function expectRunningTotals(fleetId: number, scan: Record<string, number[]>) {
    const rows = await runningRows(fleetId);
    for (const r of rows) {
      const expected = scanSums(scan, `${r.object_type}:${r.object_id}`, 0, Number(r.day));
      expect(
        RUNNING_FIGURES.map((f) => Number(r[`run_${f}`])),
        `${r.object_type}:${r.object_id} on ${r.day}`,
      ).toEqual(expected);
    }
  }

  it('keeps every running total equal to the scan, and each period the difference of two', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 1, maxLength: 12 }),
        fc.array(period, { minLength: 1, maxLength: 3 }),
        async (commands: Command[], periods: number[][]) => {
          const fleetId = await createFleet(t, accountId, `Running ${++n}`);
          await db().updateTable('fleets').set({ tz }).where('id', '=', fleetId).execute();
          const name = `running-user-${n}`;
          await createUser(t, { name, accountId, memberships: [{ fleetId, acl: ACL_ALL }] });
          const client = await t.login(name);
          const unitNames = Array.from({ length: UNITS }, (_, i) => `running unit ${n}-${i}`);
          const units: number[] = [];
          for (const u of unitNames) units.push(await createUnit(t, { accountId, fleetId, name: u }));
          const base = `/api/fleets/${fleetId}`;
          const fillings: number[] = [];
          const archived: number[] = [];
          const ok = (res: { status: number; body: unknown }) => {
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            return res.body as { id: number; ids: number[] };
          };
          const pick = <T>(list: T[], i: number) => list[i % list.length]!;
          const fuelBody = (f: (typeof commands)[number] & { op: 'fuel' }) => ({
            uid: units[f.f.unit],
            date: Math.min(dayStart(f.f.back) + f.f.minute * 60, now()),
            volume: dec(f.f.volume),
            manual_cost: dec(f.f.cost),
          });

          for (const c of commands) {
            switch (c.op) {
              case 'fuel':
                fillings.push(ok(await client.post(`${base}/fuel-fillings`, fuelBody(c))).id);
                break;
              case 'fuelMove':
                if (!fillings.length) break;
                ok(
                  await client.put(
                    `${base}/fuel-fillings/${pick(fillings, c.pick)}`,
                    fuelBody({ op: 'fuel', f: c.f }),
                  ),
                );
                break;
              case 'fuelDelete':
                if (!fillings.length) break;
                ok(
                  await client.delete(
                    `${base}/fuel-fillings/${fillings.splice(c.pick % fillings.length, 1)[0]}`,
                  ),
                );
                break;
              case 'closed': {
                const body = {
                  n: 'Closed',
                  t: 'u',
                  uid: units[c.unit],
                  f: 8,
                  start_date: iso(SPAN),
                  end_date: iso(c.back),
                  manual_cost: dec(c.cost),
                  li: [],
                };
                archived.push(ok(await client.post(`${base}/services`, body)).id);
                break;
              }
              case 'archiveMove':
                if (!archived.length) break;
                ok(
                  await client.put(`${base}/services/archived/${pick(archived, c.pick)}`, {
                    end_date: iso(c.back),
                    manual_cost: dec(c.cost),
                  }),
                );
                break;
              case 'archiveDelete':
                if (!archived.length) break;
                ok(
                  await client.delete(
                    `${base}/services/archived/${archived.splice(c.pick % archived.length, 1)[0]}`,
                  ),
                );
                break;
              case 'importFuel': {
                const rows = c.rows.map((r) => ({
                  unit: unitNames[r.unit]!,
                  date: iso(r.back),
                  volume: '12.5',
                  total_cost: dec(r.cost),
                }));
                const res = ok(
                  await client.post(`${base}/import/fuelfillings`, { date_format: 'YYYY-MM-DD', rows }),
                );
                expect(res.ids).toHaveLength(rows.length);
                fillings.push(...res.ids);
                break;
              }
              case 'importServices': {
                const rows = c.rows.map((r) => ({
                  unit: unitNames[r.unit]!,
                  name: 'Imported',
                  start_date: iso(SPAN),
                  end_date: iso(r.back),
                  total_cost: dec(r.cost),
                }));
                const res = ok(
                  await client.post(`${base}/import/services`, { date_format: 'YYYY-MM-DD', rows }),
                );
                expect(res.ids).toHaveLength(rows.length);
                archived.push(...res.ids);
                break;
              }
            }
          }
          const scan = await costScan(db(), fleetId, tz);
          await expectRunningTotals(fleetId, scan);

          for (const [from, to] of periods) {
            const [first, last] = [dayStart(from!), dayStart(to!)];
            const query = `from=${iso(from!)}&to=${iso(to!)}`;
            const fleet = await client.get(`${base}/statistics?${query}`);
            expect(fleet.status).toBe(200);
            const rows = (fleet.body as { units: { uid: number }[] }).units;
            for (const uid of units) {
              const [sc, scount, fcost, fcount, litres] = scanSums(scan, `u:${uid}`, first, last);
              const expected = {
                services_cost: sc! / 1000,
                services_count: scount,
                fuel_cost: fcost! / 1000,
                fuel_count: fcount,
                fuel_volume: litres! / 1000,
              };
              const row = rows.find((r) => r.uid === uid);
              // A unit with nothing in the period is left out of the fleet's rows.
              if (scount === 0 && fcount === 0 && sc === 0) expect(row).toBeUndefined();
              else expect(row).toMatchObject(expected);
              const unit = await client.get(`${base}/units/${uid}/statistics?${query}`);
              expect(unit.status).toBe(200);
              expect(unit.body).toMatchObject(expected);
            }
          }
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);

  it('backfills the running totals of existing rows (migration 021)', async () => {
    const fleetId = await createFleet(t, accountId, `Running backfill ${++n}`);
    await db().updateTable('fleets').set({ tz }).where('id', '=', fleetId).execute();
    const name = `running-user-${n}`;
    await createUser(t, { name, accountId, memberships: [{ fleetId, acl: ACL_ALL }] });
    const client = await t.login(name);
    const uid = await createUnit(t, { accountId, fleetId, name: `running backfill unit ${n}` });
    for (const back of [9, 3, 3, 0])
      expect(
        (
          await client.post(`/api/fleets/${fleetId}/fuel-fillings`, {
            uid,
            date: Math.min(dayStart(back) + 3600, now()),
            volume: '10.5',
            manual_cost: `${back + 1}.25`,
          })
        ).status,
      ).toBe(200);
    const kept = await runningRows(fleetId);
    expect(kept.length).toBeGreaterThan(0);
    // As a database migrated before 021 holds them: daily figures only.
    await db()
      .withTables<RunningTables>()
      .updateTable('cost_days')
      .set(Object.fromEntries(RUNNING_FIGURES.map((f) => [`run_${f}`, 0])))
      .where('fleet_id', '=', fleetId)
      .execute();
    await backfillRunningTotals(db());
    expect(await runningRows(fleetId)).toEqual(kept);
    await expectRunningTotals(fleetId, await costScan(db(), fleetId, tz));
    expect(Number(kept.at(-1)?.run_fuel_count)).toBeGreaterThan(0);
  });
});
