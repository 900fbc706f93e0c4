import { aclSatisfies, ISSUE_ATTACHMENT_BYTES_MAX, ISSUE_ATTACHMENTS_MAX } from '@fleetkeep/core';
import { type FleetAccess, requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { reachableUnits, reaches } from '../../auth/reach.js';
import type { AppContext } from '../../context.js';
import type { IssueRow } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { accessDenied, notFound } from '../../http/errors.js';
import { attachmentStore } from '../attachments/store.js';
import { ISSUE_ATTACHMENT_OWNER, loadIssue } from './load.js';
import { emitIssue } from './open.js';

/**
 * Photos of issues (docs/product.md "Issues"): the shared store (modules/attachments/store.ts) with
 * owner_type 'issue' and the caps of service attachments (20 files, 32 MB per issue, error 2 beyond).
 * Managers of issues add them to any issue; a reporter adds them to their own issue while it is open
 * (the report dialog uploads its photos right after the report). A member limited to assigned units
 * (auth/reach.ts) sees and adds photos of the issues of those units only; others answer 404.
 */
/** 404 for an issue of a unit outside the caller's reach (auth/reach.ts), as for an unknown one. */
async function requireIssueReach(ctx: AppContext, actor: Actor, access: FleetAccess, row: IssueRow) {
  const reach = await reachableUnits(ctx, actor, access);
  if (reach !== null && (row.object_type !== 'u' || !reaches(reach, row.object_id)))
    throw notFound('Issue not found');
}

export const issueAttachments = attachmentStore({
  type: ISSUE_ATTACHMENT_OWNER,
  noun: 'issue',
  maxFiles: ISSUE_ATTACHMENTS_MAX,
  maxBytes: ISSUE_ATTACHMENT_BYTES_MAX,
  view: 'issue.report',
  load: loadIssue,
  async visible(ctx, actor, access, issueId) {
    await requireIssueReach(ctx, actor, access, await loadIssue(ctx.db.kysely, access.fleet.id, issueId));
  },
  async editable(ctx, actor, fleetId, issueId) {
    const access = await requireFleet(ctx, actor, fleetId, 'issue.report');
    const { acl } = access;
    const row = await loadIssue(ctx.db.kysely, fleetId, issueId);
    await requireIssueReach(ctx, actor, access, row);
    const own = row.reported_by === actor.userId && row.status === 'open';
    if (!own && !aclSatisfies(acl, 'issue.manage')) throw accessDenied();
    // The issue's live event after commit (its photo count).
    return async (write) =>
      unitOfWork(ctx, async (trx, work) => {
        const done = await write(trx);
        emitIssue(ctx, work, fleetId, issueId, 'u');
        return done;
      });
  },
  async lock(ctx, trx, fleetId, issueId) {
    const locked = await ctx.db.ops
      .forUpdate(
        trx.selectFrom('issues').select('id').where('id', '=', issueId).where('fleet_id', '=', fleetId),
      )
      .executeTakeFirst();
    if (!locked) throw notFound('Issue not found');
  },
});
