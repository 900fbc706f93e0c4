import { UserEventType } from '@fleetkeep/core';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import type { FleetRow } from '../../db/schema.js';
import { recompute } from '../../engine/index.js';
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
 * After commit: the outbox, the live events of what was created (DESIGN §6), and the status engine on
 * the new assignments. A large import would flood every socket, so beyond LIVE_EVENTS_MAX records the
 * fleet's other members get spec §4 user event 64 ("current fleet changed", whose dialog reloads) instead.
 */
export async function publishImport(
  ctx: AppContext,
  fleet: FleetRow,
  actor: Actor,
  p: Published,
): Promise<void> {
  ctx.outbox.publish();
  const db = ctx.db.kysely;
  const fid = fleet.id;
  await countersMoved(ctx, fid, p.counters);
  const total =
    p.units.length +
    p.persons.d.length +
    p.persons.t.length +
    p.fields.length +
    p.library.length +
    p.intervals.length +
    p.services.length +
    p.fuel.length;
  if (total > LIVE_EVENTS_MAX) {
    const members = await db
      .selectFrom('fleet_users')
      .select('user_id')
      .where('fleet_id', '=', fid)
      .execute();
    for (const m of members)
      await ctx.bus.publish({
        t: 'e',
        s: 'user',
        fid: null,
        uid: m.user_id,
        d: { type: UserEventType.fleetChanged, fid },
        by: actor.sessionId,
      });
    await recomputeAfter(ctx, p.assignments);
    return;
  }
  for (const part of chunks(p.units))
    for (const r of await db.selectFrom('units').selectAll().where('id', 'in', part).execute())
      await ctx.bus.publish({ t: 'c', s: 'avl_unit', fid, d: unitToWire(r) });
  for (const [type, table, s] of [
    ['d', 'drivers', 'driver'],
    ['t', 'trailers', 'trailer'],
  ] as const)
    for (const part of chunks(p.persons[type]))
      for (const r of await db.selectFrom(table).selectAll().where('id', 'in', part).execute())
        await ctx.bus.publish({ t: 'c', s, fid, d: personToWire(r) });
  for (const part of chunks(p.fields))
    for (const r of await db.selectFrom('custom_fields').selectAll().where('id', 'in', part).execute())
      await ctx.bus.publish({ t: 'c', s: 'customfield', fid, d: customFieldToWire(r) });
  for (const item of p.library)
    await ctx.bus.publish({ t: 'c', s: 'lineitem', fid, d: libraryItemToWire(item) });
  for (const part of chunks(p.intervals))
    for (const d of await loadIntervals(db, fid, part))
      await ctx.bus.publish({ t: 'c', s: 'interval', fid, d });
  for (const part of chunks(p.services))
    for (const d of await loadWires(db, fid, byIds(fid, part)))
      await ctx.bus.publish({ t: 'c', s: 'service', fid, d });
  for (const part of chunks(p.fuel))
    for (const d of await wiresByIds(db, fleet, part))
      await ctx.bus.publish({ t: 'c', s: 'fuelfilling', fid, d });
  for (const e of p.owners) await ctx.bus.publish(e);
  await recomputeAfter(ctx, p.assignments);
}

/** The status engine on new assignments; the import is committed, so a failure is logged (its timer sweeps). */
async function recomputeAfter(ctx: AppContext, assignmentIds: number[]) {
  if (assignmentIds.length === 0) return;
  try {
    await recompute(ctx, { assignmentIds });
  } catch (err) {
    ctx.log.error({ err }, 'recompute after a fleet import failed');
  }
}

/** Existing units whose counters the import moved: their live event and the counters listeners. */
async function countersMoved(ctx: AppContext, fid: number, unitIds: number[]) {
  if (unitIds.length === 0) return;
  for (const part of chunks(unitIds))
    for (const r of await ctx.db.kysely.selectFrom('units').selectAll().where('id', 'in', part).execute())
      await ctx.bus.publish({ t: 'u', s: 'avl_unit', fid, d: unitToWire(r) });
  for (const listener of ctx.countersListeners) {
    try {
      await listener(unitIds);
    } catch (err) {
      ctx.log.error({ err, unitIds }, 'counters listener after an import failed');
    }
  }
}
