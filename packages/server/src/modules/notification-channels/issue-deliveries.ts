import { type IssueReportedEvent, NotificationKind, notifiesAtOnce } from '@fleetkeep/core';
import { type ChannelKind, oneByOne } from './deliveries.js';

/**
 * "Issue reported" on the channels (kind 64, docs/product.md "Issues"): high and critical issues only
 * (core `notifiesAtOnce`). The unit or trailer is the object; there is no service. An issue deleted
 * before its event was handled says nothing.
 */
export const issueReportedKind: ChannelKind<IssueReportedEvent> = {
  kindOf: (event) => (notifiesAtOnce(event.priority) ? NotificationKind.issueReported : null),
  describe: oneByOne(async (db, { event }) => {
    const issue = await db
      .selectFrom('issues')
      .leftJoin('users', 'users.id', 'issues.reported_by')
      .select(['issues.id', 'issues.title', 'issues.description', 'users.name', 'users.full_name'])
      .where('issues.id', '=', event.issueId)
      .where('issues.fleet_id', '=', event.fid)
      .executeTakeFirst();
    if (!issue) return undefined;
    const object = await db
      .selectFrom(event.objectType === 'u' ? 'units' : 'trailers')
      .select('name')
      .where('id', '=', event.objectId)
      .executeTakeFirst();
    return {
      object: { type: event.objectType, id: event.objectId, name: object?.name ?? '' },
      issue: {
        id: issue.id,
        title: issue.title,
        description: issue.description,
        priority: event.priority,
        reporter: issue.full_name || issue.name || '',
      },
    };
  }),
};
