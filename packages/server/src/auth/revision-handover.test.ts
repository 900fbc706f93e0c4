import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { type Db, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { collectionTag, readRevisions } from '../http/etag.js';
import { observeRevision, resolvingAt } from './cache.js';

/**
 * The one-round-trip read of a tagged list request (http/auth-hook.ts): the access revision and the
 * list's collection revisions come from one query, and the access revision is handed to the credential
 * lookup of that request only, never to a later one (auth/cache.ts `resolvingAt`).
 */

let db: Db;
let ctx: AppContext;
let fleetId: number;

const T = 1_700_000_000;

beforeEach(async () => {
  db = openDatabase({ sqliteFile: ':memory:' });
  await migrateToLatest(db);
  ctx = { db } as AppContext;
  const account = await db.kysely
    .insertInto('accounts')
    .values({ name: 'a', parent_id: null, active: 1, created_at: T })
    .returning('id')
    .executeTakeFirstOrThrow();
  const fleet = await db.kysely
    .insertInto('fleets')
    .values({ account_id: account.id, name: 'f', tz: 0, cur: 'EUR', ms: 0, fm: 1, created_at: T })
    .returning('id')
    .executeTakeFirstOrThrow();
  fleetId = fleet.id;
});

afterEach(async () => {
  await db.close();
});

const revisionIn = async (of: Db) =>
  Number(
    (await sql<{ rev: number }>`select rev from auth_revision where id = 1`.execute(of.kysely)).rows[0]?.rev,
  );

const storedRevision = () => revisionIn(db);

const bumpUnits = () =>
  sql`update collection_revisions set rev = rev + 1 where fleet_id = ${fleetId} and collection = 'units'`.execute(
    db.kysely,
  );

describe('revision hand-over', () => {
  it('a lookup started inside resolvingAt observes the handed revision without reading the row', async () => {
    const stored = await storedRevision();
    // A value the row does not hold shows that the hand-over, not a read, answered.
    const observed = await resolvingAt(ctx, stored + 5, () => observeRevision(ctx));
    expect(observed).toBe(stored + 5);
  });

  it('is taken once: a second lookup in the same start reads the row', async () => {
    const stored = await storedRevision();
    const both = await resolvingAt(ctx, stored + 5, () =>
      Promise.all([observeRevision(ctx), observeRevision(ctx)]),
    );
    expect(both).toEqual([stored + 5, stored]);
  });

  it('never reaches a lookup that starts after the synchronous start, or after resolvingAt returned', async () => {
    const stored = await storedRevision();
    const late = await resolvingAt(ctx, stored + 5, async () => {
      await Promise.resolve();
      return observeRevision(ctx);
    });
    expect(late).toBe(stored);
    // A start that looked nothing up (an unknown credential scheme) leaves nothing behind either.
    await resolvingAt(ctx, stored + 7, async () => undefined);
    expect(await observeRevision(ctx)).toBe(stored);
  });

  it('is not handed to the lookup of another database', async () => {
    const other = openDatabase({ sqliteFile: ':memory:' });
    try {
      await migrateToLatest(other);
      const otherCtx = { db: other } as AppContext;
      const stored = await revisionIn(other);
      expect(await resolvingAt(ctx, 999, () => observeRevision(otherCtx))).toBe(stored);
    } finally {
      await other.close();
    }
  });
});

describe('readRevisions', () => {
  it('reads the access revision and the tag revisions that separate reads give, and follows their changes', async () => {
    const first = await readRevisions(db, fleetId, ['units']);
    expect(first.access).toBe(await storedRevision());
    expect(first.list).toEqual({ fleetId, collections: ['units'], revs: [expect.any(Number)] });
    const tag = await collectionTag(db, fleetId, ['units'], '');
    expect(tag).toContain(`-${fleetId}-${first.list.revs[0]}-`);

    await bumpUnits();
    await db.kysely.updateTable('fleets').set({ name: 'renamed' }).where('id', '=', fleetId).execute();
    const second = await readRevisions(db, fleetId, ['units']);
    expect(second.list.revs[0]).toBe((first.list.revs[0] ?? 0) + 1);
    expect(second.access).toBeGreaterThan(first.access);
    expect(second.access).toBe(await storedRevision());
  });

  it('keeps the order of the collections asked for; a fleet without rows reads 0', async () => {
    const { list } = await readRevisions(db, fleetId, ['units', 'services']);
    const units = (await readRevisions(db, fleetId, ['units'])).list.revs[0];
    const services = (await readRevisions(db, fleetId, ['services'])).list.revs[0];
    expect(list.revs).toEqual([units, services]);
    expect((await readRevisions(db, fleetId + 1000, ['units'])).list.revs).toEqual([0]);
  });
});
