import {
  DEFAULT_REMINDER_DAYS,
  DOCUMENT_TYPES_MAX,
  type DocumentTypeInput,
  type DocumentTypeListReply,
  type DocumentTypeWire,
} from '@fleetkeep/core';
import { sql } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, tooLarge } from '../../http/errors.js';
import { loadDocumentType } from './load.js';

/**
 * Fleet-defined document types (docs/product.md "Documents"): a name and the reminder days of its
 * documents. Changing the days moves the reminder window of its documents' current periods.
 */

const wire = (r: { id: number; name: string; reminder_days: number }): DocumentTypeWire => ({
  id: r.id,
  name: r.name,
  reminder_days: Number(r.reminder_days),
});

export async function listDocumentTypes(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
): Promise<DocumentTypeListReply> {
  await requireFleet(ctx, actor, fleetId, 'document.view');
  const rows = await ctx.db.kysely
    .selectFrom('document_types')
    .select(['id', 'name', 'reminder_days'])
    .where('fleet_id', '=', fleetId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return { types: rows.map(wire) };
}

export async function createDocumentType(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: DocumentTypeInput,
): Promise<DocumentTypeWire> {
  await requireFleet(ctx, actor, fleetId, 'document.manage');
  return unitOfWork(ctx, async (trx) => {
    const { n } = await trx
      .selectFrom('document_types')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('fleet_id', '=', fleetId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= DOCUMENT_TYPES_MAX) throw tooLarge(`At most ${DOCUMENT_TYPES_MAX} document types`);
    const row = await trx
      .insertInto('document_types')
      .values({
        fleet_id: fleetId,
        name: input.name,
        reminder_days: input.reminder_days ?? DEFAULT_REMINDER_DAYS,
        created_at: now(),
      })
      .returning(['id', 'name', 'reminder_days'])
      .executeTakeFirstOrThrow();
    return wire(row);
  });
}

export async function updateDocumentType(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  input: DocumentTypeInput,
): Promise<DocumentTypeWire> {
  await requireFleet(ctx, actor, fleetId, 'document.manage');
  return unitOfWork(ctx, async (trx) => {
    const row = await loadDocumentType(trx, fleetId, id);
    const days = input.reminder_days ?? Number(row.reminder_days);
    await trx
      .updateTable('document_types')
      .set({ name: input.name, reminder_days: days })
      .where('id', '=', id)
      .execute();
    if (days !== Number(row.reminder_days))
      await trx
        .updateTable('documents')
        .set({
          remind_at: sql`case when valid_to > ${days * 86_400} then valid_to - ${days * 86_400} else 0 end`,
        })
        .where('fleet_id', '=', fleetId)
        .where('type_id', '=', id)
        .execute();
    return wire({ id, name: input.name, reminder_days: days });
  });
}

export async function deleteDocumentType(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'document.manage');
  await unitOfWork(ctx, async (trx) => {
    await loadDocumentType(trx, fleetId, id);
    const used = await trx
      .selectFrom('documents')
      .select('id')
      .where('fleet_id', '=', fleetId)
      .where('type_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (used) throw conflict('Documents use this type', [{ id, reason: 'in_use' }]);
    await trx.deleteFrom('document_types').where('id', '=', id).execute();
  });
  return { error: 0 as const };
}
