import {
  SERVICE_ARCHIVE_RANGE_DAYS as ARCHIVE_RANGE_DAYS,
  type ServiceArchivePatch as ArchivePatch,
  SERVICE_BATCH_MAX as BATCH_MAX,
  numberArrayError,
  type ServiceDeleteWire,
  serviceListReply,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, DAY, now } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { Database, ServiceRow } from '../../db/schema.js';
import { conflict, invalidInput } from '../../http/errors.js';
import type { TaggedList } from '../../http/etag.js';
import { changedFixedFields } from '../../http/fixed-fields.js';
import { validateCustomValues } from '../customfields/service.js';
import { thousandths } from '../lineitems/library.js';
import { serviceToWire } from '../maintenance-wire.js';
import { releaseServiceParts } from '../parts/stock.js';
import { trackServices } from '../statistics/cost-days.js';
import { type Changes, replaceLines, runChange } from './effects.js';
import { keptListWires } from './kept.js';
import { loadWires, type Scope } from './load.js';
import { NO_OWNER } from './owners.js';
import { dayOf, isArchived, statusOf } from './rules.js';
import { loadService, SERVICE_LIST_COLLECTIONS } from './service.js';
import { lineCounts, planContext } from './write.js';

/**
 * The archive: closed and rejected services (spec §4 "Finished group"). Both are listed by their end
 * date; a rejected service's end date is the day it was rejected. A range covers whole days in the
 * fleet zone and spans at most 366 days, so one call stays bounded.
 */
const FINISHED = sql<number>`(${sql.ref('f')} & 24)`;

function parseDay(tz: number, value: string, field: string) {
  const day = /^\d+$/.test(value) ? dayOf(tz, Number(value)) : dayOf(tz, value);
  if (day === undefined)
    throw invalidInput([{ field: `querystring.${field}`, message: 'Expected Unix seconds or YYYY-MM-DD' }]);
  return day;
}

/** The fleet days a from/to query covers, checked (spec §7: at most 366 days). */
function archiveRange(tz: number, from: string, to: string) {
  const first = parseDay(tz, from, 'from');
  const last = parseDay(tz, to, 'to');
  if (last < first) throw invalidInput([{ field: 'querystring.to', message: 'Must not be before from' }]);
  if (Math.round((last - first) / DAY) > ARCHIVE_RANGE_DAYS)
    throw invalidInput([
      { field: 'querystring.to', message: `The range spans at most ${ARCHIVE_RANGE_DAYS} days` },
    ]);
  return { first, last };
}

/** Closed and rejected services whose end date is within the fleet days of the range. */
const archivedScope =
  (fleetId: number, range: { first: number; last: number }): Scope =>
  (qb) =>
    qb
      .where('fleet_id', '=', fleetId)
      .where(FINISHED, '<>', 0)
      .where('end_date', '>=', range.first)
      .where('end_date', '<=', range.last);

async function archivedServices(db: Db, fleetId: number, range: { first: number; last: number }) {
  return { services: await loadWires(db.kysely, db.ops, fleetId, archivedScope(fleetId, range)) };
}

export async function listArchived(ctx: AppContext, actor: Actor, fleetId: number, from: string, to: string) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'service.view');
  return archivedServices(ctx.db, fleetId, archiveRange(fleet.tz, from, to));
}

/**
 * The archive read as a tagged list (http/etag.ts): the query is checked first (a bad range is a 400,
 * never a tag); the variant is the range of fleet days, so that a change of the fleet's zone changes it.
 */
export async function archivedRead(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  from: string,
  to: string,
): Promise<TaggedList> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'service.view');
  const range = archiveRange(fleet.tz, from, to);
  const variant = `${range.first}:${range.last}`;
  return {
    collections: SERVICE_LIST_COLLECTIONS,
    variant,
    schema: serviceListReply,
    // Rows kept per services revision; only the objects' live state is read again (kept.ts).
    build: async () => ({
      services: await keptListWires(
        ctx.db,
        fleetId,
        `${fleetId}|archive|${variant}`,
        archivedScope(fleetId, range),
      ),
    }),
  };
}

/** PUT .../services/archived/{id}: corrections with archiveEdit; the status stays frozen (PRODUCT.md). */
export async function updateArchived(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  patch: ArchivePatch,
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'archive.edit');
  const pc = planContext(fleet, actor);
  const { wires } = await runChange(ctx, fleetId, async (trx, ch) => {
    const row = await loadService(trx, fleetId, id);
    if (!isArchived(row.f)) throw conflict('The service is not archived');
    // Status, plan, owner and creator stay: a value other than the stored one is refused, not dropped.
    const issues = changedFixedFields(patch, serviceToWire(row, [], 0, NO_OWNER));
    let end = row.end_date;
    if (patch.end_date !== undefined) {
      end = dayOf(pc.tz, patch.end_date) ?? null;
      if (end === null) issues.push({ field: 'body.end_date', message: 'Invalid date' });
      else if (end > pc.today) issues.push({ field: 'body.end_date', message: 'Must be today or earlier' });
      else if (row.start_date !== null && end < row.start_date)
        issues.push({ field: 'body.end_date', message: 'Must not be earlier than the start date' });
    }
    const lines = patch.li !== undefined ? patch.li.length : ((await lineCounts(trx, [id])).get(id) ?? 0);
    if (patch.manual_cost != null && lines > 0)
      issues.push({ field: 'body.manual_cost', message: 'Only for a service without line items' });
    // customfields: values must be service fields of this fleet.
    issues.push(...(await validateCustomValues(trx, ctx.db.ops, fleetId, 's', patch.cf)));
    if (issues.length) throw invalidInput(issues);
    const costs = await trackServices(trx, [id]); // statistics: end date and cost corrections
    await trx
      .updateTable('services')
      .set({
        updated_at: pc.now,
        end_date: end,
        ...(patch.n !== undefined && { name: patch.n }),
        ...(patch.description !== undefined && { description: patch.description }),
        // A null counter (the record as read) is "not given" (PRODUCT.md "Written-back records").
        ...(patch.mileage != null && { mileage: patch.mileage }),
        ...(patch.engine_hours != null && { engine_hours: patch.engine_hours }),
        ...(patch.cf !== undefined && { cf: JSON.stringify(patch.cf) }),
        ...(patch.manual_cost !== undefined && {
          manual_cost: patch.manual_cost === null ? null : thousandths(patch.manual_cost),
        }),
        ...(lines > 0 && { manual_cost: null }),
      })
      .where('id', '=', id)
      .execute();
    if (patch.li !== undefined) await replaceLines(trx, fleetId, id, patch.li, ch, actor.userId);
    await followBaseline(trx, row, { end, mileage: patch.mileage, engineHours: patch.engine_hours }, ch);
    await costs.done(); // statistics
    ch.updated.add(id);
  });
  return wires[0]!;
}

/** DELETE .../services/archived/{id} and .../archived/batch: with archiveDelete; all or none. */
export async function deleteArchived(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  ids: unknown,
): Promise<ServiceDeleteWire> {
  await requireFleet(ctx, actor, fleetId, 'archive.delete');
  const error = numberArrayError(ids);
  if (error) throw invalidInput([{ field: 'body.services', message: error }], error);
  const wanted = [...new Set(ids as number[])];
  if (wanted.length > BATCH_MAX)
    throw invalidInput([{ field: 'body.services', message: `At most ${BATCH_MAX}` }]);
  await runChange(ctx, fleetId, async (trx, ch) => {
    const rows = wanted.length
      ? await trx
          .selectFrom('services')
          .select(['id', 'f'])
          .where('fleet_id', '=', fleetId)
          .where('id', 'in', wanted)
          .execute()
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const refused = wanted.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [{ id, reason: 'Not found' }];
      return isArchived(row.f) ? [] : [{ id, reason: 'Not archived' }];
    });
    if (refused.length) throw conflict('Some services cannot be deleted', refused);
    if (wanted.length === 0) return;
    // Parts the deleted services' lines took go back to stock (modules/parts).
    await releaseServiceParts(trx, { fleetId, by: actor.userId, at: now() }, wanted);
    const costs = await trackServices(trx, wanted); // statistics: deleted closed services
    await trx
      .deleteFrom('attachments')
      .where('owner_type', '=', 'service')
      .where('owner_id', 'in', wanted)
      .execute();
    await trx.deleteFrom('services').where('fleet_id', '=', fleetId).where('id', 'in', wanted).execute();
    await costs.done(); // statistics
    for (const id of wanted) ch.deleted.add(id);
  });
  return { error: 0, deleted: wanted.length };
}

export async function deleteOneArchived(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'archive.delete');
  await loadService(ctx.db.kysely, fleetId, id);
  return deleteArchived(ctx, actor, fleetId, [id]);
}

/**
 * Correcting the closed service an assignment's baseline came from (the baseline still holds its end
 * date and counters) moves the baseline along, so the next cycle counts from the corrected values.
 */
async function followBaseline(
  trx: Kysely<Database>,
  row: ServiceRow,
  next: { end: number | null; mileage?: number | null; engineHours?: number | null },
  ch: Changes,
) {
  if (statusOf(row.f) !== 'closed' || row.assignment_id === null) return;
  const a = await trx
    .selectFrom('assignments')
    .selectAll()
    .where('id', '=', row.assignment_id)
    .executeTakeFirst();
  if (!a || a.ltm !== row.end_date) return;
  if (row.mileage !== null && a.lcnm !== row.mileage) return;
  if (row.engine_hours !== null && a.lceh !== row.engine_hours) return;
  const set = {
    ...(next.end !== null && { ltm: next.end }),
    ...(next.mileage != null && { lcnm: next.mileage }),
    ...(next.engineHours != null && { lceh: next.engineHours }),
  };
  await trx.updateTable('assignments').set(set).where('id', '=', a.id).execute();
  ch.assignments.add(a.id);
}
