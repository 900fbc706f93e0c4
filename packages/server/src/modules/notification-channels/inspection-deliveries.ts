import { type InspectionSubmittedEvent, NotificationKind } from '@fleetkeep/core';
import { type ChannelKind, oneByOne } from './deliveries.js';

/**
 * "Inspection failed" on the channels (kind 512, docs/product.md "Inspections"): an inspection submitted
 * with defects. The object (unit or trailer) is named; there is no service.
 */
export const inspectionFailedKind: ChannelKind<InspectionSubmittedEvent> = {
  kindOf: (event) => (event.defects > 0 && event.worst !== null ? NotificationKind.inspectionFailed : null),
  describe: oneByOne(async (db, { event }) => {
    const object = await db
      .selectFrom(event.objectType === 't' ? 'trailers' : 'units')
      .select(['name', 'fleet_id'])
      .where('id', '=', event.objectId)
      .executeTakeFirst();
    // The object gone, or moved to another fleet, before the event was handled.
    if (!object || object.fleet_id !== event.fid || event.worst === null) return undefined;
    return {
      object: { type: event.objectType, id: event.objectId, name: object.name },
      inspection: {
        id: event.inspectionId,
        form: event.formName,
        defects: event.defects,
        worst: event.worst,
      },
    };
  }),
};
