import { fleetItemParams, fleetParams, okReply } from '../contracts/common.js';
import {
  lineItemBody,
  lineItemFuelPresetsReply,
  lineItemImportBody,
  lineItemListReply,
  lineItemUpdateBody,
  lineItemWire,
} from '../contracts/lineitems.js';
import { route } from './route.js';

/** The line-items library (spec §7 "Line items"; PRODUCT.md "Line-items library"). */

const tags = ['line items'];
const base = '/api/fleets/:fid/line_items';

export const lineitemsRoutes = {
  list: route({
    method: 'GET',
    path: base,
    params: fleetParams,
    reply: lineItemListReply,
    need: 'lineitem.view',
    summary: 'The library, sorted by name',
    tags,
  }),
  fuelPresets: route({
    method: 'GET',
    path: `${base}/fuel_presets`,
    params: fleetParams,
    reply: lineItemFuelPresetsReply,
    need: 'lineitem.view',
    summary: 'Common fuel types offered for the fuel tab',
    tags,
  }),
  create: route({
    method: 'POST',
    path: base,
    params: fleetParams,
    body: lineItemBody,
    reply: lineItemWire,
    need: 'lineitem.manage',
    summary: 'Add an item (labour 1, part 2, fuel 4)',
    tags,
  }),
  update: route({
    method: 'PUT',
    path: `${base}/:id`,
    params: fleetItemParams,
    body: lineItemUpdateBody,
    reply: lineItemWire,
    need: 'lineitem.manage',
    summary: 'Change an item; the item as read is accepted (id ignored)',
    tags,
  }),
  remove: route({
    method: 'DELETE',
    path: `${base}/:id`,
    params: fleetItemParams,
    reply: okReply,
    need: 'lineitem.manage',
    summary: 'Delete an item',
    tags,
  }),
  /** Each row names its fleet: the server reads the fleet of the need from the body. */
  createMany: route({
    method: 'POST',
    path: '/api/line_items/batch',
    body: lineItemImportBody,
    reply: lineItemListReply,
    need: 'lineitem.manage',
    summary: 'Import items; each row names its fleet; all rows or none (spec §5 "Import: line items")',
    tags,
  }),
};
