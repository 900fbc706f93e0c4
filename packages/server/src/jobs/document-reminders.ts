import { DEFAULT_REMINDER_DAYS, DomainEventType, type NewDomainEvent, reminderDue } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { unitOfWork } from '../events/unit-of-work.js';

/** Documents looked at per transaction at most (the next sweep takes the rest). */
export const DOCUMENT_REMIND_BATCH = 500;

/**
 * Document reminders (docs/product.md "Documents"): a `document.expiring` domain event once per period
 * when its reminder window opens (N days before its end, per type, default 30), remembered in the
 * period's `reminded_at`. Run by the engine's minute sweep (engine/timer.ts), and by the documents'
 * writes for the document they wrote (a period entered already inside its window reminds at once). Safe
 * if two ran at once: the periods are read again and marked in one statement that only takes unmarked
 * ones.
 */
export async function remindDocuments(
  trx: Kysely<Database>,
  record: (events: NewDomainEvent[]) => Promise<void>,
  at: number,
  only?: { fleetId: number; documentId: number },
): Promise<number> {
  let query = trx
    .selectFrom('documents')
    .innerJoin('document_periods', 'document_periods.id', 'documents.period_id')
    .leftJoin('document_types', 'document_types.id', 'documents.type_id')
    .select([
      'documents.id',
      'documents.fleet_id',
      'documents.owner_type',
      'documents.owner_id',
      'documents.type',
      'documents.number',
      'documents.valid_to',
      'document_periods.id as period_id',
      'document_periods.reminded_at',
      'document_types.name as type_name',
      'document_types.reminder_days',
    ])
    .where('documents.remind_at', '<=', at)
    .where('documents.valid_to', '>=', at)
    .where('document_periods.reminded_at', 'is', null);
  if (only)
    query = query.where('documents.fleet_id', '=', only.fleetId).where('documents.id', '=', only.documentId);
  const rows = await query.orderBy('documents.id').limit(DOCUMENT_REMIND_BATCH).execute();
  const events: NewDomainEvent[] = [];
  for (const r of rows) {
    const days = r.reminder_days === null ? DEFAULT_REMINDER_DAYS : Number(r.reminder_days);
    const validTo = Number(r.valid_to);
    if (!reminderDue({ validTo, remindedAt: null }, days, at)) continue;
    const marked = await trx
      .updateTable('document_periods')
      .set({ reminded_at: at })
      .where('id', '=', r.period_id)
      .where('reminded_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) continue;
    events.push({
      type: DomainEventType.documentExpiring,
      fid: r.fleet_id,
      at,
      by: null,
      documentId: r.id,
      periodId: r.period_id,
      ownerType: r.owner_type as 'u' | 't' | 'd',
      ownerId: r.owner_id,
      docType: r.type,
      typeName: r.type_name ?? '',
      number: r.number,
      validTo,
      reminderDays: days,
    });
  }
  if (events.length) await record(events);
  return events.length;
}

/** The sweep: every fleet's documents whose reminder is due at `at`. Returns how many were recorded. */
export async function remindDueDocuments(ctx: AppContext, at: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await unitOfWork(ctx, (trx, work) => remindDocuments(trx, (e) => work.record(e), at));
    total += n;
    if (n < DOCUMENT_REMIND_BATCH) return total;
  }
}
