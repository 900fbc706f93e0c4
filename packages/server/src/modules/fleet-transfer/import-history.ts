import { type NewDomainEvent, serviceWriteChanges, type TransferService } from '@fleetkeep/core';
import { sql } from 'kysely';
import { serviceEvents } from '../../events/domain.js';
import { recordDomainEvents } from '../../events/outbox.js';
import { figuresOf } from '../fuel/rules.js';
import { ensureLibraryItems } from '../lineitems/library.js';
import { syncIns } from '../services/effects.js';
import { type ObjectKey, objectKey } from '../services/load.js';
import { applyCostDelta, fuelContribution, trackServices } from '../statistics/cost-days.js';
import { cfOut, type Doc, objectOf, type Run } from './run.js';

/**
 * The import's history (import.ts): services, the archive and fuel fillings are always added. An open
 * service whose assignment is a matched one that already has an open service is skipped (one open
 * service per assignment, spec §4). The writers' bookkeeping follows the existing writers:
 * `service.created`/`fuel.created` domain events (events/domain.ts, outbox), the daily cost aggregates
 * (statistics/cost-days.ts), the in-progress markers (services/effects.ts `syncIns`), new library names.
 */

export async function importHistory(run: Run, doc: Doc, matchedAssignments: Set<number>) {
  const { trx, fleet, actor, t } = run;
  const fid = fleet.id;
  const busy = matchedAssignments.size
    ? new Set(
        (
          await trx
            .selectFrom('services')
            .select('assignment_id')
            .where('fleet_id', '=', fid)
            .where('assignment_id', 'in', [...matchedAssignments])
            .where(sql<number>`(${sql.ref('f')} & 24)`, '=', 0)
            .execute()
        ).map((r) => r.assignment_id),
      )
    : new Set<number | null>();
  const costs = await trackServices(trx, []);
  const events: NewDomainEvent[] = [];
  const owners = new Set<ObjectKey>();
  const libraryNames: { name: string; kind: number; cost: number }[] = [];
  const insertFiles = async (owner: string, ownerId: number, files: TransferService['attachments']) => {
    for (const f of files) {
      const data = Buffer.from(f.data, 'base64');
      await trx
        .insertInto('attachments')
        .values({
          fleet_id: fid,
          owner_type: owner,
          owner_id: ownerId,
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
  };
  for (const key of ['services', 'archive'] as const) {
    for (const s of doc[key]) {
      const assignment = s.assignment_id === null ? null : run.maps.assignments.get(s.assignment_id)!;
      if (key === 'services' && assignment !== null && busy.has(assignment)) {
        run.skipped.services++;
        continue;
      }
      if (key === 'services' && assignment !== null) busy.add(assignment);
      const object = objectOf(run, s.object_type, s.object_id);
      const { id: _id, li, attachments, cf, ...rest } = s;
      const row = {
        ...rest,
        fleet_id: fid,
        object_id: object,
        interval_id: s.interval_id === null ? null : run.maps.intervals.get(s.interval_id)!,
        assignment_id: assignment,
        creator_id: actor.userId,
        cf: cfOut(run, cf),
      };
      const { id } = await trx.insertInto('services').values(row).returning('id').executeTakeFirstOrThrow();
      // Domain event "service created", as the services writer records it (events/domain.ts).
      events.push(...serviceEvents(serviceWriteChanges(null, row.f), { id, ...row }, t, actor.userId));
      if (li.length) {
        await trx
          .insertInto('service_line_items')
          .values(li.map((l, position) => ({ service_id: id, position, ...l })))
          .execute();
        libraryNames.push(...li.map((l) => ({ name: l.name, kind: l.kind, cost: l.cost })));
      }
      await insertFiles('service', id, attachments);
      costs.add(id);
      owners.add(objectKey(s.object_type, object));
      run.created[key]++;
      run.maps.services.set(s.id, id);
      run.published.services.push(id);
    }
  }
  await costs.done(); // statistics: closed services add to the daily cost aggregates

  const contributions = [];
  for (const f of doc.fuel_fillings) {
    const { id: _id, attachments, cf, ...rest } = f;
    const row = {
      ...rest,
      fleet_id: fid,
      unit_id: run.maps.units.get(f.unit_id)!,
      cf: cfOut(run, cf),
      creator_id: actor.userId,
    };
    const { id } = await trx
      .insertInto('fuel_fillings')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    events.push({ type: 'fuel.created', fid, at: t, by: actor.userId, fillingId: id, ...figuresOf(row) });
    contributions.push(fuelContribution(fid, fleet.tz, figuresOf(row)));
    await insertFiles('fuel', id, attachments);
    if (row.fuel_type.trim()) libraryNames.push({ name: row.fuel_type, kind: 4, cost: row.price ?? 0 });
    run.created.fuel_fillings++;
    run.published.fuel.push(id);
  }
  await applyCostDelta(trx, null, contributions); // statistics
  await recordDomainEvents(trx, events); // in the import's transaction (events/outbox.ts)

  // Names of line items and fuel types that the library lacks join it, as the writers do.
  const more = await ensureLibraryItems(trx, fid, libraryNames);
  run.published.library.push(...more);
  run.created.line_items += more.length;

  run.published.owners = await syncIns(trx, run.ctx.db.ops, fid, owners);
}
