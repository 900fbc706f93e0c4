import { Acl, withWorkshopRights } from '@fleetkeep/core';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase, TEST_DB } from '../test/harness.js';
import { type Db, openDatabase } from './database.js';
import { migrations } from './migrations/index.js';

/**
 * Migrations 033 (workshop) and 038 (store) on a database with members: each keeps what it could do and
 * gains, step by step, what core `withWorkshopRights` gives.
 */
describe('migrations 033_workshop_rights and 038_store_rights', () => {
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

  it('gives viewers, managers and admins the workshop rights the service rights imply', async () => {
    const migrator = new Migrator({ db: db.kysely, provider: migrations(db.dialect) });
    expect((await migrator.migrateTo('032_meter_integrity')).error).toBeUndefined();

    const k = db.kysely;
    const { id: account } = await k
      .insertInto('accounts')
      .values({ name: 'a', parent_id: null, active: 1, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: fleet } = await k
      .insertInto('fleets')
      .values({ account_id: account, name: 'f', tz: 0, cur: '', ms: 0, fm: 1, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = {
      manager: 1 | 2 | 4 | 16 | 32 | 64 | 128 | 256 | 512,
      mechanic: Acl.viewInterval | Acl.viewService | Acl.manageService,
      viewer: Acl.viewInterval | Acl.viewService,
      intervals: Acl.viewInterval | Acl.manageInterval,
      admin: Acl.admin,
    };
    const ids: Record<string, number> = {};
    for (const [name, acl] of Object.entries(before)) {
      const { id } = await k
        .insertInto('users')
        .values({
          account_id: account,
          name,
          full_name: name,
          password_hash: '',
          su: 0,
          admin: 0,
          settings: '{}',
          fid: fleet,
          created_at: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[name] = id;
      await k.insertInto('fleet_users').values({ fleet_id: fleet, user_id: id, acl }).execute();
    }

    expect((await migrator.migrateTo('033_workshop_rights')).error).toBeUndefined();
    const rows = await k.selectFrom('fleet_users').select(['user_id', 'acl']).execute();
    const after = new Map(rows.map((r) => [r.user_id, Number(r.acl)]));
    const storeBits = 0xfc0000;
    for (const [name, acl] of Object.entries(before)) {
      expect(after.get(ids[name] as number), name).toBe(withWorkshopRights(acl) & ~storeBits);
    }
    // The figures, so that a change of the core rule cannot pass unnoticed.
    expect(after.get(ids.viewer as number)).toBe(
      before.viewer | Acl.reportIssue | Acl.viewWorkOrder | Acl.submitInspection,
    );
    expect(after.get(ids.admin as number)).toBe(Acl.admin);
    expect(after.get(ids.intervals as number)).toBe(before.intervals);
    expect(after.get(ids.manager as number)).toBe((1 << 18) - 1 - 8);

    expect((await migrator.migrateTo('038_store_rights')).error).toBeUndefined();
    const stored = new Map(
      (await k.selectFrom('fleet_users').select(['user_id', 'acl']).execute()).map((r) => [
        r.user_id,
        Number(r.acl),
      ]),
    );
    for (const [name, acl] of Object.entries(before)) {
      expect(stored.get(ids[name] as number), name).toBe(withWorkshopRights(acl));
    }
    expect(stored.get(ids.viewer as number)).toBe(
      (after.get(ids.viewer as number) as number) | Acl.viewPart | Acl.viewDocument | Acl.viewComponent,
    );
    expect(stored.get(ids.mechanic as number)).toBe(
      (after.get(ids.mechanic as number) as number) | (0xfc0000 & ~Acl.manageDocument),
    );
    expect(stored.get(ids.intervals as number)).toBe(before.intervals);
    expect(stored.get(ids.manager as number)).toBe((1 << 24) - 1 - 8);
  });
});
