import type { ServiceWire } from '@fleetkeep/core';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/database.js';
import { collectionTag } from '../../http/etag.js';
import { type LineArray, linesQuery, parsed, type ServiceArray, servicesOnlyQuery, wiresOf } from './list.js';
import type { Scope } from './load.js';
import { NO_OWNER, ownerKey, ownerStates } from './owners.js';

/**
 * The tagged services lists' rows kept per `services` revision. A list's tag is made of two
 * revisions (http/etag.ts, migration 020): `services` (the services, their line items and attachments)
 * and `owners` (the live counters and `ins` of their objects). Ingestion moves `owners` with every
 * reading, so in a fleet with reporting units nearly every list read after a while found a new tag and
 * rebuilt everything. The rows of a list (with its line items) are kept here under the `services`
 * revision read before them; a read whose revision is the kept one reads only its objects' live state
 * (a few rows) and merges it in.
 *
 * Correct across instances without invalidation: the revision lives in the database and every writer
 * bumps it in its own transaction, and it is read before the rows, so kept rows are never older than
 * the revision they are kept under (a change committed between the two reads makes them newer, and the
 * next read sees a new revision and reads again). The objects' state is always read now, after the
 * request's own tag: the body is never older than its tag.
 */

/** Upper bound of the service rows kept by one server (arrays of some thirty values each, with their line items). */
export const KEPT_ROWS = 50_000;

interface Kept {
  revision: string;
  rows: ServiceArray[];
  lines: LineArray[];
}

/**
 * Rows of lists by list key (fleet, list, variant), each with the `services` revision it was read at;
 * least recently used dropped first once the rows held pass the bound (an empty list counts as one).
 */
export class KeptRows {
  private readonly entries: LRUCache<string, Kept>;

  constructor(maxRows = KEPT_ROWS) {
    this.entries = new LRUCache({
      maxSize: maxRows,
      sizeCalculation: (kept) => Math.max(1, kept.rows.length),
    });
  }

  get(key: string, revision: string): Kept | undefined {
    const kept = this.entries.peek(key);
    return kept?.revision === revision ? this.entries.get(key) : undefined;
  }

  /** Keeps a list's rows in place of the ones it had; a list larger than the bound is not kept. */
  set(key: string, kept: Kept): void {
    this.entries.set(key, kept);
  }
}

/** One store per database (a process may run several servers: the tests do). */
const stores = new WeakMap<Db, KeptRows>();

function storeOf(db: Db): KeptRows {
  let store = stores.get(db);
  if (!store) {
    store = new KeptRows();
    stores.set(db, store);
  }
  return store;
}

/**
 * The wires of a tagged list (`key` names the fleet, the list and its variant; `scope` its services):
 * the rows kept for the fleet's current `services` revision, or read and kept, with the live state of
 * their objects read now.
 */
export async function keptListWires(
  db: Db,
  fleetId: number,
  key: string,
  scope: Scope,
): Promise<ServiceWire[]> {
  const store = storeOf(db);
  const revision = await collectionTag(db, fleetId, ['services'], '');
  let kept = store.get(key, revision);
  if (!kept) {
    const inFleet: Scope = (qb) => scope(qb).where('fleet_id', '=', fleetId);
    const rows = parsed<ServiceArray>(await servicesOnlyQuery(db.kysely, db.ops, inFleet).execute());
    const lines = rows.length
      ? parsed<LineArray>(await linesQuery(db.kysely, db.ops, inFleet).execute())
      : [];
    kept = { revision, rows, lines };
    store.set(key, kept);
  }
  const owners = await ownerStates(
    db.kysely,
    kept.rows.map((a) => ({ fleetId, type: a[2] as string, id: a[1] as number })),
  );
  return wiresOf(
    fleetId,
    kept.rows,
    kept.lines,
    (a) => owners.get(ownerKey(a[2] as string, a[1] as number)) ?? NO_OWNER,
  );
}
