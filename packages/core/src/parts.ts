import { multiplyThousandths } from './decimal.js';

/**
 * Rules of parts and stock (docs/product.md "Parts and stock"): the purchase-order statuses and their
 * transitions, the moving weighted average cost on receipt, and stock arithmetic. Quantities and money
 * are integer thousandths.
 */

export const PURCHASE_ORDER_STATUSES = [
  'draft',
  'ordered',
  'partly_received',
  'received',
  'cancelled',
] as const;
export type PurchaseOrderStatus = (typeof PURCHASE_ORDER_STATUSES)[number];

export const STOCK_LOCATION_KINDS = ['workshop', 'van', 'store'] as const;
export type StockLocationKind = (typeof STOCK_LOCATION_KINDS)[number];

/** Why stock was adjusted by hand. */
export const ADJUST_REASONS = ['count', 'damage', 'return', 'other'] as const;
export type AdjustReason = (typeof ADJUST_REASONS)[number];

/** What a move is: an adjustment, either side of a transfer, a use on a line, a receipt of a PO. */
export const MOVE_KINDS = ['adjust', 'transfer_out', 'transfer_in', 'use', 'receive'] as const;
export type MoveKind = (typeof MOVE_KINDS)[number];

export type PurchaseOrderAction = 'order' | 'cancel' | 'receive';

/**
 * The status after an action, or null when the action is not allowed from `from`. Receiving needs an
 * ordered (or partly received) order; it ends received when every line is received in full.
 */
export function purchaseOrderTransition(
  from: PurchaseOrderStatus,
  action: PurchaseOrderAction,
  fullyReceived = false,
): PurchaseOrderStatus | null {
  switch (action) {
    case 'order':
      return from === 'draft' ? 'ordered' : null;
    case 'cancel':
      return from === 'draft' || from === 'ordered' ? 'cancelled' : null;
    case 'receive':
      if (from !== 'ordered' && from !== 'partly_received') return null;
      return fullyReceived ? 'received' : 'partly_received';
  }
}

/** Lines and header of a purchase order may be edited only while it is a draft or ordered. */
export const isEditablePurchaseOrder = (s: PurchaseOrderStatus) => s === 'draft' || s === 'ordered';

/**
 * Moving weighted average unit cost after receiving `addQty` at `addCost` onto `onHand` at `average`
 * (all thousandths). Stock at or below zero carries no value: the new cost is the receipt's.
 */
export function averageCostAfterReceipt(
  onHand: number,
  average: number,
  addQty: number,
  addCost: number,
): number {
  if (addQty <= 0) return average;
  if (onHand <= 0) return addCost;
  const total = onHand * average + addQty * addCost;
  return Math.round(total / (onHand + addQty));
}

/** The stock after a move of `delta`, or null when it would go below zero and that is not allowed. */
export function stockAfter(before: number, delta: number, allowNegative: boolean): number | null {
  const after = before + delta;
  if (after < 0 && delta < 0 && !allowNegative) return null;
  return after;
}

/** A low-stock notice is due when a move takes stock from above the threshold to it or under. */
export function crossesLowStock(before: number, after: number, threshold: number | null): boolean {
  return threshold !== null && before > threshold && after <= threshold;
}

/** A line that uses a part: the part, the location and the quantity (thousandths). */
export interface PartUse {
  partId: number;
  locationId: number;
  qty: number;
}

const useKey = (u: Pick<PartUse, 'partId' | 'locationId'>) => `${u.partId}:${u.locationId}`;

/**
 * Stock changes when a set of lines is replaced: per part and location the quantity given back
 * (positive) or taken (negative). Unchanged uses cancel out; zero changes are left out. Gives back first.
 */
export function useDeltas(before: PartUse[], after: PartUse[]): PartUse[] {
  const sums = new Map<string, PartUse>();
  const add = (u: PartUse, sign: number) => {
    const k = useKey(u);
    const cur = sums.get(k) ?? { partId: u.partId, locationId: u.locationId, qty: 0 };
    cur.qty += sign * u.qty;
    sums.set(k, cur);
  };
  for (const u of before) add(u, 1);
  for (const u of after) add(u, -1);
  return [...sums.values()].filter((u) => u.qty !== 0).sort((a, b) => b.qty - a.qty);
}

/** The value of stock: quantity × unit cost, both thousandths, in thousandths (rounded). */
export const stockValue = (qty: number, cost: number) => multiplyThousandths(qty, cost);

/** Whether every line is received in full. */
export const isFullyReceived = (lines: { qty: number; received: number }[]) =>
  lines.every((l) => l.received >= l.qty);
