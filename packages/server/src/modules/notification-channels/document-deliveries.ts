import { type DocumentExpiringEvent, NotificationKind } from '@fleetkeep/core';
import { type ChannelKind, oneByOne } from './deliveries.js';

const OWNER_TABLE = { u: 'units', t: 'trailers', d: 'drivers' } as const;

/**
 * Documents on the channels (docs/product.md "Documents"): a document nearing its expiry (kind 2048),
 * recorded once per period by the reminder job. The unit, trailer or driver is the object; there is no
 * service. A document deleted before its event was handled says nothing.
 */
export const documentExpiringKind: ChannelKind<DocumentExpiringEvent> = {
  kindOf: () => NotificationKind.documentExpiring,
  describe: oneByOne(async (db, { event }) => {
    const doc = await db
      .selectFrom('documents')
      .select('id')
      .where('id', '=', event.documentId)
      .where('fleet_id', '=', event.fid)
      .executeTakeFirst();
    if (!doc) return undefined;
    const owner = await db
      .selectFrom(OWNER_TABLE[event.ownerType])
      .select('name')
      .where('id', '=', event.ownerId)
      .executeTakeFirst();
    return {
      object: { type: event.ownerType, id: event.ownerId, name: owner?.name ?? '' },
      document: {
        id: event.documentId,
        type: event.docType,
        type_name: event.typeName,
        number: event.number,
        valid_to: event.validTo,
        reminder_days: event.reminderDays,
      },
    };
  }),
};
