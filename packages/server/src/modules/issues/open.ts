import {
  type IssuePriority,
  type IssueStatus,
  issueSearchText,
  type NewDomainEvent,
  priorityOfRank,
  priorityRank,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { type AppContext, now } from '../../context.js';
import type { Database, IssueRow } from '../../db/schema.js';
import type { UnitOfWork } from '../../events/unit-of-work.js';
import { invalidInput, notFound } from '../../http/errors.js';
import { issueWires } from './load.js';

/**
 * Opening an issue inside a caller's unit of work (docs/product.md "Issues"): the POST route, the
 * import, and the inspections module (a failed item opens one) all write it here, so the row, its
 * domain event and its live event are made one way. The caller's transaction holds them; the live
 * event is published after its commit.
 */

export interface OpenIssueInput {
  fleetId: number;
  objectType: 'u' | 't';
  objectId: number;
  title: string;
  description?: string | undefined;
  priority: IssuePriority;
  /** The user who reported it (null for none). */
  reportedBy: number | null;
  /** Unix seconds; now when absent. */
  reportedAt?: number | undefined;
  /** km and hours at the report; the unit's counters when absent (undefined), none when null. */
  mileage?: number | null | undefined;
  engineHours?: number | null | undefined;
  inspectionId?: number | null | undefined;
  inspectionItem?: string | null | undefined;
}

/** The object of the fleet, with its counters (a trailer has none); 404 when it is not in the fleet. */
export async function issueObject(
  db: Kysely<Database>,
  fleetId: number,
  type: 'u' | 't',
  id: number,
): Promise<{ mileage: number | null; engineHours: number | null }> {
  if (type === 'u') {
    const unit = await db
      .selectFrom('units')
      .select(['mileage', 'engine_hours'])
      .where('id', '=', id)
      .where('fleet_id', '=', fleetId)
      .executeTakeFirst();
    if (!unit) throw notFound('Unit not found');
    return { mileage: Number(unit.mileage), engineHours: Number(unit.engine_hours) };
  }
  const trailer = await db
    .selectFrom('trailers')
    .select('id')
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!trailer) throw notFound('Trailer not found');
  return { mileage: null, engineHours: null };
}

/** The subject of the issue's domain events, as it is in `row`. */
export const issueSubject = (
  row: Pick<IssueRow, 'id' | 'object_type' | 'object_id' | 'priority' | 'status'>,
) => ({
  issueId: row.id,
  objectType: row.object_type as 'u' | 't',
  objectId: row.object_id,
  priority: priorityOfRank(row.priority),
  status: row.status as IssueStatus,
});

/** Queues the live event of the issue (created, updated or deleted; the unit of work's `emitRecord`). */
export function emitIssue(
  ctx: AppContext,
  work: UnitOfWork,
  fleetId: number,
  id: number,
  t: 'c' | 'u' | 'd',
) {
  work.emitRecord('issue', fleetId, id, t, async () => {
    const row = await ctx.db.kysely
      .selectFrom('issues')
      .selectAll()
      .where('fleet_id', '=', fleetId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? (await issueWires(ctx.db.kysely, fleetId, [row]))[0] : undefined;
  });
}

/**
 * Opens an issue in `work`'s transaction and records `issue.reported`; returns its id. Throws 404 when
 * the object is not in the fleet and 400 for a report time in the future.
 */
export async function openIssue(work: UnitOfWork, ctx: AppContext, input: OpenIssueInput): Promise<number> {
  const at = now();
  const reportedAt = input.reportedAt ?? at;
  if (reportedAt > at + 60)
    throw invalidInput([{ field: 'body.reported_at', message: 'Cannot be in the future' }]);
  const counters = await issueObject(work.trx, input.fleetId, input.objectType, input.objectId);
  const description = input.description ?? '';
  const row = {
    fleet_id: input.fleetId,
    object_type: input.objectType,
    object_id: input.objectId,
    title: input.title,
    description,
    priority: priorityRank(input.priority),
    status: 'open',
    note: '',
    reported_by: input.reportedBy,
    reported_at: reportedAt,
    mileage: input.mileage === undefined ? counters.mileage : input.mileage,
    engine_hours: input.engineHours === undefined ? counters.engineHours : input.engineHours,
    work_order_id: null,
    inspection_id: input.inspectionId ?? null,
    inspection_item: input.inspectionItem ?? null,
    ended_at: null,
    ended_by: null,
    search: issueSearchText(input.title, description),
    created_at: at,
    updated_at: at,
  };
  const { id } = await work.trx.insertInto('issues').values(row).returning('id').executeTakeFirstOrThrow();
  const event: NewDomainEvent = {
    type: 'issue.reported',
    fid: input.fleetId,
    at,
    by: input.reportedBy,
    ...issueSubject({ ...row, id }),
    inspectionId: row.inspection_id,
  };
  await work.record([event]);
  emitIssue(ctx, work, input.fleetId, id, 'c');
  return id;
}
