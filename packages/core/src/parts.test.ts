import { describe, expect, it } from 'vitest';
import {
  averageCostAfterReceipt,
  crossesLowStock,
  isFullyReceived,
  purchaseOrderTransition,
  stockAfter,
  stockValue,
  useDeltas,
} from './parts.js';

describe('parts rules', () => {
  it('moves purchase orders draft → ordered → partly received → received, or cancelled', () => {
    expect(purchaseOrderTransition('draft', 'order')).toBe('ordered');
    expect(purchaseOrderTransition('ordered', 'order')).toBeNull();
    expect(purchaseOrderTransition('draft', 'receive')).toBeNull();
    expect(purchaseOrderTransition('ordered', 'receive')).toBe('partly_received');
    expect(purchaseOrderTransition('partly_received', 'receive', true)).toBe('received');
    expect(purchaseOrderTransition('received', 'receive', true)).toBeNull();
    expect(purchaseOrderTransition('draft', 'cancel')).toBe('cancelled');
    expect(purchaseOrderTransition('ordered', 'cancel')).toBe('cancelled');
    expect(purchaseOrderTransition('partly_received', 'cancel')).toBeNull();
    expect(purchaseOrderTransition('cancelled', 'order')).toBeNull();
  });

  it('keeps a moving weighted average cost on receipt', () => {
    expect(averageCostAfterReceipt(10_000, 10_000, 5_000, 20_000)).toBe(13_333);
    expect(averageCostAfterReceipt(0, 10_000, 5_000, 20_000)).toBe(20_000);
    expect(averageCostAfterReceipt(-2_000, 10_000, 5_000, 20_000)).toBe(20_000);
    expect(averageCostAfterReceipt(10_000, 10_000, 0, 20_000)).toBe(10_000);
  });

  it('refuses stock below zero unless allowed; low stock only when crossing from above', () => {
    expect(stockAfter(1_000, -1_000, false)).toBe(0);
    expect(stockAfter(1_000, -2_000, false)).toBeNull();
    expect(stockAfter(1_000, -2_000, true)).toBe(-1_000);
    expect(stockAfter(-1_000, 500, false)).toBe(-500);
    expect(crossesLowStock(3_000, 2_000, 2_000)).toBe(true);
    expect(crossesLowStock(2_000, 1_000, 2_000)).toBe(false);
    expect(crossesLowStock(3_000, 2_500, 2_000)).toBe(false);
    expect(crossesLowStock(3_000, 0, null)).toBe(false);
  });

  it('nets the uses of replaced lines per part and location, gives first', () => {
    const a = { partId: 1, locationId: 10 };
    const b = { partId: 2, locationId: 10 };
    expect(useDeltas([{ ...a, qty: 2_000 }], [{ ...a, qty: 2_000 }])).toEqual([]);
    expect(useDeltas([{ ...a, qty: 2_000 }], [{ ...a, qty: 3_000 }])).toEqual([{ ...a, qty: -1_000 }]);
    expect(useDeltas([{ ...a, qty: 2_000 }], [{ ...b, qty: 1_000 }])).toEqual([
      { ...a, qty: 2_000 },
      { ...b, qty: -1_000 },
    ]);
    expect(
      useDeltas(
        [],
        [
          { ...a, qty: 1_000 },
          { ...a, qty: 500 },
        ],
      ),
    ).toEqual([{ ...a, qty: -1_500 }]);
  });

  it('values stock and tells a fully received order', () => {
    expect(stockValue(8_000, 16_000)).toBe(128_000);
    expect(stockValue(1_500, 13_333)).toBe(20_000);
    expect(isFullyReceived([{ qty: 5_000, received: 5_000 }])).toBe(true);
    expect(isFullyReceived([{ qty: 5_000, received: 4_000 }])).toBe(false);
  });
});
