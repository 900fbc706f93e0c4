import {
  DomainEventType,
  type InspectionListQuery,
  type InspectionSettings,
  type InspectionUpdateBody,
  type NewDomainEvent,
  type RecordRefusal,
} from '@fleetkeep/core';
import { holds, requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { reachableUnits, reaches } from '../../auth/reach.js';
import { type AppContext, now } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { accessDenied, conflict, notFound } from '../../http/errors.js';
import { refuseChangedFixed } from '../../http/fixed-fields.js';
import { deleteImages, INSPECTION_OWNER, storeImage } from './images.js';
import { listInspectionRows, loadInspection, readInspection } from './read.js';

/**
 * Inspections after the submit (submit.ts): reading, the locked record's two additions (the
 * certification of defects, the acknowledgement of the report), deletion, the retention setting and
 * the images. docs/product.md "Inspections".
 */

export const ALREADY_CERTIFIED = 'The defect is certified already';
export const NOT_A_DEFECT = 'No such defect of this inspection';
export const ALREADY_ACKNOWLEDGED = 'The report is acknowledged already';

export async function listInspections(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  q: InspectionListQuery,
) {
  const access = await requireFleet(ctx, actor, fleetId, 'inspection.submit');
  // An "assigned units only" member (a driver) sees the inspections of the units assigned to them now.
  const reach = await reachableUnits(ctx, actor, access);
  return { inspections: await listInspectionRows(ctx.db.kysely, fleetId, q, reach) };
}

export async function getInspection(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  const access = await requireFleet(ctx, actor, fleetId, 'inspection.submit');
  const inspection = await readInspection(ctx.db.kysely, fleetId, id);
  const reach = await reachableUnits(ctx, actor, access);
  if (reach !== null && (inspection.ot !== 'u' || !reaches(reach, inspection.oi)))
    throw notFound('Inspection not found');
  return inspection;
}

/**
 * PUT: the record as read is accepted, its stored fields unchanged (400 "Cannot be changed" for any
 * other value: a submitted inspection is locked). `cert` certifies defects (inspection.manage), each
 * once; `ack` acknowledges the report, once.
 */
export async function updateInspection(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  body: InspectionUpdateBody,
) {
  const access = await requireFleet(ctx, actor, fleetId, 'inspection.submit');
  const db = ctx.db.kysely;
  const stored = await readInspection(db, fleetId, id);
  refuseChangedFixed(body, stored);
  const certs = body.cert ?? [];
  if (certs.length && !holds(access, 'inspection.manage')) throw accessDenied();
  const refusals: RecordRefusal[] = [];
  const seen = new Set<number>();
  for (const [row, c] of certs.entries()) {
    const defect = stored.defects.find((d) => d.id === c.id);
    if (!defect || seen.has(c.id))
      refusals.push({ id: c.id, row, field: `body.cert.${row}.id`, reason: NOT_A_DEFECT });
    else if (defect.cert !== null)
      refusals.push({ id: c.id, row, field: `body.cert.${row}.id`, reason: ALREADY_CERTIFIED });
    seen.add(c.id);
  }
  if (refusals.length) throw conflict(refusals[0]!.reason, refusals);
  if (body.ack && stored.ak !== null)
    throw conflict(ALREADY_ACKNOWLEDGED, [{ id, field: 'body.ack', reason: ALREADY_ACKNOWLEDGED }]);
  if (!certs.length && !body.ack) return stored;

  const t = now();
  await unitOfWork(ctx, async (trx, uow) => {
    const events: NewDomainEvent[] = [];
    const subject = { inspectionId: id, objectType: stored.ot, objectId: stored.oi };
    for (const c of certs) {
      const signature = await storeImage(trx, fleetId, id, `certification-${c.id}`, c.sig, actor.userId, t);
      const done = await trx
        .updateTable('inspection_defects')
        .set({
          cert: c.c,
          cert_note: c.n ?? '',
          cert_by: actor.userId,
          cert_at: t,
          cert_signature_id: signature,
        })
        .where('id', '=', c.id)
        .where('inspection_id', '=', id)
        .where('cert_at', 'is', null)
        .executeTakeFirst();
      // Another request certified it between the read and this write.
      if (Number(done.numUpdatedRows) === 0)
        throw conflict(ALREADY_CERTIFIED, [{ id: c.id, field: 'body.cert', reason: ALREADY_CERTIFIED }]);
    }
    if (certs.length)
      events.push({
        type: DomainEventType.inspectionCertified,
        fid: fleetId,
        at: t,
        by: actor.userId,
        ...subject,
        defectIds: certs.map((c) => c.id),
      });
    if (body.ack) {
      const done = await trx
        .updateTable('inspections')
        .set({ ack_by: actor.userId, ack_at: t })
        .where('id', '=', id)
        .where('ack_at', 'is', null)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0)
        throw conflict(ALREADY_ACKNOWLEDGED, [{ id, field: 'body.ack', reason: ALREADY_ACKNOWLEDGED }]);
      events.push({
        type: DomainEventType.inspectionAcknowledged,
        fid: fleetId,
        at: t,
        by: actor.userId,
        ...subject,
      });
    }
    await uow.record(events);
    uow.emit({ t: 'u', s: 'inspection', fid: fleetId, d: { id }, on: { t: stored.ot, id: stored.oi } });
  });
  return readInspection(db, fleetId, id);
}

export async function deleteInspection(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'inspection.manage');
  const row = await loadInspection(ctx.db.kysely, fleetId, id);
  await unitOfWork(ctx, async (trx, uow) => {
    await deleteImages(trx, fleetId, [id]);
    await trx.deleteFrom('inspection_defects').where('inspection_id', '=', id).execute();
    await trx.deleteFrom('inspections').where('id', '=', id).where('fleet_id', '=', fleetId).execute();
    await uow.record([
      {
        type: DomainEventType.inspectionDeleted,
        fid: fleetId,
        at: now(),
        by: actor.userId,
        inspectionId: id,
        objectType: row.object_type as 'u' | 't',
        objectId: row.object_id,
        reason: 'deleted',
      },
    ]);
    uow.emit({
      t: 'd',
      s: 'inspection',
      fid: fleetId,
      d: { id },
      on: { t: row.object_type as 'u' | 't', id: row.object_id },
    });
  });
  return { error: 0 as const };
}

/** A photo or signature of an inspection. */
export async function inspectionImage(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  aid: number,
) {
  // The inspection first: one of a unit outside a driver's reach answers like an unknown one.
  await getInspection(ctx, actor, fleetId, id);
  const row = await ctx.db.kysely
    .selectFrom('attachments')
    .select(['name', 'content_type', 'data'])
    .where('fleet_id', '=', fleetId)
    .where('owner_type', '=', INSPECTION_OWNER)
    .where('owner_id', '=', id)
    .where('id', '=', aid)
    .executeTakeFirst();
  if (!row) throw notFound('Attachment not found');
  return row;
}

export async function inspectionSettings(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
): Promise<InspectionSettings> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'inspection.submit');
  return { rm: fleet.inspection_retention_months };
}

export async function setInspectionSettings(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  body: InspectionSettings,
): Promise<InspectionSettings> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  if (fleet.inspection_retention_months === body.rm) return body;
  await unitOfWork(ctx, async (trx, uow) => {
    await trx
      .updateTable('fleets')
      .set({ inspection_retention_months: body.rm })
      .where('id', '=', fleetId)
      .execute();
    await uow.record([
      {
        type: DomainEventType.fleetSettingsChanged,
        fid: fleetId,
        at: now(),
        by: actor.userId,
        changed: ['irm'],
      },
    ]);
    uow.emit({ t: 'u', s: 'inspection', fid: fleetId, d: { settings: true } });
  });
  return body;
}
