import { FUEL_ATTACHMENT_BYTES_MAX, FUEL_ATTACHMENTS_MAX } from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import { notFound } from '../../http/errors.js';
import { attachmentStore } from '../attachments/store.js';
import { ATTACHMENT_OWNER } from './load.js';
import { loadFilling, runFuelChange } from './write.js';

/**
 * Attachments of fuel fillings (spec §5 "Attachments"; PRODUCT.md "Services": at most 20 files and
 * 32 MB in total per service or fuel filling, error 2 beyond): the shared store
 * (modules/attachments/store.ts) with owner_type 'fuel'.
 */
export const fuelAttachments = attachmentStore({
  type: ATTACHMENT_OWNER,
  noun: 'fuel filling',
  maxFiles: FUEL_ATTACHMENTS_MAX,
  maxBytes: FUEL_ATTACHMENT_BYTES_MAX,
  view: 'fuel.view',
  load: loadFilling,
  async editable(ctx, actor, fleetId, fillingId) {
    const { fleet } = await requireFleet(ctx, actor, fleetId, 'fuel.manage');
    await loadFilling(ctx.db.kysely, fleetId, fillingId);
    // The filling's live event after commit.
    return async (write) => {
      const { result } = await runFuelChange(ctx, fleet, async (trx, ch) => {
        const done = await write(trx);
        ch.updated.add(fillingId);
        return done;
      });
      return result;
    };
  },
  async lock(ctx, trx, fleetId, fillingId) {
    const locked = await ctx.db.ops
      .forUpdate(
        trx
          .selectFrom('fuel_fillings')
          .select('id')
          .where('id', '=', fillingId)
          .where('fleet_id', '=', fleetId),
      )
      .executeTakeFirst();
    if (!locked) throw notFound('Fuel filling not found');
  },
});
