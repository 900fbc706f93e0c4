import type { InspectionListQuery } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { inspectionToWire, objectNamesOf, peopleOf, rowToWire } from './mappers.js';

/** Reads of inspections: one with everything, or a list newest first. */

export async function loadInspection(db: Kysely<Database>, fleetId: number, id: number) {
  const row = await db
    .selectFrom('inspections')
    .selectAll()
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!row) throw notFound('Inspection not found');
  return row;
}

async function defectsOfRows(db: Kysely<Database>, fleetId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('inspection_defects')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('inspection_id', 'in', ids)
    .orderBy('item')
    .execute();
}

export async function readInspection(db: Kysely<Database>, fleetId: number, id: number) {
  const row = await loadInspection(db, fleetId, id);
  const defects = await defectsOfRows(db, fleetId, [id]);
  const people = await peopleOf(db, [row.submitter_id, row.ack_by, ...defects.map((d) => d.cert_by)]);
  const objects = await objectNamesOf(db, fleetId, [row]);
  return inspectionToWire(row, { people, objects, defects });
}

export const LIST_DEFAULT = 200;

/** `reach`: the units an "assigned units only" member reaches (auth/reach.ts), null for all. */
export async function listRows(
  db: Kysely<Database>,
  fleetId: number,
  q: InspectionListQuery,
  reach: readonly number[] | null = null,
) {
  let query = db.selectFrom('inspections').selectAll().where('fleet_id', '=', fleetId);
  if (reach !== null)
    query = query.where('object_type', '=', 'u').where('object_id', 'in', reach.length ? [...reach] : [0]);
  if (q.ot) query = query.where('object_type', '=', q.ot);
  if (q.oi) query = query.where('object_id', '=', q.oi);
  if (q.d === '1') query = query.where('defects', '>', 0);
  if (q.since !== undefined) query = query.where('submitted_at', '>=', q.since);
  const rows = await query
    .orderBy('submitted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.lim ?? LIST_DEFAULT)
    .execute();
  const defects = await defectsOfRows(
    db,
    fleetId,
    rows.filter((r) => r.defects > 0).map((r) => r.id),
  );
  const people = await peopleOf(
    db,
    rows.flatMap((r) => [r.submitter_id, r.ack_by]),
  );
  const objects = await objectNamesOf(db, fleetId, rows);
  return { rows, defects, people, objects };
}

export async function listInspectionRows(
  db: Kysely<Database>,
  fleetId: number,
  q: InspectionListQuery,
  reach: readonly number[] | null = null,
) {
  const { rows, ...c } = await listRows(db, fleetId, q, reach);
  return rows.map((r) => rowToWire(r, c));
}
