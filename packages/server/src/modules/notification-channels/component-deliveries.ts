import { type ComponentTreadLowEvent, NotificationKind } from '@fleetkeep/core';
import { type ChannelKind, NO_SERVICE, oneByOne } from './deliveries.js';

/**
 * "Tread low" on the channels (kind 4096, docs/product.md "Components"): a tread reading under the
 * fleet's threshold. The unit the tyre is mounted on is the object (none: id 0 and no name); there is
 * no service. A component deleted before its event was handled says nothing.
 */
export const treadLowKind: ChannelKind<ComponentTreadLowEvent> = {
  kindOf: () => NotificationKind.treadLow,
  describe: oneByOne(async (db, { event }) => {
    const component = await db
      .selectFrom('components')
      .select('id')
      .where('id', '=', event.componentId)
      .where('fleet_id', '=', event.fid)
      .executeTakeFirst();
    if (!component) return undefined;
    const unit =
      event.unitId === null
        ? undefined
        : await db.selectFrom('units').select('name').where('id', '=', event.unitId).executeTakeFirst();
    return {
      service: NO_SERVICE,
      object: { type: 'u', id: event.unitId ?? 0, name: unit?.name ?? '' },
      component: {
        id: event.componentId,
        kind: event.kind,
        serial: event.serial,
        position: event.position,
        depth: event.depth,
        threshold: event.threshold,
      },
    };
  }),
};
