import { startOfDay } from '@fleetkeep/core';
import { Migrator, NO_MIGRATIONS } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { migrations } from '../../db/migrations/index.js';
import { createPgDatabase, TEST_DB } from '../../test/harness.js';

/** Migration 008 on a database that already holds units: one baseline row per unit with a message. */
describe('migration 008_counter_days', () => {
  let db: Db;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const pgDb = TEST_DB === 'postgres' ? await createPgDatabase() : undefined;
    drop = pgDb?.drop;
    db = openDatabase({ databaseUrl: pgDb?.url, sqliteFile: ':memory:' });
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('backfills the day of each unit’s last message at its current counters', async () => {
    const migrator = new Migrator({ db: db.kysely, provider: migrations(db.dialect) });
    const names = (await migrator.getMigrations()).map((m) => m.name);
    const before = names[names.indexOf('008_counter_days') - 1];
    const up = await migrator.migrateTo(before ?? NO_MIGRATIONS);
    expect(up.error).toBeUndefined();

    const k = db.kysely;
    const { id: account } = await k
      .insertInto('accounts')
      .values({ name: 'a', parent_id: null, active: 1, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: fleet } = await k
      .insertInto('fleets')
      .values({ account_id: account, name: 'f', tz: 180, cur: '', ms: 0, fm: 1, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const unit = (device: string, fleetId: number | null, lastTime: number | null) => ({
      account_id: account,
      fleet_id: fleetId,
      name: device,
      device_id: device,
      unit_type_id: null,
      mileage: 1234.5,
      engine_hours: 67.25,
      base_mileage: 0,
      base_engine_hours: 0,
      pulled_mileage: 0,
      pulled_engine_hours: 0,
      joined_at: null,
      last_time: lastTime,
      lat: null,
      lon: null,
      speed: null,
      course: null,
      altitude: null,
      ignition: null,
      props: '{}',
      params: '{}',
      cf: '[]',
      ins: 0,
      created_at: 0,
    });
    const lastTime = Date.parse('2025-03-01T22:30:00Z') / 1000; // 01:30 on March 2 at UTC+3
    const ids = await k
      .insertInto('units')
      .values([
        unit('in-fleet', fleet, lastTime),
        unit('no-fleet', null, lastTime),
        unit('silent', fleet, null),
      ])
      .returning('id')
      .execute();

    await migrateToLatest(db);
    const rows = await k.selectFrom('counter_days').selectAll().orderBy('unit_id').execute();
    expect(rows).toEqual([
      {
        unit_id: ids[0]!.id,
        day: startOfDay(180, lastTime),
        first_mileage: 1234.5,
        last_mileage: 1234.5,
        first_engine_hours: 67.25,
        last_engine_hours: 67.25,
      },
      expect.objectContaining({ unit_id: ids[1]!.id, day: startOfDay(0, lastTime) }),
    ]);
    expect(rows[0]!.day).toBe(Date.parse('2025-03-01T21:00:00Z') / 1000);
    // Each unit's latest history day, whose last counters are its live ones.
    const units = await k
      .selectFrom('units')
      .select(['id', 'counter_day', 'counter_day_end'])
      .orderBy('id')
      .execute();
    const march2 = Date.parse('2025-03-01T21:00:00Z') / 1000;
    expect(units).toEqual([
      { id: ids[0]!.id, counter_day: march2, counter_day_end: march2 + 86400 },
      {
        id: ids[1]!.id,
        counter_day: startOfDay(0, lastTime),
        counter_day_end: startOfDay(0, lastTime) + 86400,
      },
      { id: ids[2]!.id, counter_day: null, counter_day_end: null },
    ]);
  });
});
