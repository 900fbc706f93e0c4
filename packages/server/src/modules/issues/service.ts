import {
  type IssueCreateInput,
  type IssueListQuery,
  type IssueListReply,
  type IssueSummaryReply,
  type IssueUpdateInput,
  type IssueWire,
  issueSearchText,
  type NewDomainEvent,
  priorityOfRank,
  priorityRank,
} from '@fleetkeep/core';
import { sql } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { reachableUnits, reaches, requireReach } from '../../auth/reach.js';
import { type AppContext, now } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { invalidInput, notFound } from '../../http/errors.js';
import { changedFixedFields } from '../../http/fixed-fields.js';
import { ISSUE_ATTACHMENT_OWNER, issueWireById, issueWires, loadIssue } from './load.js';
import { emitIssue, issueObject, issueSubject, openIssue } from './open.js';
import { changeIssueStatus } from './status.js';

/**
 * Issues of units and trailers (docs/product.md "Issues"). Reading and reporting need `issue.report`,
 * changing, the status actions and deleting `issue.manage`. Every query filters on the fleet: another
 * fleet's issue is not found (404).
 */

/** `like` pattern of a search: the words as typed, lower case, `%` `_` `\` taken literally. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listIssues(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  q: IssueListQuery,
): Promise<IssueListReply> {
  const access = await requireFleet(ctx, actor, fleetId, 'issue.report');
  if (q.object_id !== undefined && q.object_type === undefined)
    throw invalidInput([{ field: 'querystring.object_type', message: 'Required with object_id' }]);
  let query = ctx.db.kysely.selectFrom('issues').where('fleet_id', '=', fleetId);
  // An "assigned units only" member (a driver) sees the issues of the units assigned to them now.
  const reach = await reachableUnits(ctx, actor, access);
  if (reach !== null)
    query = query.where('object_type', '=', 'u').where('object_id', 'in', reach.length ? reach : [0]);
  if (q.status?.length) query = query.where('status', 'in', q.status);
  if (q.priority?.length) query = query.where('priority', 'in', q.priority.map(priorityRank));
  if (q.object_type !== undefined) query = query.where('object_type', '=', q.object_type);
  if (q.object_id !== undefined) query = query.where('object_id', '=', q.object_id);
  if (q.search)
    query = query.where(sql<boolean>`${sql.ref('search')} like ${likePattern(q.search)} escape '\\'`);
  const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let rows = query.selectAll();
  switch (q.sort ?? 'reported') {
    case 'priority':
      rows = rows.orderBy('priority', 'desc').orderBy('reported_at', 'desc');
      break;
    case 'updated':
      rows = rows.orderBy('updated_at', 'desc');
      break;
    default:
      rows = rows.orderBy('reported_at', 'desc');
  }
  const page = await rows
    .orderBy('id', 'desc')
    .limit(q.limit ?? 10_000)
    .offset(q.offset ?? 0)
    .execute();
  return { issues: await issueWires(ctx.db.kysely, fleetId, page), total: Number(n) };
}

export async function getIssue(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
): Promise<IssueWire> {
  const access = await requireFleet(ctx, actor, fleetId, 'issue.report');
  const issue = await issueWireById(ctx.db.kysely, fleetId, id);
  const reach = await reachableUnits(ctx, actor, access);
  if (reach !== null && (issue.object_type !== 'u' || !reaches(reach, issue.object_id)))
    throw notFound('Issue not found');
  return issue;
}

/** POST .../issues: reported by the caller, now unless `reported_at` says when. */
export async function createIssue(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: IssueCreateInput,
): Promise<IssueWire> {
  const access = await requireFleet(ctx, actor, fleetId, 'issue.report');
  await requireReach(ctx, actor, access, input.object_type === 'u' ? 'units' : 'trailers', input.object_id);
  const id = await unitOfWork(ctx, (_trx, work) =>
    openIssue(work, ctx, {
      fleetId,
      objectType: input.object_type,
      objectId: input.object_id,
      title: input.title,
      description: input.description,
      priority: input.priority ?? 'medium',
      reportedBy: actor.userId,
      reportedAt: input.reported_at,
      mileage: input.mileage,
      engineHours: input.engine_hours,
    }),
  );
  return issueWireById(ctx.db.kysely, fleetId, id);
}

/** PUT .../issues/{id}: the fields sent; the status only through the actions (a different one: 400). */
export async function updateIssue(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  patch: IssueUpdateInput,
): Promise<IssueWire> {
  await requireFleet(ctx, actor, fleetId, 'issue.manage');
  await unitOfWork(ctx, async (trx, work) => {
    const row = await loadIssue(trx, fleetId, id);
    const fixed = changedFixedFields(patch, { status: row.status });
    if (fixed.length) throw invalidInput(fixed);
    const objectType = patch.object_type ?? (row.object_type as 'u' | 't');
    const objectId = patch.object_id ?? row.object_id;
    const moved = objectType !== row.object_type || objectId !== row.object_id;
    if (moved) await issueObject(trx, fleetId, objectType, objectId);
    if (patch.reported_at !== undefined && patch.reported_at > now() + 60)
      throw invalidInput([{ field: 'body.reported_at', message: 'Cannot be in the future' }]);
    const title = patch.title ?? row.title;
    const description = patch.description ?? row.description;
    const set = {
      object_type: objectType,
      object_id: objectId,
      title,
      description,
      search: issueSearchText(title, description),
      ...(patch.priority !== undefined && { priority: priorityRank(patch.priority) }),
      ...(patch.reported_at !== undefined && { reported_at: patch.reported_at }),
      ...(patch.mileage !== undefined && { mileage: patch.mileage }),
      ...(patch.engine_hours !== undefined && { engine_hours: patch.engine_hours }),
      updated_at: now(),
    };
    await trx.updateTable('issues').set(set).where('id', '=', id).execute();
    const event: NewDomainEvent = {
      type: 'issue.changed',
      fid: fleetId,
      at: set.updated_at,
      by: actor.userId,
      ...issueSubject({ ...row, ...set }),
      before: issueSubject(row).status,
    };
    await work.record([event]);
    emitIssue(ctx, work, fleetId, id, 'u');
  });
  return issueWireById(ctx.db.kysely, fleetId, id);
}

/** DELETE .../issues/{id}: with its photos. */
export async function deleteIssue(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'issue.manage');
  await unitOfWork(ctx, async (trx, work) => {
    const row = await loadIssue(trx, fleetId, id);
    await trx
      .deleteFrom('attachments')
      .where('fleet_id', '=', fleetId)
      .where('owner_type', '=', ISSUE_ATTACHMENT_OWNER)
      .where('owner_id', '=', id)
      .execute();
    await trx.deleteFrom('issues').where('id', '=', id).execute();
    await work.record([
      { type: 'issue.deleted', fid: fleetId, at: now(), by: actor.userId, ...issueSubject(row) },
    ]);
    emitIssue(ctx, work, fleetId, id, 'd', { t: row.object_type as 'u' | 't', id: row.object_id });
  });
  return { error: 0 as const };
}

/** POST .../issues/{id}/resolve, /close, /reopen (core issues.ts `issueTransition`). */
export async function actOnIssue(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  action: 'resolve' | 'close' | 'reopen',
  note?: string,
): Promise<IssueWire> {
  await requireFleet(ctx, actor, fleetId, 'issue.manage');
  await unitOfWork(ctx, (_trx, work) =>
    changeIssueStatus(work, ctx, { fleetId, issueId: id, action, by: actor.userId, note }),
  );
  return issueWireById(ctx.db.kysely, fleetId, id);
}

/** GET .../issues/summary: the active issues by status and priority (dashboard.view). */
export async function issueSummary(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
): Promise<IssueSummaryReply> {
  await requireFleet(ctx, actor, fleetId, 'dashboard.view');
  const rows = await ctx.db.kysely
    .selectFrom('issues')
    .select(['status', 'priority', (eb) => eb.fn.countAll<number>().as('n')])
    .where('fleet_id', '=', fleetId)
    .where('status', 'in', ['open', 'workorder'])
    .groupBy(['status', 'priority'])
    .execute();
  const zero = () => ({ low: 0, medium: 0, high: 0, critical: 0 });
  const out = { open: zero(), workorder: zero() };
  for (const r of rows) out[r.status as 'open' | 'workorder'][priorityOfRank(r.priority)] = Number(r.n);
  return out;
}
