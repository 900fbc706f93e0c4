import type { LineItemLineInput as LineIn, LiveEvent, ServiceWire } from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import { type AppContext, now } from '../../context.js';
import type { DialectOps } from '../../db/dialect/index.js';
import type { Database, LineItemRow } from '../../db/schema.js';
import { committed, turn } from '../../db/yield.js';
import { recompute } from '../../engine/index.js';
import { type UnitOfWork, unitOfWork } from '../../events/unit-of-work.js';
import { conflict } from '../../http/errors.js';
import { personToWire, unitToWire } from '../fleets/mappers.js';
import { loadIntervals } from '../intervals/store.js';
import { ensureLibraryItems, isUniqueViolation, thousandths } from '../lineitems/library.js';
import { libraryItemToWire } from '../maintenance-wire.js';
import { applyLineUses, checkStockLines } from '../parts/stock.js';
import { byIds, loadWires, type ObjectKey } from './load.js';
import type { ObjectState } from './plan.js';

/** What a write changed, collected inside its transaction and published after commit (DESIGN §6). */
export class Changes {
  readonly created = new Set<number>();
  readonly updated = new Set<number>();
  readonly deleted = new Set<number>();
  /** Owners whose in-progress marker may have changed. */
  readonly objects = new Set<ObjectKey>();
  /** Assignments whose baseline was reset (closes and rejects), for the status engine. */
  readonly assignments = new Set<number>();
  readonly library: LineItemRow[] = [];
}

/** Replaces a service's line items; new names join the fleet's library (PRODUCT.md "Intervals"). */
export async function replaceLines(
  trx: Kysely<Database>,
  fleetId: number,
  serviceId: number,
  lines: LineIn[],
  ch: Changes,
  by: number | null,
) {
  // Parts taken from stock (modules/parts): the old lines give back, the new ones take.
  await checkStockLines(trx, fleetId, lines);
  const before = await trx
    .selectFrom('service_line_items')
    .select(['part_id', 'location_id', 'qty'])
    .where('service_id', '=', serviceId)
    .where('part_id', 'is not', null)
    .execute();
  await applyLineUses(
    trx,
    { fleetId, by, at: now() },
    { type: 's', id: serviceId },
    before.map((r) => ({ pid: r.part_id, slid: r.location_id, qty: Number(r.qty) })),
    lines.map((l) => ({ pid: l.pid, slid: l.slid, qty: thousandths(l.q) })),
  );
  await trx.deleteFrom('service_line_items').where('service_id', '=', serviceId).execute();
  // The list's revision (migration 020): SQLite keeps no row triggers on line items.
  await trx
    .updateTable('collection_revisions')
    .set((eb) => ({ rev: eb('rev', '+', 1) }))
    .where('fleet_id', '=', fleetId)
    .where('collection', '=', 'services')
    .execute();
  if (lines.length === 0) return;
  await trx
    .insertInto('service_line_items')
    .values(
      lines.map((l, position) => ({
        service_id: serviceId,
        position,
        name: l.n,
        kind: l.t,
        qty: thousandths(l.q),
        cost: thousandths(l.c),
        part_id: l.pid ?? null,
        location_id: l.pid == null ? null : (l.slid ?? null),
      })),
    )
    .execute();
  const created = await ensureLibraryItems(
    trx,
    fleetId,
    lines.map((l) => ({ name: l.n, kind: l.t, cost: thousandths(l.c) })),
  );
  ch.library.push(...created);
}

/**
 * Closing resets the assignment's baseline to the service's counters and end date and counts an
 * execution (PRODUCT.md "The status engine"); counters the service lacks keep their baseline.
 */
export async function closeBaseline(
  trx: Kysely<Database>,
  assignmentId: number,
  service: { mileage: number | null; engine_hours: number | null; end_date: number | null },
  ch: Changes,
) {
  await trx
    .updateTable('assignments')
    .set((eb) => ({
      lcnm: service.mileage ?? eb.ref('lcnm'),
      lceh: service.engine_hours ?? eb.ref('lceh'),
      ...(service.end_date !== null && { ltm: service.end_date }),
      cnt: eb('cnt', '+', 1),
    }))
    .where('id', '=', assignmentId)
    .execute();
  ch.assignments.add(assignmentId);
}

/** Rejecting resets the baseline to the moment and the object's counters; executions stay. */
export async function rejectBaseline(
  trx: Kysely<Database>,
  assignmentId: number,
  object: ObjectState | undefined,
  at: number,
  ch: Changes,
) {
  await trx
    .updateTable('assignments')
    .set((eb) => ({
      lcnm: object?.mileage ?? eb.ref('lcnm'),
      lceh: object?.engineHours ?? eb.ref('lceh'),
      ltm: at,
    }))
    .where('id', '=', assignmentId)
    .execute();
  ch.assignments.add(assignmentId);
}

const TABLE = { u: 'units', d: 'drivers', t: 'trailers' } as const;
const COLLECTION = { u: 'avl_unit', d: 'driver', t: 'trailer' } as const;
/** In progress and not finished: (f & (2|8|16)) = 2. */
const IN_PROGRESS = sql<number>`(${sql.ref('f')} & 26)`;

/**
 * Keeps each owner's `ins` exact: 1 while at least one In progress service exists for it, else 0
 * (spec §4). Returns the events of the owners whose marker flipped.
 */
export async function syncIns(trx: Kysely<Database>, ops: DialectOps, fleetId: number, keys: Set<ObjectKey>) {
  const events: LiveEvent[] = [];
  for (const type of ['u', 'd', 't'] as const) {
    const ids = [...keys].filter((k) => k.startsWith(`${type}:`)).map((k) => Number(k.slice(2)));
    if (ids.length === 0) continue;
    let ownerQuery = trx
      .selectFrom(TABLE[type])
      .select(['id', 'ins'])
      .where('id', 'in', ids)
      .where('fleet_id', '=', fleetId)
      .orderBy('id');
    // PostgreSQL: lock the owners first, so that concurrent changes of one owner's services count in
    // turn (the count below then sees what the other committed). SQLite serialises writers anyway.
    ownerQuery = ops.forUpdate(ownerQuery);
    const owners = await ownerQuery.execute();
    const busy = await trx
      .selectFrom('services')
      .select('object_id')
      .distinct()
      .where('object_type', '=', type)
      .where('object_id', 'in', ids)
      .where(IN_PROGRESS, '=', 2)
      .execute();
    const busySet = new Set(busy.map((b) => b.object_id));
    const flipped = owners.filter((o) => o.ins !== (busySet.has(o.id) ? 1 : 0));
    for (const value of [0, 1]) {
      const set = flipped.filter((o) => o.ins !== value).map((o) => o.id);
      if (set.length) await trx.updateTable(TABLE[type]).set({ ins: value }).where('id', 'in', set).execute();
    }
    if (flipped.length === 0) continue;
    const flippedIds = flipped.map((o) => o.id);
    if (type === 'u') {
      const rows = await trx.selectFrom('units').selectAll().where('id', 'in', flippedIds).execute();
      for (const r of rows) events.push({ t: 'u', s: 'avl_unit', fid: fleetId, d: unitToWire(r) });
    } else {
      const rows = await trx.selectFrom(TABLE[type]).selectAll().where('id', 'in', flippedIds).execute();
      for (const r of rows) events.push({ t: 'u', s: COLLECTION[type], fid: fleetId, d: personToWire(r) });
    }
  }
  return events;
}

/** Services read back per query after a write. */
const WIRES_PER_READ = 500;

/**
 * Runs a write as one unit of work (events/unit-of-work.ts), keeps `ins` exact inside it; after the
 * commit publishes the library, service and owner events and hands reset assignments to the status
 * engine. Returns the changed services.
 */
export async function runChange<T>(
  ctx: AppContext,
  fleetId: number,
  write: (trx: Kysely<Database>, ch: Changes) => Promise<T>,
): Promise<{ result: T; wires: ServiceWire[] }> {
  const ch = new Changes();
  let read: () => ServiceWire[] = () => [];
  const result = await unitOfWork(ctx, async (trx, uow) => {
    const r = await write(trx, ch);
    read = await finishChanges(ctx, fleetId, uow, ch);
    return r;
  }).catch((err: unknown) => {
    // services_open_assignment: a concurrent write opened a service for the same assignment.
    if (isUniqueViolation(err)) throw conflict('An open service exists for this interval and object');
    throw err;
  });
  return { result, wires: read() };
}

/**
 * The end of a services write inside a caller's unit of work (runChange, and the work orders'
 * completion, which closes services in its own unit): keeps `ins` exact, and after the commit
 * publishes the library, service and owner events and hands reset assignments to the status engine.
 * Returns a reader of the changed services' wires, filled after the commit.
 */
export async function finishChanges(
  ctx: AppContext,
  fleetId: number,
  uow: UnitOfWork,
  ch: Changes,
): Promise<() => ServiceWire[]> {
  let wires: ServiceWire[] = [];
  const ownerEvents = await syncIns(uow.trx, ctx.db.ops, fleetId, ch.objects);
  uow.recorded(); // the domain events of the write (write.ts)
  uow.afterCommit(async () => {
    committed(ch.created.size + ch.updated.size); // an import's progress bar (db/yield.ts)
    wires = await changedWires(ctx, fleetId, ch);
    return [
      ...ch.library.map(
        (item) => ({ t: 'c', s: 'lineitem', fid: fleetId, d: libraryItemToWire(item) }) as const,
      ),
      ...wires.map(
        (w) => ({ t: ch.created.has(w.id) ? 'c' : 'u', s: 'service', fid: fleetId, d: w }) as const,
      ),
      ...[...ch.deleted].map((id) => ({ t: 'd', s: 'service', fid: fleetId, d: { id } }) as const),
      ...ownerEvents,
    ];
  });
  if (ch.assignments.size) afterBaselines(uow, ctx, fleetId, [...ch.assignments]);
  return () => wires;
}

/** The changed services read back after the commit, in parts with turns for the event loop. */
async function changedWires(ctx: AppContext, fleetId: number, ch: Changes): Promise<ServiceWire[]> {
  const ids = [...ch.created, ...ch.updated].filter((id) => !ch.deleted.has(id)).sort((a, b) => a - b);
  // An import's 10,000 services never hold the server.
  const wires: ServiceWire[] = [];
  for (let i = 0; i < ids.length; i += WIRES_PER_READ) {
    if (i > 0) await turn();
    wires.push(
      ...(await loadWires(
        ctx.db.kysely,
        ctx.db.ops,
        fleetId,
        byIds(fleetId, ids.slice(i, i + WIRES_PER_READ)),
      )),
    );
  }
  return wires;
}

/**
 * Reset baselines show in their intervals' `u` lists (DESIGN §5), so those intervals are published;
 * then the status engine looks at the assignments. The write is committed by then: an engine failure
 * is logged, and its timer sweeps again (PRODUCT.md "The status engine").
 */
function afterBaselines(uow: UnitOfWork, ctx: AppContext, fleetId: number, assignmentIds: number[]) {
  uow.afterCommit(async () => {
    const rows = await ctx.db.kysely
      .selectFrom('assignments')
      .select('interval_id')
      .distinct()
      .where('fleet_id', '=', fleetId)
      .where('id', 'in', assignmentIds)
      .execute();
    const intervals = await loadIntervals(
      ctx.db.kysely,
      fleetId,
      rows.map((r) => r.interval_id),
    );
    return intervals.map((d) => ({ t: 'u', s: 'interval', fid: fleetId, d }) as const);
  });
  uow.afterCommit(async () => {
    try {
      await recompute(ctx, { assignmentIds });
    } catch (err) {
      ctx.log.error({ err }, 'recompute after a service change failed');
    }
  });
}
