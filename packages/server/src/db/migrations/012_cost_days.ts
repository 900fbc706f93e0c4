import { FuelMeasure, startOfDay } from '@fleetkeep/core';
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { notNull } from './types.js';

/**
 * Daily cost aggregates (PRODUCT.md "Service objects and counters", "Dashboard"):
 * one row per fleet, fleet-local day, and object — `u`/`d`/`t` with its id for a service object, `*`
 * with id 0 for the whole fleet — holding what closed services and fuel fillings add up to that day, all
 * exact integers (DESIGN §2: money and volumes in thousandths, no floats):
 *
 * - services: the closed (not rejected) services whose end date is that day (`end_date`, already the
 *   start of a fleet day), their count and total cost (line items, each quantity × cost rounded to
 *   thousandths, or the hand-entered total);
 * - fuel: the fillings filled that fleet day, their count, cost, and volume kept per unit it was written
 *   in (`fuel_l` litres, `fuel_gal` US gallons), so that a fleet that changes its fuel unit converts the
 *   sums once on read.
 *
 * Kept up to date in the transaction of every write that changes them (modules/statistics/cost-days.ts
 * `applyCostDelta`), so the statistics read these rows and `counter_days` only. `statistics_versions`
 * counts the writes that change a fleet's statistics (costs and counters), for the statistics cache.
 */
export function costDays012(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('cost_days')
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('day', 'bigint', notNull)
        .addColumn('object_type', 'text', notNull)
        .addColumn('object_id', 'integer', notNull)
        .addColumn('services_cost', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('services_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fuel_cost', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('fuel_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fuel_l', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('fuel_gal', 'bigint', (c) => c.notNull().defaultTo(0))
        // One object's days (a unit's, or the fleet's `*` row) are one range of the key; the per-unit
        // sums of the fleet call read the range of the fleet's `u` rows.
        .addPrimaryKeyConstraint('cost_days_pk', ['fleet_id', 'object_type', 'object_id', 'day'])
        .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
        .execute();
      await db.schema
        .createTable('statistics_versions')
        .addColumn('fleet_id', 'integer', (c) => c.primaryKey().references('fleets.id').onDelete('cascade'))
        .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();

      await backfill(db as Kysely<BackfillDb>);
    },
  };
}

type Sums = Omit<BackfillDb['cost_days'], 'fleet_id' | 'day' | 'object_type' | 'object_id'>;
const ZERO: Sums = {
  services_cost: 0,
  services_count: 0,
  fuel_cost: 0,
  fuel_count: 0,
  fuel_l: 0,
  fuel_gal: 0,
};

/**
 * The rows the services and fuel fillings that exist add up to, for every object and for the fleet
 * (`*`). Services are grouped in SQL; fuel days need the fleet zone's daylight saving (core
 * `startOfDay`), so fillings are read in pages and grouped here. Both dialects.
 */
async function backfill(db: Kysely<BackfillDb>) {
  const rows = new Map<string, BackfillDb['cost_days']>();
  const add = (fleetId: number, day: number, type: string, id: number, sums: Partial<Sums>) => {
    for (const [t, i] of [
      [type, id],
      ['*', 0],
    ] as const) {
      const key = `${fleetId}:${day}:${t}:${i}`;
      let row = rows.get(key);
      if (!row) {
        row = { fleet_id: fleetId, day, object_type: t, object_id: i, ...ZERO };
        rows.set(key, row);
      }
      for (const [k, v] of Object.entries(sums) as [keyof Sums, number][]) row[k] += v;
    }
  };
  const product = sql<number>`(${sql.ref('qty')} * ${sql.ref('cost')})`;
  const lineTotals = db
    .selectFrom('service_line_items')
    .select([
      'service_id',
      sql<number>`sum(case when ${product} >= 0 then (${product} + 500) / 1000 else -((500 - ${product}) / 1000) end)`.as(
        'total',
      ),
    ])
    .groupBy('service_id')
    .as('li');
  const services = await db
    .selectFrom('services as s')
    .leftJoin(lineTotals, 'li.service_id', 's.id')
    .select([
      's.fleet_id',
      's.end_date',
      's.object_type',
      's.object_id',
      sql<number>`cast(sum(coalesce(${sql.ref('li.total')}, ${sql.ref('s.manual_cost')}, 0)) as bigint)`.as(
        'cost',
      ),
      sql<number>`count(*)`.as('n'),
    ])
    // Closed, not rejected (spec §4 flags: rejected 16 takes precedence over closed 8).
    .where(sql<boolean>`(${sql.ref('s.f')} & 24) = 8`)
    .where('s.end_date', 'is not', null)
    .groupBy(['s.fleet_id', 's.end_date', 's.object_type', 's.object_id'])
    .execute();
  for (const s of services)
    add(s.fleet_id, Number(s.end_date), s.object_type, s.object_id, {
      services_cost: Number(s.cost),
      services_count: Number(s.n),
    });

  const zones = new Map(
    (await db.selectFrom('fleets').select(['id', 'tz']).execute()).map((f) => [f.id, f.tz]),
  );
  let after = 0;
  for (;;) {
    const page = await db
      .selectFrom('fuel_fillings')
      .select(['id', 'fleet_id', 'unit_id', 'filled_at', 'volume', 'volume_unit', 'total_cost'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(5000)
      .execute();
    if (page.length === 0) break;
    for (const f of page) {
      const day = startOfDay(zones.get(f.fleet_id) ?? 0, Number(f.filled_at));
      const gallons = f.volume_unit === FuelMeasure.gallon;
      add(f.fleet_id, day, 'u', f.unit_id, {
        fuel_cost: Number(f.total_cost),
        fuel_count: 1,
        fuel_l: gallons ? 0 : Number(f.volume),
        fuel_gal: gallons ? Number(f.volume) : 0,
      });
    }
    after = page[page.length - 1]!.id;
  }

  const all = [...rows.values()];
  for (let i = 0; i < all.length; i += 500)
    await db
      .insertInto('cost_days')
      .values(all.slice(i, i + 500))
      .execute();
  const fleets = [...new Set(all.map((r) => r.fleet_id))];
  if (fleets.length)
    await db
      .insertInto('statistics_versions')
      .values(fleets.map((fleet_id) => ({ fleet_id, version: 1 })))
      .execute();
}

/** The tables the backfill reads and writes, as they are at this migration. */
interface BackfillDb {
  fleets: { id: number; tz: number };
  services: {
    id: number;
    fleet_id: number;
    object_type: string;
    object_id: number;
    f: number;
    end_date: number | null;
    manual_cost: number | null;
  };
  service_line_items: { service_id: number; qty: number; cost: number };
  fuel_fillings: {
    id: number;
    fleet_id: number;
    unit_id: number;
    filled_at: number;
    volume: number;
    volume_unit: number;
    total_cost: number;
  };
  cost_days: {
    fleet_id: number;
    day: number;
    object_type: string;
    object_id: number;
    services_cost: number;
    services_count: number;
    fuel_cost: number;
    fuel_count: number;
    fuel_l: number;
    fuel_gal: number;
  };
  statistics_versions: { fleet_id: number; version: number };
}
