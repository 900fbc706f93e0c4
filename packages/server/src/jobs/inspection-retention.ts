import { DomainEventType, type NewDomainEvent, retentionCutoff } from '@fleetkeep/core';
import { type AppContext, now } from '../context.js';
import { unitOfWork } from '../events/unit-of-work.js';
import { deleteImages } from '../modules/inspections/images.js';

/** Inspections deleted per fleet and run at most (the next run takes the rest). */
export const INSPECTION_PRUNE_BATCH = 500;

/**
 * Deletes each fleet's inspections submitted before its retention (fleet setting
 * `inspection_retention_months`, at least three months; docs/product.md "Inspections"), with their
 * defects and images, one unit of work per fleet recording `inspection.deleted` (reason retention).
 * Idempotent, so several instances may run it. Returns how many were deleted.
 */
export async function pruneInspections(ctx: AppContext, at: number = now()): Promise<number> {
  const fleets = await ctx.db.kysely
    .selectFrom('fleets')
    .select(['id', 'inspection_retention_months'])
    .execute();
  let deleted = 0;
  for (const fleet of fleets) {
    const cutoff = retentionCutoff(at, fleet.inspection_retention_months);
    const old = await ctx.db.kysely
      .selectFrom('inspections')
      .select(['id', 'object_type', 'object_id'])
      .where('fleet_id', '=', fleet.id)
      .where('submitted_at', '<', cutoff)
      .orderBy('id')
      .limit(INSPECTION_PRUNE_BATCH)
      .execute();
    if (old.length === 0) continue;
    const ids = old.map((r) => r.id);
    await unitOfWork(ctx, async (trx, uow) => {
      await deleteImages(trx, fleet.id, ids);
      await trx.deleteFrom('inspection_defects').where('inspection_id', 'in', ids).execute();
      await trx.deleteFrom('inspections').where('id', 'in', ids).where('fleet_id', '=', fleet.id).execute();
      await uow.record(
        old.map(
          (r): NewDomainEvent => ({
            type: DomainEventType.inspectionDeleted,
            fid: fleet.id,
            at,
            by: null,
            inspectionId: r.id,
            objectType: r.object_type as 'u' | 't',
            objectId: r.object_id,
            reason: 'retention',
          }),
        ),
      );
      uow.emit({ t: 'd', s: 'inspection', fid: fleet.id, d: { ids } });
    });
    deleted += ids.length;
  }
  return deleted;
}
