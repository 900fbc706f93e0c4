import { issueSearchText, type NewDomainEvent, priorityOfRank } from '@fleetkeep/core';
import { recordDomainEvents } from '../../events/outbox.js';
import { group, pages } from './pages.js';
import type { FileMeta, Source, WithFiles } from './readers.js';
import { type Doc, membersByName, objectOf, type Run } from './run.js';

/**
 * The issues of the fleet export (version 5, docs/product.md "Issues"): read page by page with their
 * photos, and added by the import with their photos, reporters mapped by login to the target fleet's
 * members (else the importing user). Each imported issue records `issue.reported`, as reporting does.
 */

export type IssueRecord = Omit<Doc['issues'][number], 'attachments'>;
const OWNER = 'issue';

export function issuePages({ db, fid, cut }: Source): AsyncGenerator<WithFiles<IssueRecord>[]> {
  const src = pages('issues', (after, limit) =>
    db
      .selectFrom('issues')
      .leftJoin('users as r', 'r.id', 'issues.reported_by')
      .leftJoin('users as e', 'e.id', 'issues.ended_by')
      .selectAll('issues')
      .select(['r.name as reporter', 'e.name as ender'])
      .where('issues.fleet_id', '=', fid)
      .where('issues.id', '>', after)
      .where('issues.id', '<=', cut.issues)
      .orderBy('issues.id')
      .limit(limit)
      .execute(),
  );
  return (async function* () {
    for await (const rows of src) {
      const files = await db
        .selectFrom('attachments')
        .select(['id', 'owner_id', 'name', 'content_type', 'created_at'])
        .where('fleet_id', '=', fid)
        .where('owner_type', '=', OWNER)
        .where(
          'owner_id',
          'in',
          rows.map((r) => r.id),
        )
        .where('id', '<=', cut.attachments)
        .orderBy('id')
        .execute();
      const byOwner = group(files, (f) => f.owner_id);
      yield rows.map((r) => ({
        record: {
          id: r.id,
          object_type: r.object_type as 'u' | 't',
          object_id: r.object_id,
          title: r.title,
          description: r.description,
          priority: r.priority,
          status: r.status as IssueRecord['status'],
          note: r.note,
          reported_by: r.reporter,
          reported_at: Number(r.reported_at),
          mileage: r.mileage === null ? null : Number(r.mileage),
          engine_hours: r.engine_hours === null ? null : Number(r.engine_hours),
          inspection_item: r.inspection_item,
          ended_at: r.ended_at === null ? null : Number(r.ended_at),
          ended_by: r.ender,
          created_at: Number(r.created_at),
          updated_at: Number(r.updated_at),
        },
        files: (byOwner.get(r.id) ?? []) as FileMeta[],
      }));
    }
  })();
}

/** Adds the document's issues to the target fleet (their objects already mapped). */
export async function importIssues(run: Run, doc: Doc): Promise<void> {
  if (doc.issues.length === 0) return;
  const { trx, fleet, actor } = run;
  const members = await membersByName(run);
  const userOf = (name: string | null) => (name === null ? null : (members.get(name) ?? actor.userId));
  const events: NewDomainEvent[] = [];
  const t = run.t;
  for (const i of doc.issues) {
    const { id: _id, attachments, reported_by, ended_by, ...rest } = i;
    // "In a work order" needs the work order, which the document does not carry: open again.
    const status = rest.status === 'workorder' ? 'open' : rest.status;
    const row = {
      ...rest,
      status,
      fleet_id: fleet.id,
      object_id: objectOf(run, i.object_type, i.object_id),
      reported_by: userOf(reported_by),
      ended_by: userOf(ended_by),
      work_order_id: null,
      inspection_id: null,
      search: issueSearchText(rest.title, rest.description),
    };
    const { id } = await trx.insertInto('issues').values(row).returning('id').executeTakeFirstOrThrow();
    run.maps.issues.set(i.id, id);
    for (const f of attachments) {
      const data = Buffer.from(f.data, 'base64');
      await trx
        .insertInto('attachments')
        .values({
          fleet_id: fleet.id,
          owner_type: OWNER,
          owner_id: id,
          name: f.name,
          content_type: f.content_type,
          size: data.length,
          data,
          created_at: f.created_at,
          creator_id: actor.userId,
        })
        .execute();
      run.created.attachments++;
    }
    events.push({
      type: 'issue.reported',
      fid: fleet.id,
      at: t,
      by: actor.userId,
      issueId: id,
      objectType: i.object_type,
      objectId: row.object_id,
      priority: priorityOfRank(i.priority),
      status,
      inspectionId: null,
    });
    run.created.issues++;
  }
  await recordDomainEvents(trx, events); // in the import's transaction (events/outbox.ts)
}
