import { ServiceFlag } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { now } from '../../context.js';
import type { AssignmentRow, Database, LineItemRow } from '../../db/schema.js';
import { byName, ensureLibraryItems, type Issue, thousandths } from '../lineitems/library.js';
import { type IntervalWire, intervalToWire, lineToWire } from '../maintenance-wire.js';
import { releaseServiceParts } from '../parts/stock.js';

/** Shared reads and writes of the intervals module; every query filters on the fleet. */

type Db = Kysely<Database>;
export type ObjectType = 'u' | 'd' | 't';
const TABLE = { u: 'units', d: 'drivers', t: 'trailers' } as const;
export const KIND_TYPE = { units: 'u', drivers: 'd', trailers: 't' } as const;

/** The intervals of a fleet (or some of them) as wires, sorted by name (spec §3 natural sort). */
export async function loadIntervals(db: Db, fleetId: number, ids?: number[]): Promise<IntervalWire[]> {
  if (ids?.length === 0) return [];
  let query = db.selectFrom('intervals').selectAll().where('fleet_id', '=', fleetId);
  if (ids) query = query.where('id', 'in', ids);
  const rows = (await query.execute()).sort(byName);
  if (rows.length === 0) return [];
  const intervalIds = rows.map((r) => r.id);
  const [assignments, lines] = await Promise.all([
    db.selectFrom('assignments').selectAll().where('interval_id', 'in', intervalIds).orderBy('id').execute(),
    db
      .selectFrom('interval_line_items')
      .selectAll()
      .where('interval_id', 'in', intervalIds)
      .orderBy('position')
      .execute(),
  ]);
  return rows.map((r) =>
    intervalToWire(
      r,
      assignments.filter((a) => a.interval_id === r.id),
      lines.filter((l) => l.interval_id === r.id).map(lineToWire),
    ),
  );
}

export interface LineInput {
  n: string;
  t: number;
  q: number | string;
  c: number | string;
}

/** Replaces an interval's line items; names not in the library join it (PRODUCT.md "Intervals"). */
export async function saveLines(
  trx: Db,
  fleetId: number,
  intervalId: number,
  lines: LineInput[],
): Promise<LineItemRow[]> {
  await trx.deleteFrom('interval_line_items').where('interval_id', '=', intervalId).execute();
  if (lines.length === 0) return [];
  const values = lines.map((l, position) => ({
    interval_id: intervalId,
    position,
    name: l.n,
    kind: l.t,
    qty: thousandths(l.q),
    cost: thousandths(l.c),
  }));
  await trx.insertInto('interval_line_items').values(values).execute();
  return ensureLibraryItems(
    trx,
    fleetId,
    values.map((v) => ({ name: v.name, kind: v.kind, cost: v.cost })),
  );
}

export interface ObjectCounters {
  mileage: number;
  engineHours: number;
}

/**
 * The objects of this fleet among `refs`, with the counters a new baseline starts from (units: their
 * total counters; drivers and trailers have none). Refs not in the fleet come back as issues.
 */
export async function fleetObjects(
  db: Db,
  fleetId: number,
  refs: { id: number; t: ObjectType }[],
  field: (i: number) => string,
): Promise<{ counters: Map<string, ObjectCounters>; issues: Issue[] }> {
  const counters = new Map<string, ObjectCounters>();
  for (const t of ['u', 'd', 't'] as const) {
    const ids = [...new Set(refs.filter((r) => r.t === t).map((r) => r.id))];
    if (ids.length === 0) continue;
    if (t === 'u') {
      const rows = await db
        .selectFrom('units')
        .select(['id', 'mileage', 'engine_hours'])
        .where('fleet_id', '=', fleetId)
        .where('id', 'in', ids)
        .execute();
      for (const r of rows) counters.set(`u:${r.id}`, { mileage: r.mileage, engineHours: r.engine_hours });
    } else {
      const rows = await db
        .selectFrom(TABLE[t])
        .select('id')
        .where('fleet_id', '=', fleetId)
        .where('id', 'in', ids)
        .execute();
      for (const r of rows) counters.set(`${t}:${r.id}`, { mileage: 0, engineHours: 0 });
    }
  }
  const issues: Issue[] = [];
  const seen = new Set<string>();
  refs.forEach((r, i) => {
    const key = `${r.t}:${r.id}`;
    if (!counters.has(key)) issues.push({ field: field(i), message: 'No such object in this fleet' });
    else if (seen.has(key)) issues.push({ field: field(i), message: 'Object listed twice' });
    seen.add(key);
  });
  return { counters, issues };
}

export interface Baseline {
  id: number;
  t: ObjectType;
  lcnm?: number;
  lceh?: number;
  ltm?: number;
  cnt?: number;
}

/**
 * Makes the interval's assignments exactly `wanted`. Assignments that stay keep their row (and id, so
 * open services keep their assignment_id), with the baselines given; new ones start from the
 * object's counters and today (PRODUCT.md "Intervals"). Returns the ids kept or made and the ids removed.
 */
export async function syncAssignments(
  trx: Db,
  fleetId: number,
  intervalId: number,
  wanted: Baseline[],
  counters: Map<string, ObjectCounters>,
  today: number,
): Promise<{ ids: number[]; removed: number[] }> {
  const current = await trx
    .selectFrom('assignments')
    .selectAll()
    .where('interval_id', '=', intervalId)
    .execute();
  const byKey = new Map(current.map((a) => [`${a.object_type}:${a.object_id}`, a]));
  const keep = new Set<number>();
  const ids: number[] = [];
  const t = now();
  for (const w of wanted) {
    const row = byKey.get(`${w.t}:${w.id}`);
    const given = definedBaseline(w);
    if (row) {
      keep.add(row.id);
      ids.push(row.id);
      if (Object.keys(given).length)
        await trx.updateTable('assignments').set(given).where('id', '=', row.id).execute();
      continue;
    }
    const start = counters.get(`${w.t}:${w.id}`) ?? { mileage: 0, engineHours: 0 };
    const made = await trx
      .insertInto('assignments')
      .values({
        fleet_id: fleetId,
        interval_id: intervalId,
        object_type: w.t,
        object_id: w.id,
        lcnm: start.mileage,
        lceh: start.engineHours,
        ltm: today,
        cnt: 0,
        ...given,
        created_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(made.id);
  }
  const removed = current.filter((a) => !keep.has(a.id)).map((a) => a.id);
  if (removed.length) await trx.deleteFrom('assignments').where('id', 'in', removed).execute();
  return { ids, removed };
}

export function definedBaseline(b: Partial<Pick<AssignmentRow, 'lcnm' | 'lceh' | 'ltm' | 'cnt'>>) {
  const out: Partial<Pick<AssignmentRow, 'lcnm' | 'lceh' | 'ltm' | 'cnt'>> = {};
  if (b.lcnm !== undefined) out.lcnm = b.lcnm;
  if (b.lceh !== undefined) out.lceh = b.lceh;
  if (b.ltm !== undefined) out.ltm = b.ltm;
  if (b.cnt !== undefined) out.cnt = b.cnt;
  return out;
}

/**
 * Due services (not in progress, not archived) of an interval or of some assignments, deleted when the
 * interval or the assignment goes away: nothing would ever close them. In-progress and archived
 * services stay, their interval/assignment set null by the schema. Returns the deleted ids.
 */
export async function dropDueServices(
  trx: Db,
  fleetId: number,
  scope: { intervalId?: number; assignmentIds?: number[] },
): Promise<number[]> {
  if (scope.assignmentIds?.length === 0) return [];
  let query = trx.selectFrom('services').select(['id', 'f']).where('fleet_id', '=', fleetId);
  if (scope.intervalId !== undefined) query = query.where('interval_id', '=', scope.intervalId);
  if (scope.assignmentIds) query = query.where('assignment_id', 'in', scope.assignmentIds);
  const open = ServiceFlag.inProgress | ServiceFlag.closed | ServiceFlag.rejected;
  const ids = (await query.execute()).filter((s) => (s.f & open) === 0).map((s) => s.id);
  if (ids.length === 0) return [];
  // Parts their lines took go back to stock (modules/parts).
  await releaseServiceParts(trx, { fleetId, by: null, at: now() }, ids);
  await trx
    .deleteFrom('attachments')
    .where('owner_type', '=', 'service')
    .where('owner_id', 'in', ids)
    .execute();
  await trx.deleteFrom('services').where('id', 'in', ids).execute();
  return ids;
}

/**
 * Removes the assignments of objects leaving the fleet (PRODUCT.md "Service objects and counters") and,
 * as for any removed assignment, their Due services. Returns the intervals whose lists changed and the
 * deleted services.
 */
export async function dropAssignments(trx: Db, fleetId: number, type: ObjectType, objectIds: number[]) {
  const rows = await trx
    .selectFrom('assignments')
    .select(['id', 'interval_id'])
    .where('fleet_id', '=', fleetId)
    .where('object_type', '=', type)
    .where('object_id', 'in', objectIds)
    .execute();
  if (rows.length === 0) return { intervalIds: [], serviceIds: [] };
  const assignmentIds = rows.map((r) => r.id);
  const serviceIds = await dropDueServices(trx, fleetId, { assignmentIds });
  await trx.deleteFrom('assignments').where('id', 'in', assignmentIds).execute();
  return { intervalIds: rows.map((r) => r.interval_id), serviceIds };
}
