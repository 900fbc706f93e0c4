import type { FastifyReply, FastifyRequest } from 'fastify';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { ZodType } from 'zod';
import { SharedRead } from '../auth/shared-read.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { COMPRESS_THRESHOLD, encodedBody, keptEncoding } from './encoded.js';
import { ReplyContractError, replyProblems } from './replies.js';

/**
 * Conditional reads of the big lists: a list's `ETag` is made of its fleet's
 * collection revisions (migration 020, bumped by triggers in every writer's transaction) and of whatever
 * else makes the reply differ for the same URL (the variant: query string, fleet zone, …). A request whose
 * `If-None-Match` names the current tag is answered 304 with no body and without reading the rows.
 *
 * The revisions are read before the rows, from the database on every request: a change committed between
 * the two reads leaves a tag older than the body (the next read answers 200 again), never a tag newer
 * than the body, and another instance's write is seen by the very next read (no cache to invalidate).
 *
 * Bodies are kept per tag (bounded by bytes): the same tag means the same committed data, so a list read
 * again by anyone before the next change is sent as the bytes already built.
 */

/** Collections with a revision row (migration 020; `units`: migration 026). */
export type Collection = 'services' | 'owners' | 'units';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A tagged list route's collections (`sendTagged` with the same ones and the fleet of the route's
     * fleet source): the auth hook reads their revisions with the access revision, in one round trip.
     */
    taggedBy?: readonly Collection[];
  }
}

/** Changes when the wire of the tagged replies changes shape, so that old tags never match new bodies. */
const TAG_SCHEME = 'v1';
/** Upper bound of the bytes of bodies kept by a reply cache. */
export const REPLY_CACHE_BYTES = 64 * 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';

/** 32-bit FNV-1a of a string, hex: the variant part of a tag (short and opaque). */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

/**
 * A query per database and set of collections, compiled once (the tag and combined reads run on every
 * tagged request). Parameters in this order: the fleet id, then the collections.
 */
function compiledPer(
  build: (db: Kysely<Database>, collections: readonly Collection[]) => CompiledQuery,
): (db: Kysely<Database>, collections: readonly Collection[]) => CompiledQuery {
  const cache = new WeakMap<Kysely<Database>, Map<string, CompiledQuery>>();
  return (db, collections) => {
    let byCollections = cache.get(db);
    if (!byCollections) {
      byCollections = new Map();
      cache.set(db, byCollections);
    }
    const key = collections.join(',');
    let query = byCollections.get(key);
    if (!query) {
      query = build(db, collections);
      byCollections.set(key, query);
    }
    return query;
  };
}

const tagQuery = compiledPer((db, collections) =>
  db
    .selectFrom('collection_revisions')
    .select(['collection', 'rev'])
    .where('fleet_id', '=', 0)
    .where('collection', 'in', collections)
    .compile(),
);

type RevisionRow = { collection: string; rev: number | string };

const revisionsOf = (rows: RevisionRow[], collections: readonly Collection[]) =>
  collections.map((c) => Number(rows.find((r) => r.collection === c)?.rev ?? 0));

const tagOf = (fleetId: number, revs: readonly number[], variant: string) =>
  `"${TAG_SCHEME}-${fleetId}-${revs.join('-')}-${fnv1a(variant)}"`;

/** The current tag of a fleet's collections for one variant of a reply. */
export async function collectionTag(
  db: Db,
  fleetId: number,
  collections: readonly Collection[],
  variant: string,
): Promise<string> {
  const query = tagQuery(db.kysely, collections) as CompiledQuery<RevisionRow>;
  const rows = await db.fixed(query, [fleetId, ...collections]);
  return tagOf(fleetId, revisionsOf(rows, collections), variant);
}

/** The access revision's row in the combined read; no collection has an empty name. */
const AUTH_ROW = '';

/** The access revision and the collections' revisions in one read (`readRevisions`). */
const combinedQuery = compiledPer((db, collections) =>
  sql`select ${sql.lit(AUTH_ROW)} as collection, rev from auth_revision where id = 1
      union all
      select collection, rev from collection_revisions
      where fleet_id = ${0} and collection in (${sql.join(collections)})`.compile(db),
);

/** Revisions a tagged list's request read with its access revision (`readRevisions`). */
export interface ListRevisions {
  fleetId: number;
  collections: readonly Collection[];
  revs: number[];
}

/**
 * The access revision (auth/cache.ts) and a fleet's collection revisions in one round trip: a tagged
 * list read needs both, and on PostgreSQL each query costs more CPU than the rest of such a request
 *. Both are read after the request arrived and before any row, as each read alone would be.
 */
export function readRevisions(
  db: Db,
  fleetId: number,
  collections: readonly Collection[],
): Promise<{ access: number; list: ListRevisions }> {
  let readers = sharedReads.get(db);
  if (!readers) {
    readers = new Map();
    sharedReads.set(db, readers);
  }
  const key = `${fleetId}|${collections.join(',')}`;
  let reader = readers.get(key);
  if (!reader) {
    const forget = () => readers.delete(key);
    reader = new SharedRead(() => readRevisionsNow(db, fleetId, collections), forget);
    readers.set(key, reader);
  }
  return reader.get();
}

type Revisions = { access: number; list: ListRevisions };

/**
 * Readers of `readRevisions` by fleet and collections, shared by the requests that arrive while one is
 * in flight (auth/shared-read.ts); a reader is dropped once idle, so the map holds only those in use.
 */
const sharedReads = new WeakMap<Db, Map<string, SharedRead<Revisions>>>();

async function readRevisionsNow(
  db: Db,
  fleetId: number,
  collections: readonly Collection[],
): Promise<Revisions> {
  const query = combinedQuery(db.kysely, collections) as CompiledQuery<RevisionRow>;
  const rows = await db.fixed(query, [fleetId, ...collections]);
  const access = Number(rows.find((r) => r.collection === AUTH_ROW)?.rev ?? 0);
  return { access, list: { fleetId, collections, revs: revisionsOf(rows, collections) } };
}

/** What the auth hook read for a request's tagged list, taken by `sendTagged`. */
const readForRequest = new WeakMap<FastifyRequest, ListRevisions>();

/** Keeps the list revisions the auth hook read with the access revision, for `sendTagged`. */
export function keepListRevisions(req: FastifyRequest, list: ListRevisions): void {
  readForRequest.set(req, list);
}

/** The request's tag: from the revisions read with its access revision when they fit, else read now. */
async function requestTag(db: Db, req: FastifyRequest, fleetId: number, list: TaggedList): Promise<string> {
  const kept = readForRequest.get(req);
  readForRequest.delete(req);
  const fits =
    kept?.fleetId === fleetId &&
    kept.collections.length === list.collections.length &&
    kept.collections.every((c, i) => c === list.collections[i]);
  if (kept && fits) return tagOf(fleetId, kept.revs, list.variant);
  return collectionTag(db, fleetId, list.collections, list.variant);
}

/** RFC 9110 §13.1.2: weak comparison of `If-None-Match` against the current tag (`*` matches any). */
export function noneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  for (const part of header.split(',')) {
    const candidate = part.trim();
    if (candidate === '*') return true;
    if ((candidate.startsWith('W/') ? candidate.slice(2) : candidate) === tag) return true;
  }
  return false;
}

/** Bodies by tag, least recently used dropped first once over `maxBytes`; a larger body is not kept. */
export class ReplyCache {
  private readonly entries: LRUCache<string, Buffer>;

  constructor(maxBytes = REPLY_CACHE_BYTES) {
    this.entries = new LRUCache({ maxSize: maxBytes, sizeCalculation: (body) => Math.max(1, body.length) });
  }

  get(key: string): Buffer | undefined {
    return this.entries.get(key);
  }

  set(key: string, body: Buffer): void {
    this.entries.set(key, body);
  }
}

export interface TaggedList {
  /** Revisions of these collections of the fleet make the tag. */
  collections: readonly Collection[];
  /** Whatever else makes the reply differ for the same URL. */
  variant: string;
  /** The reply's contract, checked on build where the server checks replies (test servers). */
  schema: ZodType;
  /** Builds the reply from the rows; runs only when neither the client nor the cache has the tag. */
  build: () => Promise<unknown>;
}

/** The body of a tag and variant: kept, or built (and checked where the server checks replies) and kept. */
async function bodyOf(
  ctx: AppContext,
  cache: ReplyCache,
  req: FastifyRequest,
  key: string,
  list: TaggedList,
): Promise<Buffer> {
  let body = cache.get(key);
  if (!body) {
    const data = await list.build();
    if (ctx.config.checkReplies) {
      const problems = replyProblems(list.schema, data);
      if (problems.length) throw new ReplyContractError(`${req.method} ${req.routeOptions.url}`, problems);
    }
    body = Buffer.from(JSON.stringify(data));
    cache.set(key, body);
  }
  return body;
}

/** The key of a body: the variant itself, not its hash, so that two variants never share one. */
const bodyKey = (req: FastifyRequest, tag: string, list: TaggedList) =>
  `${req.routeOptions.url}|${tag}|${list.variant}`;

/**
 * Sends a kept JSON body, as its compressed copy (kept beside it, http/encoded.ts) when the client takes
 * one of the kept encodings and the body is large enough for the compression plugin to compress it.
 */
async function sendKept(
  cache: ReplyCache,
  req: FastifyRequest,
  reply: FastifyReply,
  key: string,
  body: Buffer,
): Promise<FastifyReply> {
  reply.header('content-type', JSON_TYPE);
  const encoding = body.length >= COMPRESS_THRESHOLD ? keptEncoding(req) : undefined;
  if (!encoding) return reply.send(body);
  const encoded = await encodedBody(cache, `${key}|${encoding}`, body, encoding);
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!String(vary).toLowerCase().includes('accept-encoding'))
    reply.header('vary', `${vary}, accept-encoding`);
  return reply.header('content-encoding', encoding).send(encoded);
}

/**
 * Answers a tagged list read: 304 when `If-None-Match` names the current tag, else the body of that tag
 * (built once per tag and process). The caller has checked access before.
 */
export async function sendTagged(
  ctx: AppContext,
  cache: ReplyCache,
  req: FastifyRequest,
  reply: FastifyReply,
  fleetId: number,
  list: TaggedList,
): Promise<FastifyReply> {
  const tag = await requestTag(ctx.db, req, fleetId, list);
  if (noneMatch(req.headers['if-none-match'], tag)) return reply.code(304).header('etag', tag).send();
  const key = bodyKey(req, tag, list);
  return sendKept(cache, req, reply.header('etag', tag), key, await bodyOf(ctx, cache, req, key, list));
}

/**
 * Answers a read of one record whose reply the same collection revisions make (a service: `services`
 * and `owners`) with the body kept for the current revisions, built once per revision, record and
 * process (a small read without its row query). Unlike `sendTagged` it neither sends
 * an `ETag` nor answers 304: the record's reply keeps the headers of its contract. `read.variant` names
 * the record (its id); a `build` that throws (404) keeps nothing. The caller has checked access before;
 * with the route's `config.taggedBy` set to the same collections the revisions come with the access
 * revision, in the request's one round trip.
 */
export async function sendByRevisions(
  ctx: AppContext,
  cache: ReplyCache,
  req: FastifyRequest,
  reply: FastifyReply,
  fleetId: number,
  read: TaggedList,
): Promise<FastifyReply> {
  const tag = await requestTag(ctx.db, req, fleetId, read);
  const key = bodyKey(req, tag, read);
  return sendKept(cache, req, reply, key, await bodyOf(ctx, cache, req, key, read));
}
