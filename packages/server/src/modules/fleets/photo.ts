import { UNIT_PHOTO_BYTES_MAX, UNIT_PHOTO_TYPES } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { notFound } from '../../http/errors.js';
import { attachmentStore } from '../attachments/store.js';
import { unitToWire } from './mappers.js';

/**
 * The unit photo (docs/product.md "The vehicle profile"): the shared attachment store
 * (modules/attachments/store.ts) with owner_type 'unit', one image of at most 5 MB. After each upload or
 * removal `units.photo_id` names the photo (migration 031), so the units list shows it without another
 * read, and the unit's live event goes out. An upload replaces the photo there is (store `replaces`).
 */
export const UNIT_ATTACHMENT_OWNER = 'unit';

async function loadUnit(db: Kysely<Database>, fleetId: number, unitId: number) {
  const unit = await db
    .selectFrom('units')
    .select('id')
    .where('id', '=', unitId)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!unit) throw notFound('Unit not found');
  return unit;
}

export const unitPhotos = attachmentStore({
  type: UNIT_ATTACHMENT_OWNER,
  noun: 'unit',
  maxFiles: 1,
  maxBytes: UNIT_PHOTO_BYTES_MAX,
  // A new photo replaces the old one in one transaction: a failed upload keeps the old photo.
  replaces: true,
  types: UNIT_PHOTO_TYPES,
  view: 'fleet.member',
  load: loadUnit,
  async editable(ctx, actor, fleetId, unitId) {
    await requireFleet(ctx, actor, fleetId, 'object.edit');
    await loadUnit(ctx.db.kysely, fleetId, unitId);
    return (write) =>
      unitOfWork(ctx, async (trx, uow) => {
        const done = await write(trx);
        const photo = await trx
          .selectFrom('attachments')
          .select('id')
          .where('fleet_id', '=', fleetId)
          .where('owner_type', '=', UNIT_ATTACHMENT_OWNER)
          .where('owner_id', '=', unitId)
          .orderBy('id', 'desc')
          .executeTakeFirst();
        await trx
          .updateTable('units')
          .set({ photo_id: photo?.id ?? null })
          .where('id', '=', unitId)
          .execute();
        uow.afterCommit(async () => {
          const row = await ctx.db.kysely
            .selectFrom('units')
            .selectAll()
            .where('id', '=', unitId)
            .executeTakeFirstOrThrow();
          return [{ t: 'u', s: 'avl_unit', fid: fleetId, d: unitToWire(row) }];
        });
        return done;
      });
  },
  async lock(ctx, trx, fleetId, unitId) {
    const locked = await ctx.db.ops
      .forUpdate(
        trx.selectFrom('units').select('id').where('id', '=', unitId).where('fleet_id', '=', fleetId),
      )
      .executeTakeFirst();
    if (!locked) throw notFound('Unit not found');
  },
});
