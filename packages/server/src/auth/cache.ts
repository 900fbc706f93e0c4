import { type CompiledQuery, sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../context.js';
import type { FleetRow } from '../db/schema.js';
import type { Actor } from './actor.js';
import { SharedRead } from './shared-read.js';

/**
 * What a request needs to know about its caller, kept in memory between requests:
 * sessions and API tokens → their user and rights, (user, fleet) → the fleet row and the membership acl,
 * and a user's fleets. DESIGN §4 sessions stay in the database; this is only a copy of rows.
 *
 * Correctness: every write that changes such rows bumps the access revision (`auth_revision`, migration
 * 022) in its own transaction, through database triggers. Every authenticated request reads that one
 * row first (`observeRevision`); when it moved, everything remembered is dropped before anything is
 * used. A change acknowledged by one instance has committed its bump, so the next request on any
 * instance sees the new revision and reads the rows again: nothing stale is ever served, with one
 * cheap query per request on either database instead of the session, token, fleet and membership reads.
 *
 * A value is remembered only under the revision that was read before the value itself, so a value read
 * while another request moved the revision on is never kept under the newer one.
 */

/** At most this many sessions, fleet accesses and fleet lists are kept; past that the least recently used goes. */
export const AUTH_CACHE_ENTRIES = 20_000;

export type FleetMembershipRow = FleetRow & { member_acl: number | null };

/** A user's memberships and the fleets their list may show (visibleFleets in access.ts). */
export interface VisibleRows {
  memberAcl: Map<number, number>;
  fleets: FleetRow[];
}

interface Memory {
  /** The revision everything below belongs to; null before the first read. */
  rev: number | null;
  /** Keyed by the credential's stored hash with its scheme (`s:` session, `b:` bearer token). */
  credentials: LRUCache<string, object>;
  /** Keyed `${userId}:${fleetId}`. */
  fleets: LRUCache<string, FleetMembershipRow>;
  /** Keyed by user id. */
  visible: LRUCache<number, VisibleRows>;
  /** Called after the memory was dropped (the account tree of access.ts). */
  dropped: (() => void)[];
}

const memories = new WeakMap<AppContext, Memory>();

function memoryOf(ctx: AppContext): Memory {
  let memory = memories.get(ctx);
  if (!memory) {
    const max = AUTH_CACHE_ENTRIES;
    memory = {
      rev: null,
      credentials: new LRUCache({ max }),
      fleets: new LRUCache({ max }),
      visible: new LRUCache({ max }),
      dropped: [],
    };
    memories.set(ctx, memory);
  }
  return memory;
}

/** Registers a function called whenever the access revision moved (another cache to drop). */
export function onRevisionMoved(ctx: AppContext, drop: () => void): void {
  memoryOf(ctx).dropped.push(drop);
}

function dropAll(memory: Memory, rev: number | null): void {
  memory.rev = rev;
  memory.credentials.clear();
  memory.fleets.clear();
  memory.visible.clear();
  for (const drop of memory.dropped) drop();
}

/** Drops everything remembered (for a writer that wants its own change seen without waiting). */
export function forgetAccess(ctx: AppContext): void {
  dropAll(memoryOf(ctx), null);
}

/** The revision query, compiled once per database (it runs on every authenticated request). */
const revisionQueries = new WeakMap<object, CompiledQuery<{ rev: number | string }>>();

function revisionQuery(ctx: AppContext): CompiledQuery<{ rev: number | string }> {
  let query = revisionQueries.get(ctx.db);
  if (!query) {
    query = sql<{ rev: number | string }>`select rev from auth_revision where id = 1`.compile(ctx.db.kysely);
    revisionQueries.set(ctx.db, query);
  }
  return query;
}

/**
 * A revision the auth hook read for the request it is resolving, in the same round trip as that
 * request's list revisions (http/etag.ts `readRevisions`). Set only for the synchronous start of one
 * credential lookup (`resolvingAt`), so no other request can take it.
 */
let handedOver: { ctx: AppContext; rev: number } | null = null;

/**
 * Starts a credential lookup (`start`) whose `observeRevision` uses `rev`, read by the caller after the
 * request arrived, instead of reading the row again. The session and token lookups observe the revision
 * first, before their first `await`; a lookup that does not simply reads the row itself, as before.
 */
export function resolvingAt<T>(ctx: AppContext, rev: number, start: () => Promise<T>): Promise<T> {
  handedOver = { ctx, rev };
  try {
    return start();
  } finally {
    handedOver = null;
  }
}

/**
 * Reads the access revision (one single-row query) and drops what was remembered under another one.
 * Returns the revision the caller's reads belong to.
 */
export async function observeRevision(ctx: AppContext): Promise<number> {
  const handed = handedOver?.ctx === ctx ? handedOver.rev : undefined;
  handedOver = null;
  const rev = handed ?? (await readRevision(ctx));
  const memory = memoryOf(ctx);
  if (memory.rev !== rev) dropAll(memory, rev);
  return rev;
}

/** The revision read, shared by the requests that arrive while one is in flight (auth/shared-read.ts). */
const revisionReads = new WeakMap<AppContext, SharedRead<number>>();

function readRevision(ctx: AppContext): Promise<number> {
  let reader = revisionReads.get(ctx);
  if (!reader) {
    reader = new SharedRead(async () => {
      const rows = await ctx.db.fixed(revisionQuery(ctx));
      return Number(rows[0]?.rev ?? 0);
    });
    revisionReads.set(ctx, reader);
  }
  return reader.get();
}

/** A remembered credential row, when it belongs to revision `rev`. */
export function cachedCredential<T>(ctx: AppContext, rev: number, key: string): T | undefined {
  const memory = memoryOf(ctx);
  return memory.rev === rev ? (memory.credentials.get(key) as T | undefined) : undefined;
}

/** Remembers a credential row read after revision `rev` was observed (kept only if still current). */
export function rememberCredential(ctx: AppContext, rev: number, key: string, row: object): void {
  const memory = memoryOf(ctx);
  if (memory.rev === rev) memory.credentials.set(key, row);
}

/**
 * Actors resolved for an HTTP request, with the revision their request observed. Only these use the
 * fleet memory: a websocket's actor lives for hours and reads the database as before.
 */
const requestRevision = new WeakMap<Actor, number>();

/** Marks an actor the auth hook resolved at revision `rev` for one request. */
export function markRequestActor(actor: Actor, rev: number): void {
  requestRevision.set(actor, rev);
}

/** Stops an actor using the memory (its request changed access itself). */
export function unmarkRequestActor(actor: Actor): void {
  requestRevision.delete(actor);
}

/** The memory an actor may use: only while the revision its request observed is still the current one. */
function memoryFor(ctx: AppContext, actor: Actor): { memory: Memory; rev: number } | undefined {
  const rev = requestRevision.get(actor);
  if (rev === undefined) return undefined;
  const memory = memoryOf(ctx);
  return memory.rev === rev ? { memory, rev } : undefined;
}

/** The fleet and membership row of (actor, fleet), read through the memory where the actor may use it. */
export async function rememberedFleet(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  read: () => Promise<FleetMembershipRow | undefined>,
): Promise<FleetMembershipRow | undefined> {
  const usable = memoryFor(ctx, actor);
  if (!usable) return read();
  const key = `${actor.userId}:${fleetId}`;
  const hit = usable.memory.fleets.get(key);
  if (hit) return hit;
  const row = await read();
  // An unknown fleet is not remembered: it may be created a moment later.
  if (row && usable.memory.rev === usable.rev) usable.memory.fleets.set(key, row);
  return row;
}

/** The rows of a user's fleet list, read through the memory where the actor may use it. */
export async function rememberedVisible(
  ctx: AppContext,
  actor: Actor,
  read: () => Promise<VisibleRows>,
): Promise<VisibleRows> {
  const usable = memoryFor(ctx, actor);
  if (!usable) return read();
  const hit = usable.memory.visible.get(actor.userId);
  if (hit) return hit;
  const rows = await read();
  if (usable.memory.rev === usable.rev) usable.memory.visible.set(actor.userId, rows);
  return rows;
}
