import {
  DEFAULT_REMINDER_DAYS,
  type DocumentOwnerType,
  type DocumentType,
  reminderStart,
} from '@fleetkeep/core';
import { type AppContext, DAY, now } from '../context.js';
import { unitOfWork } from '../events/unit-of-work.js';
import type { DemoIds } from './seed.js';

/**
 * The demo's documents (docs/product.md "Documents"): a unit's registration and insurance (valid, the
 * insurance renewed once), a roadworthiness certificate expiring within 30 days, a trailer's expired
 * insurance and a driver's licence, so that the dashboard and the objects list show both signs.
 */
const DEMO_DOCUMENTS: {
  owner: DocumentOwnerType;
  index: number;
  type: DocumentType;
  number: string;
  issuer: string;
  /** Days from today to the end of the current period; earlier periods before it. */
  endsIn: number;
  cost: number;
  renewals?: number;
}[] = [
  {
    owner: 'u',
    index: 0,
    type: 'registration',
    number: 'REG-4471',
    issuer: 'Vehicle registry',
    endsIn: 300,
    cost: 85_000,
  },
  {
    owner: 'u',
    index: 0,
    type: 'insurance',
    number: 'POL-2291',
    issuer: 'Northstar Insurance',
    endsIn: 200,
    cost: 1_240_000,
    renewals: 1,
  },
  {
    owner: 'u',
    index: 1,
    type: 'roadworthiness',
    number: 'RW-118',
    issuer: 'Test centre',
    endsIn: 12,
    cost: 65_000,
  },
  {
    owner: 't',
    index: 0,
    type: 'insurance',
    number: 'POL-7730',
    issuer: 'Northstar Insurance',
    endsIn: -5,
    cost: 310_000,
  },
  {
    owner: 'd',
    index: 0,
    type: 'licence',
    number: 'DL-55120',
    issuer: 'Licensing office',
    endsIn: 900,
    cost: 42_000,
  },
];

export async function seedDemoDocuments(ctx: AppContext, ids: DemoIds) {
  const db = ctx.db.kysely;
  const owners = async (table: 'units' | 'trailers' | 'drivers') =>
    (await db.selectFrom(table).select('id').where('fleet_id', '=', ids.fleetId).orderBy('id').execute()).map(
      (r) => r.id,
    );
  const byType = { u: await owners('units'), t: await owners('trailers'), d: await owners('drivers') };
  const today = now();
  await unitOfWork(ctx, async (trx) => {
    for (const d of DEMO_DOCUMENTS) {
      const ownerId = byType[d.owner][d.index];
      if (ownerId === undefined) continue;
      const end = today + d.endsIn * DAY;
      const { id } = await trx
        .insertInto('documents')
        .values({
          fleet_id: ids.fleetId,
          owner_type: d.owner,
          owner_id: ownerId,
          type: d.type,
          type_id: null,
          number: d.number,
          issuer: d.issuer,
          period_id: null,
          valid_from: end - 365 * DAY,
          valid_to: end,
          cost: d.cost,
          remind_at: reminderStart(end, DEFAULT_REMINDER_DAYS),
          created_at: today,
          updated_at: today,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      let periodId = 0;
      for (let n = d.renewals ?? 0; n >= 0; n--) {
        const periodEnd = end - n * 365 * DAY;
        const row = await trx
          .insertInto('document_periods')
          .values({
            document_id: id,
            fleet_id: ids.fleetId,
            number: d.number,
            valid_from: periodEnd - 365 * DAY,
            valid_to: periodEnd,
            cost: d.cost,
            // A period already past its window was reminded then (the demo starts with no pending reminders).
            reminded_at: n > 0 || d.endsIn < 0 ? reminderStart(periodEnd, DEFAULT_REMINDER_DAYS) : null,
            created_at: today,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        periodId = row.id;
      }
      await trx.updateTable('documents').set({ period_id: periodId }).where('id', '=', id).execute();
    }
  });
}
