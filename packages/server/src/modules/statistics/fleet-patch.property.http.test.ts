import { ACL_ALL, FuelMeasure, TZ_DST_EUROPE } from '@fleetkeep/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { costScan, fleetDays } from '../../test/cost-scan.js';
import {
  accountOf,
  createFleet,
  createUnit,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { parsePeriod } from './rules.js';
import { computeFleet } from './service.js';

/**
 * The fleet statistics reply the cache keeps and patches (cache.ts: only the units a write or a unit
 * event names are computed again) equals, after every write, the reply computed for the whole fleet
 * from the aggregates, and its unit rows equal a scan of the raw services and fuel fillings (
 * "the same numbers as a scan"). Writes: fuel fillings created, moved between units and days, deleted;
 * closed services of units and of a driver; readings of the units (distance, over the bus); a unit
 * leaving the fleet.
 */
describe('fleet statistics patched after writes', () => {
  let t: TestServer;
  let accountId: number;
  let n = 0;
  // Central European time, with daylight saving.
  const tz = 60 | TZ_DST_EUROPE;
  const SPAN = 20;

  beforeAll(async () => {
    t = await startTestServer();
    accountId = await accountOf(t, 'manager');
  });
  afterAll(() => t?.close());

  const db = () => t.server.ctx.db.kysely;
  const { dayStart, iso, dec } = fleetDays(tz);

  const thousandths = fc.integer({ min: 1, max: 200_000 });
  const command = fc.oneof(
    fc.record({
      op: fc.constant('fuel' as const),
      unit: fc.nat(2),
      back: fc.nat(SPAN),
      volume: fc.integer({ min: 1, max: 150_000 }),
      cost: thousandths,
    }),
    fc.record({
      op: fc.constant('fuelEdit' as const),
      pick: fc.nat(),
      unit: fc.nat(2),
      back: fc.nat(SPAN),
      cost: thousandths,
    }),
    fc.record({ op: fc.constant('fuelDelete' as const), pick: fc.nat() }),
    fc.record({
      op: fc.constant('closed' as const),
      object: fc.nat(3),
      back: fc.nat(SPAN),
      cost: thousandths,
    }),
    fc.record({ op: fc.constant('drive' as const), unit: fc.nat(2), km: fc.integer({ min: 1, max: 400 }) }),
    fc.record({ op: fc.constant('leave' as const), unit: fc.nat(2) }),
  );
  type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

  it('answers what the whole fleet computes to, and what a scan adds up to per unit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 8 }), async (commands: Command[]) => {
        const fleetId = await createFleet(t, accountId, `Patch ${++n}`);
        await db().updateTable('fleets').set({ tz }).where('id', '=', fleetId).execute();
        const name = `patch-user-${n}`;
        await createUser(t, { name, accountId, memberships: [{ fleetId, acl: ACL_ALL }] });
        const client = await t.login(name);
        // Idle units between the three that move, so that they fall in different blocks of rows
        // (service.ts BLOCK) and most rows are left out of the reply.
        const idle = async (k: number) => {
          for (let i = 0; i < 70; i++)
            await createUnit(t, { accountId, fleetId, name: `patch idle ${n}-${k}-${i}` });
        };
        const units: number[] = [];
        for (const k of ['a', 'b', 'c']) {
          await idle(units.length);
          units.push(await createUnit(t, { accountId, fleetId, name: `patch unit ${n}${k}` }));
        }
        const devices = await Promise.all(
          units.map(async (id) => {
            const r = await db()
              .selectFrom('units')
              .select('device_id')
              .where('id', '=', id)
              .executeTakeFirst();
            return r!.device_id as string;
          }),
        );
        const odometer = units.map(() => 1000);
        const driver = await db()
          .insertInto('drivers')
          .values({
            account_id: accountId,
            fleet_id: fleetId,
            name: 'd',
            ds: '',
            c: '',
            cf: '[]',
            ins: 0,
            created_at: now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const objects = [...units.map((uid) => ({ t: 'u', uid })), { t: 'd', uid: driver.id }];
        const base = `/api/fleets/${fleetId}`;
        /** Fillings written, with their unit's index. */
        const fillings: { id: number; unit: number }[] = [];
        const gone = new Set<number>();
        const ok = (res: { status: number; body: unknown }) => {
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          return res.body as { id: number };
        };
        const pick = <T>(list: T[], i: number) => list[i % list.length]!;
        const periods = [
          [iso(SPAN), iso(0)],
          [iso(7), iso(2)],
        ] as const;
        const read = (from: string, to: string) => client.get(`${base}/statistics?from=${from}&to=${to}`);

        /** The reply of the whole fleet, computed without the cache. */
        const whole = async (from: string, to: string) => {
          const fleet = await db()
            .selectFrom('fleets')
            .selectAll()
            .where('id', '=', fleetId)
            .executeTakeFirstOrThrow();
          const period = parsePeriod(fleet.tz, from, to);
          if (Array.isArray(period)) throw new Error('bad period');
          const snapshot = await computeFleet(t.server.ctx, fleet, period, {
            fm: fleet.fm === FuelMeasure.gallon ? FuelMeasure.gallon : FuelMeasure.liter,
            ms: fleet.ms,
          });
          return JSON.parse(snapshot.bytes.toString('utf8'));
        };
        /** Every period's reply as the whole fleet computes it (polled: unit events come over the bus). */
        const check = async () => {
          for (const [from, to] of periods) {
            const expected = await whole(from, to);
            let got: unknown;
            for (let i = 0; i < 50; i++) {
              const res = await read(from, to);
              expect(res.status).toBe(200);
              got = res.body;
              if (JSON.stringify(got) === JSON.stringify(expected)) break;
              await new Promise((r) => setTimeout(r, 50));
            }
            expect(got).toEqual(expected);
          }
        };

        // Readings on the first day of the span, so every unit has a history to drive on from.
        for (const [i, device] of devices.entries()) {
          const res = await t.anon.get(
            `/api/ingest/osmand?id=${device}&lat=53.9&lon=27.5&timestamp=${dayStart(SPAN) + 3600}&odometer=${odometer[i]! * 1000}`,
          );
          expect(res.body).toEqual({ ok: true });
        }
        await check(); // kept from here on: each check below reads a patched reply

        for (const c of commands) {
          switch (c.op) {
            case 'fuel':
              if (gone.has(c.unit)) break;
              fillings.push({
                unit: c.unit,
                id: ok(
                  await client.post(`${base}/fuel-fillings`, {
                    uid: units[c.unit],
                    date: Math.min(dayStart(c.back) + 3600, now()),
                    volume: dec(c.volume),
                    manual_cost: dec(c.cost),
                  }),
                ).id,
              });
              break;
            case 'fuelEdit': {
              if (!fillings.length || gone.has(c.unit)) break;
              const filling = pick(fillings, c.pick);
              filling.unit = c.unit;
              ok(
                await client.put(`${base}/fuel-fillings/${filling.id}`, {
                  uid: units[c.unit],
                  date: Math.min(dayStart(c.back) + 7200, now()),
                  manual_cost: dec(c.cost),
                }),
              );
              break;
            }
            case 'fuelDelete':
              if (!fillings.length) break;
              ok(
                await client.delete(
                  `${base}/fuel-fillings/${fillings.splice(c.pick % fillings.length, 1)[0]!.id}`,
                ),
              );
              break;
            case 'closed':
              if (gone.has(c.object)) break;
              ok(
                await client.post(`${base}/services`, {
                  n: 'Closed',
                  ...objects[c.object],
                  f: 8,
                  start_date: iso(SPAN),
                  end_date: iso(c.back),
                  manual_cost: dec(c.cost),
                  li: [],
                }),
              );
              break;
            case 'drive': {
              if (gone.has(c.unit)) break;
              odometer[c.unit]! += c.km;
              await t.anon.get(
                `/api/ingest/osmand?id=${devices[c.unit]}&lat=53.9&lon=27.5&timestamp=${now()}&odometer=${odometer[c.unit]! * 1000}`,
              );
              break;
            }
            case 'leave': {
              if (gone.has(c.unit)) break;
              ok(await client.delete(`${base}/units/${units[c.unit]}`));
              gone.add(c.unit);
              for (let i = fillings.length - 1; i >= 0; i--)
                if (fillings[i]!.unit === c.unit) fillings.splice(i, 1);
              break;
            }
          }
          await check();
        }

        // The span's unit rows are what the raw rows add up to per unit.
        const scanned = await costScan(db(), fleetId, tz);
        const res = await read(...periods[0]);
        for (const row of (
          res.body as { units: { uid: number; fuel_count: number; services_count: number }[] }
        ).units) {
          const sums = Object.entries(scanned)
            .filter(([key]) => key.endsWith(`:u:${row.uid}`))
            .reduce((sum, [, v]) => sum.map((x, i) => x + v[i]!), [0, 0, 0, 0, 0, 0]);
          expect([row.services_count, row.fuel_count]).toEqual([sums[1], sums[3]]);
        }
      }),
      { numRuns: 6 },
    );
  });
});
