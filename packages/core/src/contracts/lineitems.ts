import { z } from 'zod';
import { Limits, LineItemKind } from '../constants.js';
import { acceptingReadOnly, decimal3, id } from './common.js';

/**
 * Wire contracts of the line-items library (spec §3 "Line item", §5 "Import: line items", §7 "Line
 * items"; PRODUCT.md "Line-items library") and of the line items that intervals and services carry.
 * Money and quantities are numbers with at most 3 decimals on the wire; requests may also send them as
 * decimal text with a dot (spec §5).
 */

/** Rows of one `POST /api/line_items/batch`. */
export const LINE_ITEM_IMPORT_MAX = 1000;
/** Line items of one interval or service. */
export const LINE_ITEMS_MAX = 100;

const itemName = z.string().trim().min(1).max(Limits.stringMax);

/**
 * Kind of a library item: 1 labour (task), 2 part, 4 fuel (spec §3); the import also names labour or
 * part as text, case-insensitive (spec §5 "Import: line items").
 */
export const lineItemKindInput = z.union([
  z.literal(LineItemKind.task),
  z.literal(LineItemKind.part),
  z.literal(LineItemKind.fuel),
  z.string().refine((s) => /^\s*(labour|labor|part)\s*$/i.test(s), 'Type must be labour or part'),
]);

/** A library item as written: name, kind, cost (per fuel unit for fuel). */
export const lineItemBody = z.object({ n: itemName, t: lineItemKindInput, c: decimal3() });
export type LineItemBody = z.infer<typeof lineItemBody>;

/** `PUT /fleets/{fid}/line_items/{id}`: any of the fields; the record as read is accepted (`id` ignored). */
export const lineItemUpdateBody = acceptingReadOnly(lineItemBody.partial(), ['id']);
export type LineItemUpdateBody = z.infer<typeof lineItemUpdateBody>;

/** One row of the import: the row names its fleet (DESIGN §5, the route has no fleet in its path). */
export const lineItemImportRow = lineItemBody.extend({ fid: id.describe('Fleet of the row') });
export type LineItemImportRow = z.infer<typeof lineItemImportRow>;
export const lineItemImportBody = z.object({
  lineitems: z.array(lineItemImportRow).max(LINE_ITEM_IMPORT_MAX),
});

/** A line of an interval or a service: name, kind 1 labour or 2 part, quantity > 0, unit cost ≥ 0. */
export const lineItemLineInput = z.object({
  n: itemName,
  t: z.union([z.literal(LineItemKind.task), z.literal(LineItemKind.part)]),
  q: decimal3({ positive: true }),
  c: decimal3(),
  pid: id.nullable().optional().describe('Part taken from stock (services and work orders)'),
  slid: id.nullable().optional().describe('Stock location the part is taken from (with pid)'),
});
export type LineItemLineInput = z.infer<typeof lineItemLineInput>;

// --- replies ---

const kindWire = z.number().int().describe('Kind: 1 labour, 2 part, 4 fuel (spec §3)');

/** A library item (spec §3 "Line item"). */
export const lineItemWire = z.object({
  id,
  n: z.string().describe('Name'),
  t: kindWire,
  c: z.number().describe('Cost in the fleet currency (per fuel unit for fuel)'),
});
export type LineItemWire = z.infer<typeof lineItemWire>;

export const lineItemListReply = z.object({ line_items: z.array(lineItemWire) });

/** A fuel type the fuel tab offers to add (no id: it is not in the library yet). */
export const lineItemFuelPresetWire = lineItemWire.omit({ id: true });
export type LineItemFuelPresetWire = z.infer<typeof lineItemFuelPresetWire>;
export const lineItemFuelPresetsReply = z.object({ fuel_presets: z.array(lineItemFuelPresetWire) });

/** A line of an interval or a service as read: name, kind, quantity, unit cost. */
export const lineWire = z.object({
  n: z.string().describe('Name'),
  t: z.number().int().describe('Kind: 1 labour, 2 part'),
  q: z.number().describe('Quantity'),
  c: z.number().describe('Unit cost in the fleet currency'),
  pid: id.optional().describe('Part taken from stock'),
  slid: id.optional().describe('Stock location it is taken from'),
});
export type LineWire = z.infer<typeof lineWire>;
