import { SERVICE_ATTACHMENT_BYTES_MAX, SERVICE_ATTACHMENTS_MAX } from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import { attachmentStore } from '../attachments/store.js';
import { runChange } from './effects.js';
import { isArchived } from './rules.js';
import { loadService } from './service.js';

export { contentDisposition, safeContentType } from '../attachments/store.js';

/**
 * Service attachments (PRODUCT.md "Services"; spec §5 "Attachments"): the shared store
 * (modules/attachments/store.ts) with owner_type 'service'.
 */
export const serviceAttachments = attachmentStore({
  type: 'service',
  noun: 'service',
  maxFiles: SERVICE_ATTACHMENTS_MAX,
  maxBytes: SERVICE_ATTACHMENT_BYTES_MAX,
  view: 'service.view',
  load: loadService,
  /** Open services need manageService; archived ones archiveEdit as well (PRODUCT.md "Services"). */
  async editable(ctx, actor, fleetId, serviceId) {
    await requireFleet(ctx, actor, fleetId, 'service.manage');
    const service = await loadService(ctx.db.kysely, fleetId, serviceId);
    if (isArchived(service.f)) await requireFleet(ctx, actor, fleetId, 'archive.edit');
    // The service's live event after commit.
    return async (write) => {
      const { result } = await runChange(ctx, fleetId, async (trx, ch) => {
        const done = await write(trx);
        ch.updated.add(serviceId);
        return done;
      });
      return result;
    };
  },
  async lock(ctx, trx, _fleetId, serviceId) {
    await ctx.db.ops.forUpdate(trx.selectFrom('services').select('id').where('id', '=', serviceId)).execute();
  },
});
