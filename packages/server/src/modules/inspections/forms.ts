import {
  BUILTIN_DVIR,
  DomainEventType,
  dvirItems,
  type InspectionFormBody,
  type InspectionFormUpdateBody,
  type InspectionItem,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, notFound } from '../../http/errors.js';
import { formToWire } from './mappers.js';

/**
 * Inspection forms (docs/product.md "Inspections"). Every fleet has the built-in DVIR (49 CFR 396.11):
 * its row is written the first time the fleet's forms are read or an inspection is submitted, so a
 * fleet made in any way (the fleets screen, the first start, an import, the demo) has it without each
 * of those knowing. It is not editable and not deletable; the screen copies it into a form of the
 * fleet's own. A form's items may change at any time: submitted inspections keep their own copy.
 */

export const BUILTIN_NOT_EDITABLE = 'The built-in DVIR form cannot be changed or deleted; copy it instead';

/** Writes the fleet's built-in DVIR when it is missing (idempotent; a race keeps one row). */
export async function ensureBuiltinForm(db: Kysely<Database>, fleetId: number): Promise<void> {
  const has = await db
    .selectFrom('inspection_forms')
    .select('id')
    .where('fleet_id', '=', fleetId)
    .where('builtin', '=', BUILTIN_DVIR)
    .executeTakeFirst();
  if (has) return;
  const t = now();
  await db
    .insertInto('inspection_forms')
    .values({
      fleet_id: fleetId,
      name: 'DVIR',
      builtin: BUILTIN_DVIR,
      items: JSON.stringify(dvirItems()),
      created_at: t,
      updated_at: t,
    })
    .onConflict((oc) => oc.columns(['fleet_id', 'builtin']).doNothing())
    .execute();
}

/** The items as stored: the body's, with no locale key (keys belong to built-in items only). */
function itemsOf(body: InspectionFormBody['items']): InspectionItem[] {
  return body.map((item) => ({
    k: item.k,
    l: item.l,
    key: null,
    sev: item.k === 'pf' ? (item.sev ?? 'major') : null,
    req: item.k === 'pf' ? true : (item.req ?? false),
  }));
}

async function usedCounts(db: Kysely<Database>, fleetId: number, formId?: number) {
  let q = db
    .selectFrom('inspections')
    .select(['form_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('fleet_id', '=', fleetId)
    .where('form_id', 'is not', null)
    .groupBy('form_id');
  if (formId !== undefined) q = q.where('form_id', '=', formId);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.form_id!, Number(r.n)]));
}

export async function loadForm(db: Kysely<Database>, fleetId: number, formId: number) {
  const row = await db
    .selectFrom('inspection_forms')
    .selectAll()
    .where('id', '=', formId)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!row) throw notFound('Inspection form not found');
  return row;
}

export async function listForms(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'inspection.submit');
  await ensureBuiltinForm(ctx.db.kysely, fleetId);
  const rows = await ctx.db.kysely
    .selectFrom('inspection_forms')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .execute();
  const used = await usedCounts(ctx.db.kysely, fleetId);
  rows.sort(
    (a, b) => (a.builtin ? 0 : 1) - (b.builtin ? 0 : 1) || a.name.localeCompare(b.name) || a.id - b.id,
  );
  return { forms: rows.map((r) => formToWire(r, used.get(r.id) ?? 0)) };
}

export async function getForm(ctx: AppContext, actor: Actor, fleetId: number, formId: number) {
  await requireFleet(ctx, actor, fleetId, 'inspection.submit');
  const row = await loadForm(ctx.db.kysely, fleetId, formId);
  return formToWire(row, (await usedCounts(ctx.db.kysely, fleetId, formId)).get(formId) ?? 0);
}

const formEvent = (
  fleetId: number,
  actor: Actor,
  formId: number,
  change: 'created' | 'updated' | 'deleted',
) => ({
  type: DomainEventType.inspectionFormChanged,
  fid: fleetId,
  at: now(),
  by: actor.userId,
  formId,
  change,
});

export async function createForm(ctx: AppContext, actor: Actor, fleetId: number, body: InspectionFormBody) {
  await requireFleet(ctx, actor, fleetId, 'inspection.manage');
  const row = await unitOfWork(ctx, async (trx, uow) => {
    const t = now();
    const row = await trx
      .insertInto('inspection_forms')
      .values({
        fleet_id: fleetId,
        name: body.n,
        builtin: null,
        items: JSON.stringify(itemsOf(body.items)),
        created_at: t,
        updated_at: t,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await uow.record([formEvent(fleetId, actor, row.id, 'created')]);
    uow.emit({ t: 'c', s: 'inspection', fid: fleetId, d: { formId: row.id } });
    return row;
  });
  return formToWire(row, 0);
}

export async function updateForm(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  formId: number,
  body: InspectionFormUpdateBody,
) {
  await requireFleet(ctx, actor, fleetId, 'inspection.manage');
  const before = await loadForm(ctx.db.kysely, fleetId, formId);
  if (before.builtin) throw conflict(BUILTIN_NOT_EDITABLE, [{ id: formId, reason: BUILTIN_NOT_EDITABLE }]);
  const row = await unitOfWork(ctx, async (trx, uow) => {
    const row = await trx
      .updateTable('inspection_forms')
      .set({
        name: body.n ?? before.name,
        items: body.items ? JSON.stringify(itemsOf(body.items)) : before.items,
        updated_at: now(),
      })
      .where('id', '=', formId)
      .where('fleet_id', '=', fleetId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await uow.record([formEvent(fleetId, actor, formId, 'updated')]);
    uow.emit({ t: 'u', s: 'inspection', fid: fleetId, d: { formId } });
    return row;
  });
  return formToWire(row, (await usedCounts(ctx.db.kysely, fleetId, formId)).get(formId) ?? 0);
}

export async function deleteForm(ctx: AppContext, actor: Actor, fleetId: number, formId: number) {
  await requireFleet(ctx, actor, fleetId, 'inspection.manage');
  const before = await loadForm(ctx.db.kysely, fleetId, formId);
  if (before.builtin) throw conflict(BUILTIN_NOT_EDITABLE, [{ id: formId, reason: BUILTIN_NOT_EDITABLE }]);
  await unitOfWork(ctx, async (trx, uow) => {
    // Its inspections stay, with their copy of the items and the form's name (form_id set null).
    await trx.updateTable('inspections').set({ form_id: null }).where('form_id', '=', formId).execute();
    await trx
      .deleteFrom('inspection_forms')
      .where('id', '=', formId)
      .where('fleet_id', '=', fleetId)
      .execute();
    await uow.record([formEvent(fleetId, actor, formId, 'deleted')]);
    uow.emit({ t: 'd', s: 'inspection', fid: fleetId, d: { formId } });
  });
  return { error: 0 as const };
}
