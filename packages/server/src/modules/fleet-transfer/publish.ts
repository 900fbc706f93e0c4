import { type LiveEvent, UserEventType } from '@fleetkeep/core';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import type { FleetRow } from '../../db/schema.js';
import { recompute } from '../../engine/index.js';
import type { UnitOfWork } from '../../events/unit-of-work.js';
import { customFieldToWire } from '../customfields/rules.js';
import { personToWire, unitToWire } from '../fleets/mappers.js';
import { wiresByIds } from '../fuel/load.js';
import { loadIntervals } from '../intervals/store.js';
import { libraryItemToWire } from '../maintenance-wire.js';
import { byIds, loadWires } from '../services/load.js';
import type { Published } from './run.js';

const CHUNK = 500;
const chunks = (ids: number[]) => {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(ids.slice(i, i + CHUNK));
  return out;
};

/** Above this many created records, the fleet's members are told "fleet changed" instead of each record. */
export const LIVE_EVENTS_MAX = 1000;

/**
 * After commit (queued on the import's unit of work, events/unit-of-work.ts): the live events of what
 * was created (DESIGN §6), the status engine on the new assignments, then the outbox. A large import
 * would flood every socket, so beyond LIVE_EVENTS_MAX records the fleet's other members get spec §4 user
 * event 64 ("current fleet changed", whose dialog reloads) instead.
 */
export function publishImport(
  uow: UnitOfWork,
  ctx: AppContext,
  fleet: FleetRow,
  actor: Actor,
  p: Published,
): void {
  uow.recorded();
  const fid = fleet.id;
  if (p.counters.length) {
    uow.afterCommit(() => movedUnits(ctx, fid, p.counters));
    uow.afterCommit(() => countersListeners(ctx, p.counters));
  }
  const total =
    p.units.length +
    p.persons.d.length +
    p.persons.t.length +
    p.fields.length +
    p.library.length +
    p.intervals.length +
    p.services.length +
    p.fuel.length;
  uow.afterCommit(() =>
    total > LIVE_EVENTS_MAX ? fleetChanged(ctx, fid, actor) : createdRecords(ctx, fleet, p),
  );
  if (p.assignments.length) uow.afterCommit(() => recomputeAfter(ctx, p.assignments));
}

/** Spec §4 user event 64 to each member of the fleet. */
async function fleetChanged(ctx: AppContext, fid: number, actor: Actor): Promise<LiveEvent[]> {
  const members = await ctx.db.kysely
    .selectFrom('fleet_users')
    .select('user_id')
    .where('fleet_id', '=', fid)
    .execute();
  return members.map((m) => ({
    t: 'e',
    s: 'user',
    fid: null,
    uid: m.user_id,
    d: { type: UserEventType.fleetChanged, fid },
    by: actor.sessionId,
  }));
}

/** One `c` event per created record, read back after the commit, then the owners whose marker flipped. */
async function createdRecords(ctx: AppContext, fleet: FleetRow, p: Published): Promise<LiveEvent[]> {
  const db = ctx.db.kysely;
  const fid = fleet.id;
  const out: LiveEvent[] = [];
  for (const part of chunks(p.units))
    for (const r of await db.selectFrom('units').selectAll().where('id', 'in', part).execute())
      out.push({ t: 'c', s: 'avl_unit', fid, d: unitToWire(r) });
  for (const [type, table, s] of [
    ['d', 'drivers', 'driver'],
    ['t', 'trailers', 'trailer'],
  ] as const)
    for (const part of chunks(p.persons[type]))
      for (const r of await db.selectFrom(table).selectAll().where('id', 'in', part).execute())
        out.push({ t: 'c', s, fid, d: personToWire(r) });
  for (const part of chunks(p.fields))
    for (const r of await db.selectFrom('custom_fields').selectAll().where('id', 'in', part).execute())
      out.push({ t: 'c', s: 'customfield', fid, d: customFieldToWire(r) });
  for (const item of p.library) out.push({ t: 'c', s: 'lineitem', fid, d: libraryItemToWire(item) });
  for (const part of chunks(p.intervals))
    for (const d of await loadIntervals(db, fid, part)) out.push({ t: 'c', s: 'interval', fid, d });
  for (const part of chunks(p.services))
    for (const d of await loadWires(db, ctx.db.ops, fid, byIds(fid, part)))
      out.push({ t: 'c', s: 'service', fid, d });
  for (const part of chunks(p.fuel))
    for (const d of await wiresByIds(db, fleet, part)) out.push({ t: 'c', s: 'fuelfilling', fid, d });
  out.push(...p.owners);
  return out;
}

/** The status engine on new assignments; the import is committed, so a failure is logged (its timer sweeps). */
async function recomputeAfter(ctx: AppContext, assignmentIds: number[]): Promise<void> {
  try {
    await recompute(ctx, { assignmentIds });
  } catch (err) {
    ctx.log.error({ err }, 'recompute after a fleet import failed');
  }
}

/** Existing units whose counters the import moved: their live events. */
async function movedUnits(ctx: AppContext, fid: number, unitIds: number[]): Promise<LiveEvent[]> {
  const out: LiveEvent[] = [];
  for (const part of chunks(unitIds))
    for (const r of await ctx.db.kysely.selectFrom('units').selectAll().where('id', 'in', part).execute())
      out.push({ t: 'u', s: 'avl_unit', fid, d: unitToWire(r) });
  return out;
}

/** The counters listeners (the status engine) on the units whose counters moved. */
async function countersListeners(ctx: AppContext, unitIds: number[]): Promise<void> {
  for (const listener of ctx.countersListeners) {
    try {
      await listener(unitIds);
    } catch (err) {
      ctx.log.error({ err, unitIds }, 'counters listener after an import failed');
    }
  }
}
