import { ACL_ALL } from '@fleetkeep/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { type Db, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Actor } from './actor.js';
import {
  cachedCredential,
  type FleetMembershipRow,
  markRequestActor,
  observeRevision,
  onRevisionMoved,
  rememberCredential,
  rememberedFleet,
} from './cache.js';

/**
 * The rules of the access memory (auth/cache.ts) on a real SQLite database migrated to the latest
 * schema: which writes move the access revision (migration 022's triggers), and what is remembered
 * under which revision.
 */

let db: Db;
let ctx: AppContext;

const T = 1_700_000_000;

beforeEach(async () => {
  db = openDatabase({ sqliteFile: ':memory:' });
  await migrateToLatest(db);
  ctx = { db } as AppContext;
  const k = db.kysely;
  const account = await k
    .insertInto('accounts')
    .values({ name: 'a', parent_id: null, active: 1, created_at: T })
    .returning('id')
    .executeTakeFirstOrThrow();
  const fleet = await k
    .insertInto('fleets')
    .values({ account_id: account.id, name: 'f', tz: 0, cur: 'EUR', ms: 0, fm: 1, created_at: T })
    .returning('id')
    .executeTakeFirstOrThrow();
  const user = await k
    .insertInto('users')
    .values({
      account_id: account.id,
      name: 'u',
      full_name: 'U',
      password_hash: 'x',
      su: 0,
      admin: 0,
      settings: '{}',
      fid: fleet.id,
      created_at: T,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await k.insertInto('fleet_users').values({ fleet_id: fleet.id, user_id: user.id, acl: ACL_ALL }).execute();
  const token = await k
    .insertInto('access_tokens')
    .values({
      user_id: user.id,
      kind: 'api',
      token_hash: 'h',
      description: '',
      rights: '{}',
      created_at: T,
      last_used_at: T,
      requests: 0,
      expires_at: T + 100,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await k
    .insertInto('sessions')
    .values({
      token_hash: 's',
      user_id: user.id,
      access_token_id: token.id,
      created_at: T,
      last_seen_at: T,
      props: '{}',
    })
    .execute();
});

afterEach(async () => {
  await db.close();
});

const k = () => db.kysely;

describe('the access revision', () => {
  it('stays put for reads and for writes that change no access', async () => {
    const rev = await observeRevision(ctx);
    expect(await observeRevision(ctx)).toBe(rev);
    await k()
      .updateTable('sessions')
      .set({ last_seen_at: T + 60, props: '{"a":1}' })
      .execute();
    await k()
      .updateTable('access_tokens')
      .set({ last_used_at: T + 60, requests: 5, expires_at: T + 999 })
      .execute();
    await k().updateTable('users').set({ settings: '{"lang":"de"}', fid: null, full_name: 'V' }).execute();
    await k()
      .insertInto('sessions')
      .values({
        token_hash: 's2',
        user_id: 1,
        access_token_id: null,
        created_at: T,
        last_seen_at: T,
        props: '{}',
      })
      .execute();
    expect(await observeRevision(ctx)).toBe(rev);
  });

  const moving: [string, () => Promise<unknown>][] = [
    ['a session ended', () => k().deleteFrom('sessions').execute()],
    ['a token revoked', () => k().deleteFrom('access_tokens').execute()],
    [
      'a token narrowed',
      () => k().updateTable('access_tokens').set({ rights: '{"services":"view"}' }).execute(),
    ],
    ['a user deactivated', () => k().updateTable('users').set({ active: 0 }).execute()],
    ['a user made admin', () => k().updateTable('users').set({ admin: 1 }).execute()],
    ['a password changed', () => k().updateTable('users').set({ password_hash: 'y' }).execute()],
    ['an acl lowered', () => k().updateTable('fleet_users').set({ acl: 2 }).execute()],
    ['a membership removed', () => k().deleteFrom('fleet_users').execute()],
    ['a fleet changed', () => k().updateTable('fleets').set({ tz: 60 }).execute()],
    ['an account suspended', () => k().updateTable('accounts').set({ active: 0 }).execute()],
    [
      'an account made',
      () =>
        k().insertInto('accounts').values({ name: 'b', parent_id: 1, active: 1, created_at: T }).execute(),
    ],
  ];
  for (const [what, write] of moving) {
    it(`moves when ${what}`, async () => {
      const rev = await observeRevision(ctx);
      await write();
      expect(await observeRevision(ctx)).toBeGreaterThan(rev);
    });
  }
});

describe('what is remembered', () => {
  it('keeps a credential under its revision and drops it when the revision moves', async () => {
    const dropped: number[] = [];
    onRevisionMoved(ctx, () => dropped.push(1));
    const rev = await observeRevision(ctx);
    rememberCredential(ctx, rev, 's:x', { id: 1 });
    expect(cachedCredential(ctx, rev, 's:x')).toEqual({ id: 1 });
    await k().deleteFrom('sessions').execute();
    const next = await observeRevision(ctx);
    expect(dropped.length).toBeGreaterThan(0);
    expect(cachedCredential(ctx, next, 's:x')).toBeUndefined();
    expect(cachedCredential(ctx, rev, 's:x')).toBeUndefined();
  });

  it('does not keep a value read under a revision that moved on meanwhile', async () => {
    const old = await observeRevision(ctx);
    await k().updateTable('users').set({ admin: 1 }).execute();
    const current = await observeRevision(ctx);
    rememberCredential(ctx, old, 's:late', { stale: true });
    expect(cachedCredential(ctx, current, 's:late')).toBeUndefined();
  });

  function actor(): Actor {
    return {
      userId: 1,
      name: 'u',
      accountId: 1,
      su: false,
      admin: false,
      sessionId: 1,
      aclMask: ACL_ALL,
      apiTokenId: null,
    };
  }
  const row = { id: 1, member_acl: ACL_ALL } as FleetMembershipRow;

  it('serves fleet access from memory only to request actors at the current revision', async () => {
    let reads = 0;
    const read = async () => {
      reads++;
      return row;
    };
    const outsider = actor();
    await rememberedFleet(ctx, outsider, 1, read);
    await rememberedFleet(ctx, outsider, 1, read);
    expect(reads).toBe(2); // not marked by the auth hook (a websocket's actor): always read

    const rev = await observeRevision(ctx);
    const first = actor();
    markRequestActor(first, rev);
    await rememberedFleet(ctx, first, 1, read);
    const second = actor();
    markRequestActor(second, rev);
    expect(await rememberedFleet(ctx, second, 1, read)).toBe(row);
    expect(reads).toBe(3);

    await k().updateTable('fleet_users').set({ acl: 2 }).execute();
    const moved = await observeRevision(ctx);
    // The old request's actor no longer uses the memory; a new request reads again.
    await rememberedFleet(ctx, second, 1, read);
    const third = actor();
    markRequestActor(third, moved);
    await rememberedFleet(ctx, third, 1, read);
    expect(reads).toBe(5);
  });

  it('does not remember an unknown fleet', async () => {
    const rev = await observeRevision(ctx);
    let reads = 0;
    const missing = async () => {
      reads++;
      return undefined;
    };
    for (let i = 0; i < 2; i++) {
      const a = actor();
      markRequestActor(a, rev);
      expect(await rememberedFleet(ctx, a, 99, missing)).toBeUndefined();
    }
    expect(reads).toBe(2);
  });
});
