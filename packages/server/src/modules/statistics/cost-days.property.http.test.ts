import { ACL_ALL, startOfDay, TZ_DST_EUROPE } from '@fleetkeep/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, now } from '../../context.js';
import { costAggregates, costScan } from '../../test/cost-scan.js';
import {
  accountOf,
  createFleet,
  createUnit,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/**
 * The daily aggregates equal a full scan after any sequence of writes ("aggregates equal to a
 * full scan after random writes"): services created closed, closed later, rejected, corrected in the
 * archive (end date, hand total, line items) and deleted; fuel fillings created, changed (unit, time,
 * volume, cost) and deleted. The scan below reads the raw rows and adds them up here.
 */
describe('cost aggregates after random writes', () => {
  let t: TestServer;
  let accountId: number;
  let n = 0;
  // Central European time, with daylight saving: fillings near midnight test the fleet days.
  const tz = 60 | TZ_DST_EUROPE;
  const SPAN = 60;

  beforeAll(async () => {
    t = await startTestServer();
    accountId = await accountOf(t, 'manager');
  });
  afterAll(() => t?.close());

  const db = () => t.server.ctx.db.kysely;
  const today = () => startOfDay(tz, now());
  const dayStart = (back: number) => startOfDay(tz, today() - back * DAY + 6 * 3600);
  const iso = (back: number) => {
    const d = new Date((dayStart(back) + 12 * 3600) * 1000);
    return d.toISOString().slice(0, 10);
  };
  const dec = (thousandths: number) => (thousandths / 1000).toFixed(3);

  const thousandths = fc.integer({ min: 0, max: 200_000 });
  const line = fc.record({ q: fc.integer({ min: 1, max: 5_000 }), c: thousandths });
  const cost = fc.oneof(
    fc.record({ manual: thousandths }),
    fc.record({ lines: fc.array(line, { minLength: 1, maxLength: 3 }) }),
  );
  const command = fc.oneof(
    fc.record({
      op: fc.constant('fuel' as const),
      unit: fc.nat(1),
      back: fc.nat(SPAN),
      minute: fc.nat(1439),
      volume: fc.integer({ min: 1, max: 150_000 }),
      cost: thousandths,
    }),
    fc.record({
      op: fc.constant('fuelEdit' as const),
      pick: fc.nat(),
      unit: fc.nat(1),
      back: fc.nat(SPAN),
      minute: fc.nat(1439),
      volume: fc.integer({ min: 1, max: 150_000 }),
      cost: thousandths,
    }),
    fc.record({ op: fc.constant('fuelDelete' as const), pick: fc.nat() }),
    fc.record({
      op: fc.constant('closed' as const),
      object: fc.nat(2),
      back: fc.nat(SPAN),
      cost,
    }),
    fc.record({ op: fc.constant('closeLater' as const), object: fc.nat(2), cost }),
    fc.record({ op: fc.constant('reject' as const), object: fc.nat(2), cost }),
    fc.record({ op: fc.constant('archiveEdit' as const), pick: fc.nat(), back: fc.nat(SPAN), cost }),
    fc.record({ op: fc.constant('archiveDelete' as const), pick: fc.nat() }),
  );
  type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;
  type Cost = { manual: number } | { lines: { q: number; c: number }[] };

  /** The raw rows of a fleet added up (test/cost-scan.ts), and the aggregates in the same shape. */
  const scan = (fleetId: number) => costScan(db(), fleetId, tz);
  const aggregates = (fleetId: number) => costAggregates(db(), fleetId);

  it('keeps cost_days equal to a scan of services and fuel fillings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 10 }), async (commands: Command[]) => {
        const fleetId = await createFleet(t, accountId, `Property ${++n}`);
        await db().updateTable('fleets').set({ tz }).where('id', '=', fleetId).execute();
        const name = `property-user-${n}`;
        await createUser(t, { name, accountId, memberships: [{ fleetId, acl: ACL_ALL }] });
        const client = await t.login(name);
        const units = [
          await createUnit(t, { accountId, fleetId, name: `property unit ${n}a` }),
          await createUnit(t, { accountId, fleetId, name: `property unit ${n}b` }),
        ];
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
        const objects = [
          { t: 'u', uid: units[0] },
          { t: 'u', uid: units[1] },
          { t: 'd', uid: driver.id },
        ];
        const base = `/api/fleets/${fleetId}`;
        const fillings: number[] = [];
        const archived: number[] = [];
        const costBody = (c: Cost) =>
          'manual' in c
            ? { manual_cost: dec(c.manual), li: [] }
            : { li: c.lines.map((l, i) => ({ n: `Part ${i}`, t: 2, q: dec(l.q), c: dec(l.c) })) };
        const ok = (res: { status: number; body: unknown }) => {
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          return res.body as { id: number };
        };
        const pick = <T>(list: T[], i: number) => list[i % list.length]!;

        for (const c of commands) {
          switch (c.op) {
            case 'fuel': {
              const body = {
                uid: units[c.unit],
                date: Math.min(dayStart(c.back) + c.minute * 60, now()),
                volume: dec(c.volume),
                manual_cost: dec(c.cost),
              };
              fillings.push(ok(await client.post(`${base}/fuel-fillings`, body)).id);
              break;
            }
            case 'fuelEdit': {
              if (!fillings.length) break;
              ok(
                await client.put(`${base}/fuel-fillings/${pick(fillings, c.pick)}`, {
                  uid: units[c.unit],
                  date: Math.min(dayStart(c.back) + c.minute * 60, now()),
                  volume: dec(c.volume),
                  manual_cost: dec(c.cost),
                }),
              );
              break;
            }
            case 'fuelDelete': {
              if (!fillings.length) break;
              const id = fillings.splice(c.pick % fillings.length, 1)[0]!;
              ok(await client.delete(`${base}/fuel-fillings/${id}`));
              break;
            }
            case 'closed': {
              const body = {
                n: 'Closed',
                ...objects[c.object],
                f: 8,
                start_date: iso(SPAN),
                end_date: iso(c.back),
                ...costBody(c.cost),
              };
              archived.push(ok(await client.post(`${base}/services`, body)).id);
              break;
            }
            case 'closeLater':
            case 'reject': {
              const body = { n: 'Due', ...objects[c.object], f: 1, limit_date: iso(-1), ...costBody(c.cost) };
              const { id } = ok(await client.post(`${base}/services`, body));
              if (c.op === 'reject') ok(await client.post(`${base}/services/${id}/status`, { f: 16 }));
              else ok(await client.post(`${base}/services/status/batch`, { f: 8, services: [id] }));
              archived.push(id);
              break;
            }
            case 'archiveEdit': {
              if (!archived.length) break;
              const id = pick(archived, c.pick);
              const row = await db()
                .selectFrom('services')
                .select('start_date')
                .where('id', '=', id)
                .executeTakeFirstOrThrow();
              // Not before the start date (today for services closed later).
              const end = row.start_date !== null && row.start_date > dayStart(c.back) ? iso(0) : iso(c.back);
              ok(
                await client.put(`${base}/services/archived/${id}`, {
                  end_date: end,
                  ...costBody(c.cost),
                }),
              );
              break;
            }
            case 'archiveDelete': {
              if (!archived.length) break;
              const id = archived.splice(c.pick % archived.length, 1)[0]!;
              ok(await client.delete(`${base}/services/archived/${id}`));
              break;
            }
          }
        }
        const expected = await scan(fleetId);
        expect(await aggregates(fleetId)).toEqual(expected);
        // And the reply: the whole span's totals are the scan's.
        const totals = Object.entries(expected)
          .filter(([key]) => key.includes(':*:'))
          .reduce((sum, [, v]) => sum.map((x, i) => x + v[i]!), [0, 0, 0, 0, 0, 0]);
        const res = await client.get(`${base}/statistics?from=${iso(SPAN)}&to=${iso(0)}`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          services_cost: totals[0]! / 1000,
          services_count: totals[1],
          fuel_cost: totals[2]! / 1000,
          fuel_count: totals[3],
          fuel_volume: totals[4]! / 1000,
        });
      }),
      { numRuns: 8 },
    );
  });
});
