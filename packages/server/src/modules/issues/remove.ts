import type { NewDomainEvent } from '@fleetkeep/core';
import { now } from '../../context.js';
import type { UnitOfWork } from '../../events/unit-of-work.js';
import { ISSUE_ATTACHMENT_OWNER } from './load.js';
import { issueSubject } from './open.js';

/**
 * A unit or trailer that is deleted takes its issues and their photos along (docs/product.md "Issues"),
 * in the deletion's unit of work: an issue of no object would be nobody's to fix. Each records
 * `issue.deleted`; the lists hear it live.
 */
export async function removeObjectIssues(
  work: UnitOfWork,
  fleetId: number,
  type: 'u' | 'd' | 't',
  objectId: number,
  by: number | null,
): Promise<void> {
  if (type === 'd') return;
  const rows = await work.trx
    .selectFrom('issues')
    .select(['id', 'object_type', 'object_id', 'priority', 'status'])
    .where('fleet_id', '=', fleetId)
    .where('object_type', '=', type)
    .where('object_id', '=', objectId)
    .execute();
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  await work.trx
    .deleteFrom('attachments')
    .where('fleet_id', '=', fleetId)
    .where('owner_type', '=', ISSUE_ATTACHMENT_OWNER)
    .where('owner_id', 'in', ids)
    .execute();
  await work.trx.deleteFrom('issues').where('id', 'in', ids).execute();
  const at = now();
  const events: NewDomainEvent[] = rows.map((r) => ({
    type: 'issue.deleted',
    fid: fleetId,
    at,
    by,
    ...issueSubject(r),
  }));
  await work.record(events);
  work.emit(...ids.map((id) => ({ t: 'd', s: 'issue', fid: fleetId, d: { id } }) as const));
}
