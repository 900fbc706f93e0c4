import { type IssuePriority, type IssueStatus, type IssueWire, priorityOfRank } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { chunks, namesOf } from '../../db/lookups.js';
import type { Database, IssueRow } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';

/**
 * Issues as read (docs/product.md "Issues"): rows to wires with the object's name, the reporter's and
 * the ender's names and the photo count, each looked up once per batch of rows.
 */

/** The attachments' owner type of issues in the generic table (photos). */
export const ISSUE_ATTACHMENT_OWNER = 'issue';

/** The issue of the fleet; one of another fleet answers like a missing one (404). */
export async function loadIssue(db: Kysely<Database>, fleetId: number, id: number): Promise<IssueRow> {
  const row = await db
    .selectFrom('issues')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Issue not found');
  return row;
}

async function photoCounts(db: Kysely<Database>, fleetId: number, ids: number[]) {
  const out = new Map<number, number>();
  for (const part of chunks(ids))
    for (const r of await db
      .selectFrom('attachments')
      .select(['owner_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('fleet_id', '=', fleetId)
      .where('owner_type', '=', ISSUE_ATTACHMENT_OWNER)
      .where('owner_id', 'in', part)
      .groupBy('owner_id')
      .execute())
      out.set(r.owner_id, Number(r.n));
  return out;
}

const num = (v: number | null) => (v === null ? null : Number(v));

/** Rows of one fleet to wires, in their order. */
export async function issueWires(
  db: Kysely<Database>,
  fleetId: number,
  rows: IssueRow[],
): Promise<IssueWire[]> {
  if (rows.length === 0) return [];
  const units = await namesOf(
    db,
    'units',
    rows.filter((r) => r.object_type === 'u').map((r) => r.object_id),
  );
  const trailers = await namesOf(
    db,
    'trailers',
    rows.filter((r) => r.object_type === 't').map((r) => r.object_id),
  );
  const people = await namesOf(
    db,
    'users',
    rows.flatMap((r) => [r.reported_by, r.ended_by]).filter((v): v is number => v !== null),
  );
  const photos = await photoCounts(
    db,
    fleetId,
    rows.map((r) => r.id),
  );
  const person = (id: number | null) => (id === null ? null : { id, nm: people.get(id) ?? '' });
  return rows.map((r) => ({
    id: r.id,
    object_type: r.object_type as 'u' | 't',
    object_id: r.object_id,
    object_name: (r.object_type === 'u' ? units : trailers).get(r.object_id) ?? '',
    title: r.title,
    description: r.description,
    priority: priorityOfRank(r.priority) as IssuePriority,
    status: r.status as IssueStatus,
    note: r.note,
    reported_by: person(r.reported_by),
    reported_at: Number(r.reported_at),
    mileage: num(r.mileage),
    engine_hours: num(r.engine_hours),
    work_order_id: r.work_order_id,
    inspection_id: r.inspection_id,
    inspection_item: r.inspection_item,
    ended_at: num(r.ended_at),
    ended_by: person(r.ended_by),
    ats: photos.get(r.id) ?? 0,
    created: Number(r.created_at),
    updated: Number(r.updated_at),
  }));
}

export async function issueWireById(db: Kysely<Database>, fleetId: number, id: number): Promise<IssueWire> {
  return (await issueWires(db, fleetId, [await loadIssue(db, fleetId, id)]))[0]!;
}
