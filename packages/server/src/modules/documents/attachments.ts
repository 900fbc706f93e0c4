import { DOCUMENT_ATTACHMENT_BYTES_MAX, DOCUMENT_ATTACHMENTS_MAX } from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { notFound } from '../../http/errors.js';
import { attachmentStore } from '../attachments/store.js';
import { DOCUMENT_ATTACHMENT_OWNER, loadDocument } from './load.js';

/**
 * Files of documents (docs/product.md "Documents"): the shared store (modules/attachments/store.ts)
 * with owner_type 'document' and the caps of service attachments (20 files, 32 MB per document, error
 * 2 beyond). Viewers of documents list and download them; managers add and delete them.
 */
export const documentAttachments = attachmentStore({
  type: DOCUMENT_ATTACHMENT_OWNER,
  noun: 'document',
  maxFiles: DOCUMENT_ATTACHMENTS_MAX,
  maxBytes: DOCUMENT_ATTACHMENT_BYTES_MAX,
  view: 'document.view',
  load: loadDocument,
  async editable(ctx, actor, fleetId, documentId) {
    await requireFleet(ctx, actor, fleetId, 'document.manage');
    await loadDocument(ctx.db.kysely, fleetId, documentId);
    return async (write) => unitOfWork(ctx, async (trx) => write(trx));
  },
  async lock(ctx, trx, fleetId, documentId) {
    const locked = await ctx.db.ops
      .forUpdate(
        trx.selectFrom('documents').select('id').where('id', '=', documentId).where('fleet_id', '=', fleetId),
      )
      .executeTakeFirst();
    if (!locked) throw notFound('Document not found');
  },
});
