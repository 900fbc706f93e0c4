import { fromThousandths, NotificationKind, type PartLowStockEvent } from '@fleetkeep/core';
import { type ChannelKind, oneByOne } from './deliveries.js';

/**
 * "Low stock" on the channels (kind 1024, docs/product.md "Parts and stock"): a part's stock at a
 * location went from above its threshold to it or under. There is no object (id 0, no name) and no
 * service. A part or location deleted before its event was handled says nothing.
 */
export const lowStockKind: ChannelKind<PartLowStockEvent> = {
  kindOf: () => NotificationKind.lowStock,
  describe: oneByOne(async (db, { event }) => {
    const part = await db
      .selectFrom('parts')
      .select(['id', 'number', 'name', 'unit'])
      .where('id', '=', event.partId)
      .where('fleet_id', '=', event.fid)
      .executeTakeFirst();
    const location = await db
      .selectFrom('stock_locations')
      .select('name')
      .where('id', '=', event.locationId)
      .where('fleet_id', '=', event.fid)
      .executeTakeFirst();
    if (!part || !location) return undefined;
    return {
      object: { type: 'u', id: 0, name: '' },
      part: {
        id: part.id,
        number: part.number,
        name: part.name,
        unit: part.unit,
        location: location.name,
        qty: fromThousandths(event.qty),
        threshold: fromThousandths(event.threshold),
      },
    };
  }),
};
