import {
  DEFAULT_REMINDER_DAYS,
  type DocumentCreateInput,
  type DocumentDetailWire,
  type DocumentListQuery,
  type DocumentListReply,
  type DocumentRenewInput,
  type DocumentUpdateInput,
  reminderStart,
  toThousandths,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { invalidInput } from '../../http/errors.js';
import { changedFixedFields } from '../../http/fixed-fields.js';
import { remindDocuments } from '../../jobs/document-reminders.js';
import {
  DOCUMENT_ATTACHMENT_OWNER,
  documentDetail,
  documentOwner,
  documentWires,
  loadDocument,
  loadDocumentType,
} from './load.js';

/**
 * Documents of units, trailers and drivers (docs/product.md "Documents"). Reading needs
 * `document.view`, every write `document.manage`. Every query filters on the fleet: another fleet's
 * document, owner or type is not found (404). A document keeps its periods; the current one is copied on
 * the document row (with `remind_at`) for the lists and the reminder job.
 */

const cost = (v: number | string | null | undefined) =>
  v === null || v === undefined ? null : (toThousandths(v) ?? null);

/** The reminder days of a document's type: the fleet-defined type's, or the default. */
async function reminderDaysOf(db: Kysely<Database>, fleetId: number, typeId: number | null) {
  if (typeId === null) return DEFAULT_REMINDER_DAYS;
  return Number((await loadDocumentType(db, fleetId, typeId)).reminder_days);
}

/** The type and type id a body asks for: custom needs a fleet type, a built-in one none. */
function typeOf(type: DocumentCreateInput['type'], typeId: number | null | undefined) {
  if (type === 'custom' && (typeId === null || typeId === undefined))
    throw invalidInput([{ field: 'body.type_id', message: 'Required with type custom' }]);
  return { type, typeId: type === 'custom' ? (typeId as number) : null };
}

export async function listDocuments(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  q: DocumentListQuery,
): Promise<DocumentListReply> {
  await requireFleet(ctx, actor, fleetId, 'document.view');
  if (q.owner_id !== undefined && q.owner_type === undefined)
    throw invalidInput([{ field: 'querystring.owner_type', message: 'Required with owner_id' }]);
  const at = now();
  let query = ctx.db.kysely.selectFrom('documents').where('fleet_id', '=', fleetId);
  if (q.owner_type !== undefined) query = query.where('owner_type', '=', q.owner_type);
  if (q.owner_id !== undefined) query = query.where('owner_id', '=', q.owner_id);
  if (q.type !== undefined) query = query.where('type', '=', q.type);
  if (q.type_id !== undefined) query = query.where('type_id', '=', q.type_id);
  switch (q.state) {
    case 'valid':
      query = query.where('remind_at', '>', at);
      break;
    case 'expiring':
      query = query.where('remind_at', '<=', at).where('valid_to', '>=', at);
      break;
    case 'expired':
      query = query.where('valid_to', '<', at);
      break;
    case 'attention':
      query = query.where('remind_at', '<=', at);
      break;
  }
  const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .orderBy('valid_to')
    .orderBy('id')
    .limit(q.limit ?? 10_000)
    .offset(q.offset ?? 0)
    .execute();
  return { documents: await documentWires(ctx.db.kysely, fleetId, rows, at), total: Number(n) };
}

export async function getDocument(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
): Promise<DocumentDetailWire> {
  await requireFleet(ctx, actor, fleetId, 'document.view');
  return documentDetail(ctx.db.kysely, fleetId, id, now());
}

/** Adds a period and makes it the document's current one. */
async function addPeriod(
  trx: Kysely<Database>,
  fleetId: number,
  documentId: number,
  period: { number: string; validFrom: number | null; validTo: number; cost: number | null },
  reminderDays: number,
  at: number,
) {
  const { id } = await trx
    .insertInto('document_periods')
    .values({
      document_id: documentId,
      fleet_id: fleetId,
      number: period.number,
      valid_from: period.validFrom,
      valid_to: period.validTo,
      cost: period.cost,
      reminded_at: null,
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('documents')
    .set({
      period_id: id,
      number: period.number,
      valid_from: period.validFrom,
      valid_to: period.validTo,
      cost: period.cost,
      remind_at: reminderStart(period.validTo, reminderDays),
      updated_at: at,
    })
    .where('id', '=', documentId)
    .execute();
}

/** POST .../documents: the document with its first period. */
export async function createDocument(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: DocumentCreateInput,
): Promise<DocumentDetailWire> {
  await requireFleet(ctx, actor, fleetId, 'document.manage');
  const { type, typeId } = typeOf(input.type, input.type_id);
  const id = await unitOfWork(ctx, async (trx, work) => {
    await documentOwner(trx, fleetId, input.owner_type, input.owner_id);
    const days = await reminderDaysOf(trx, fleetId, typeId);
    const at = now();
    const { id } = await trx
      .insertInto('documents')
      .values({
        fleet_id: fleetId,
        owner_type: input.owner_type,
        owner_id: input.owner_id,
        type,
        type_id: typeId,
        issuer: input.issuer ?? '',
        notes: input.notes ?? '',
        period_id: null,
        valid_from: null,
        valid_to: input.valid_to,
        cost: null,
        remind_at: reminderStart(input.valid_to, days),
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await addPeriod(
      trx,
      fleetId,
      id,
      {
        number: input.number ?? '',
        validFrom: input.valid_from ?? null,
        validTo: input.valid_to,
        cost: cost(input.cost),
      },
      days,
      at,
    );
    await remindDocuments(trx, (e) => work.record(e), at, { fleetId, documentId: id });
    return id;
  });
  return documentDetail(ctx.db.kysely, fleetId, id, now());
}

/** PUT .../documents/{id}: the document's fields and its current period's. */
export async function updateDocument(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  patch: DocumentUpdateInput,
): Promise<DocumentDetailWire> {
  await requireFleet(ctx, actor, fleetId, 'document.manage');
  await unitOfWork(ctx, async (trx, work) => {
    const row = await loadDocument(trx, fleetId, id);
    const fixed = changedFixedFields(patch, { owner_type: row.owner_type, owner_id: row.owner_id });
    if (fixed.length) throw invalidInput(fixed);
    const { type, typeId } = typeOf(
      (patch.type ?? row.type) as DocumentCreateInput['type'],
      patch.type_id !== undefined ? patch.type_id : row.type_id,
    );
    const days = await reminderDaysOf(trx, fleetId, typeId);
    const validFrom = patch.valid_from !== undefined ? patch.valid_from : row.valid_from;
    const validTo = patch.valid_to ?? Number(row.valid_to);
    if (validFrom !== null && Number(validFrom) > validTo)
      throw invalidInput([{ field: 'body.valid_from', message: 'Must not be after valid_to' }]);
    const number = patch.number ?? row.number;
    const periodCost = patch.cost !== undefined ? cost(patch.cost) : row.cost;
    const at = now();
    // A new end is a new reminder window for the current period: its reminder may come again.
    const endMoved =
      validTo !== Number(row.valid_to) || days !== (await reminderDaysOf(trx, fleetId, row.type_id));
    await trx
      .updateTable('documents')
      .set({
        type,
        type_id: typeId,
        number,
        issuer: patch.issuer ?? row.issuer,
        notes: patch.notes ?? row.notes,
        valid_from: validFrom,
        valid_to: validTo,
        cost: periodCost,
        remind_at: reminderStart(validTo, days),
        updated_at: at,
      })
      .where('id', '=', id)
      .execute();
    if (row.period_id !== null)
      await trx
        .updateTable('document_periods')
        .set({
          number,
          valid_from: validFrom,
          valid_to: validTo,
          cost: periodCost,
          ...(endMoved && { reminded_at: null }),
        })
        .where('id', '=', row.period_id)
        .execute();
    await remindDocuments(trx, (e) => work.record(e), at, { fleetId, documentId: id });
  });
  return documentDetail(ctx.db.kysely, fleetId, id, now());
}

/** POST .../documents/{id}/renew: a new current period; the old one stays in the history. */
export async function renewDocument(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  input: DocumentRenewInput,
): Promise<DocumentDetailWire> {
  await requireFleet(ctx, actor, fleetId, 'document.manage');
  await unitOfWork(ctx, async (trx, work) => {
    const row = await loadDocument(trx, fleetId, id);
    if (input.valid_to <= Number(row.valid_to))
      throw invalidInput([{ field: 'body.valid_to', message: 'Must be after the current period' }]);
    const days = await reminderDaysOf(trx, fleetId, row.type_id);
    await addPeriod(
      trx,
      fleetId,
      id,
      {
        number: input.number ?? row.number,
        validFrom: input.valid_from ?? Number(row.valid_to),
        validTo: input.valid_to,
        cost: cost(input.cost),
      },
      days,
      now(),
    );
    await remindDocuments(trx, (e) => work.record(e), now(), { fleetId, documentId: id });
  });
  return documentDetail(ctx.db.kysely, fleetId, id, now());
}

/** Deletes documents with their periods and files (in the caller's transaction). */
export async function deleteDocumentRows(trx: Kysely<Database>, fleetId: number, ids: number[]) {
  if (ids.length === 0) return;
  await trx
    .deleteFrom('attachments')
    .where('fleet_id', '=', fleetId)
    .where('owner_type', '=', DOCUMENT_ATTACHMENT_OWNER)
    .where('owner_id', 'in', ids)
    .execute();
  await trx.deleteFrom('document_periods').where('document_id', 'in', ids).execute();
  await trx.deleteFrom('documents').where('id', 'in', ids).where('fleet_id', '=', fleetId).execute();
}

/** DELETE .../documents/{id}: with its periods and files. */
export async function deleteDocument(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'document.manage');
  await unitOfWork(ctx, async (trx) => {
    await loadDocument(trx, fleetId, id);
    await deleteDocumentRows(trx, fleetId, [id]);
  });
  return { error: 0 as const };
}

/** A unit, trailer or driver that is deleted takes its documents along (in the deletion's transaction). */
export async function removeObjectDocuments(
  trx: Kysely<Database>,
  fleetId: number,
  type: 'u' | 'd' | 't',
  objectId: number,
) {
  const rows = await trx
    .selectFrom('documents')
    .select('id')
    .where('fleet_id', '=', fleetId)
    .where('owner_type', '=', type)
    .where('owner_id', '=', objectId)
    .execute();
  await deleteDocumentRows(
    trx,
    fleetId,
    rows.map((r) => r.id),
  );
}
