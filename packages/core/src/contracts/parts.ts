import { z } from 'zod';
import { Limits } from '../constants.js';
import { ADJUST_REASONS, MOVE_KINDS, PURCHASE_ORDER_STATUSES, STOCK_LOCATION_KINDS } from '../parts.js';
import { acceptingReadOnly, decimal3, id, okReply, pathId, unixTime } from './common.js';

/**
 * Wire contracts of parts and stock (`/api/fleets/{fid}/parts`, `/stock-locations`,
 * `/purchase-orders`; docs/product.md "Parts and stock"; rules in core parts.ts). Quantities and money
 * are numbers with at most 3 decimals on the wire (thousandths in the database).
 */

export const PART_LIST_MAX = 10_000;
export const PART_MOVES_MAX = 1000;
export const PURCHASE_ORDER_LINES_MAX = 200;
export const NOTE_MAX = Limits.descriptionMax;

const text = z.string().trim().max(Limits.stringMax);
const name = z.string().trim().min(1).max(Limits.stringMax);
export const stockLocationKind = z.enum(STOCK_LOCATION_KINDS);
export const adjustReason = z.enum(ADJUST_REASONS);
export const moveKind = z.enum(MOVE_KINDS);
export const purchaseOrderStatus = z.enum(PURCHASE_ORDER_STATUSES);

// ---- Parts ----

const partFields = {
  number: name.describe('Part number, unique in the fleet'),
  name: name.describe('What it is'),
  manufacturer: text.optional(),
  unit: text.optional().describe('Unit of measure (pcs, l, m, …)'),
  cost: decimal3().optional().describe('Unit cost in the fleet currency (moving average on receipt)'),
  lid: id.nullable().optional().describe('The line-item library entry it is'),
};

export const partCreateBody = z.strictObject(partFields);
export type PartCreateInput = z.infer<typeof partCreateBody>;

const PART_DERIVED = ['id', 'stock', 'on_hand', 'value', 'low', 'created', 'updated'] as const;
export const partUpdateBody = acceptingReadOnly(
  z.strictObject({ ...partFields, number: partFields.number.optional(), name: partFields.name.optional() }),
  PART_DERIVED,
);
export type PartUpdateInput = z.output<typeof partUpdateBody>;

export const partListQuery = z.object({
  q: z.string().max(200).optional().describe('Text in number, name or manufacturer'),
  location: pathId.optional().describe('Only parts kept at this location'),
  low: z.enum(['0', '1']).optional().describe('1: only parts at or under a threshold somewhere'),
  offset: z.coerce.number().int().min(0).max(Limits.intSigned).optional(),
  limit: z.coerce.number().int().min(1).max(PART_LIST_MAX).optional(),
});
export type PartListQuery = z.output<typeof partListQuery>;

export const partStockWire = z.object({
  location_id: id,
  location: z.string().describe('The location’s name'),
  qty: z.number().describe('On hand'),
  threshold: z.number().nullable().describe('Low-stock threshold (null: none)'),
  low: z.boolean(),
});
export type PartStockWire = z.infer<typeof partStockWire>;

export const partWire = z.object({
  id,
  number: z.string(),
  name: z.string(),
  manufacturer: z.string(),
  unit: z.string(),
  cost: z.number().describe('Average unit cost'),
  lid: id.nullable(),
  stock: z.array(partStockWire).describe('Per location'),
  on_hand: z.number().describe('All locations together'),
  value: z.number().describe('on_hand × cost'),
  low: z.boolean().describe('At or under a threshold at some location'),
  created: unixTime,
  updated: unixTime,
});
export type PartWire = z.infer<typeof partWire>;

export const partListReply = z.object({ parts: z.array(partWire), total: z.number().int() });
export type PartListReply = z.infer<typeof partListReply>;
export const partDeleteReply = okReply;

/** PUT .../parts/{id}/stock/{location}: the low-stock threshold at a location (null: none). */
export const partThresholdBody = z.strictObject({ threshold: decimal3().nullable() });

/** POST .../parts/{id}/adjust: a quantity change at a location with a reason. */
export const partAdjustBody = z.strictObject({
  location_id: id,
  delta: z
    .number()
    .min(-1e9)
    .max(1e9)
    .refine((n) => n !== 0 && Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6, {
      message: 'Must be a non-zero number with at most 3 decimals',
    })
    .describe('Change, positive or negative'),
  reason: adjustReason,
  note: z.string().trim().max(NOTE_MAX).optional(),
});
export type PartAdjustInput = z.output<typeof partAdjustBody>;

/** POST .../parts/{id}/transfer: move a quantity from one location to another. */
export const partTransferBody = z.strictObject({
  from: id,
  to: id,
  qty: decimal3({ positive: true }),
  note: z.string().trim().max(NOTE_MAX).optional(),
});
export type PartTransferInput = z.output<typeof partTransferBody>;

export const partMoveWire = z.object({
  id,
  part_id: id,
  location_id: id,
  location: z.string(),
  kind: moveKind,
  reason: z.string().nullable().describe('Adjustment reason'),
  qty: z.number().describe('Change (negative: out)'),
  before: z.number(),
  after: z.number(),
  ref_type: z.string().nullable().describe('s service, w work order, p purchase order'),
  ref_id: id.nullable(),
  note: z.string(),
  by: z.object({ id, nm: z.string() }).nullable(),
  at: unixTime,
});
export type PartMoveWire = z.infer<typeof partMoveWire>;
export const partMovesReply = z.object({ moves: z.array(partMoveWire) });
export type PartMovesReply = z.infer<typeof partMovesReply>;

/** GET/PUT .../parts/settings: the fleet's stock settings. */
export const partSettingsWire = z.object({ allow_negative_stock: z.boolean() });
export const partSettingsBody = z.strictObject({ allow_negative_stock: z.boolean() });

// ---- Locations ----

export const stockLocationBody = z.strictObject({ name, kind: stockLocationKind });
export const stockLocationUpdateBody = acceptingReadOnly(stockLocationBody.partial(), ['id', 'parts']);
export const stockLocationWire = z.object({
  id,
  name: z.string(),
  kind: stockLocationKind,
  parts: z.number().int().describe('Parts with stock kept here'),
});
export type StockLocationWire = z.infer<typeof stockLocationWire>;
export const stockLocationListReply = z.object({ locations: z.array(stockLocationWire) });

// ---- Purchase orders ----

/** A line as written; a line as read is accepted (its id, part name and received are dropped). */
export const purchaseOrderLineInput = z.object({
  part_id: id,
  qty: decimal3({ positive: true }),
  cost: decimal3().describe('Unit cost'),
});

const poFields = {
  vendor: name,
  location_id: id.nullable().optional().describe('Where it is received by default'),
  note: z.string().trim().max(NOTE_MAX).optional(),
  lines: z.array(purchaseOrderLineInput).max(PURCHASE_ORDER_LINES_MAX).optional(),
};
export const purchaseOrderCreateBody = z.strictObject(poFields);
export type PurchaseOrderCreateInput = z.output<typeof purchaseOrderCreateBody>;
export const purchaseOrderUpdateBody = acceptingReadOnly(
  z.strictObject({ ...poFields, vendor: name.optional() }),
  ['id', 'total', 'created_by', 'created', 'updated', 'ordered_at'],
  ['status'],
);
export type PurchaseOrderUpdateInput = z.output<typeof purchaseOrderUpdateBody>;

export const purchaseOrderReceiveBody = z.strictObject({
  location_id: id,
  lines: z
    .array(z.strictObject({ line_id: id, qty: decimal3({ positive: true }) }))
    .min(1)
    .max(PURCHASE_ORDER_LINES_MAX),
});
export type PurchaseOrderReceiveInput = z.output<typeof purchaseOrderReceiveBody>;

export const purchaseOrderLineWire = z.object({
  id,
  part_id: id,
  part: z.string().describe('Number and name'),
  qty: z.number(),
  cost: z.number(),
  received: z.number(),
});
export const purchaseOrderWire = z.object({
  id,
  vendor: z.string(),
  status: purchaseOrderStatus,
  location_id: id.nullable(),
  note: z.string(),
  lines: z.array(purchaseOrderLineWire),
  total: z.number(),
  created_by: z.object({ id, nm: z.string() }).nullable(),
  ordered_at: unixTime.nullable(),
  created: unixTime,
  updated: unixTime,
});
export type PurchaseOrderWire = z.infer<typeof purchaseOrderWire>;
export const purchaseOrderListQuery = z.object({
  status: purchaseOrderStatus.optional(),
  offset: z.coerce.number().int().min(0).max(Limits.intSigned).optional(),
  limit: z.coerce.number().int().min(1).max(PART_LIST_MAX).optional(),
});
export type PurchaseOrderListQuery = z.output<typeof purchaseOrderListQuery>;
export const purchaseOrderListReply = z.object({
  purchase_orders: z.array(purchaseOrderWire),
  total: z.number().int(),
});
