import type { Actor } from '../auth/actor.js';
import type { AppContext } from '../context.js';
import { createLocation } from '../modules/parts/locations.js';
import { actOnOrder, createOrder, receiveOrder } from '../modules/parts/orders.js';
import { adjustPart, createPart, setThreshold } from '../modules/parts/service.js';

/**
 * The demo fleet's parts (docs/product.md "Parts and stock"): a workshop and a van, three parts with
 * stock and a low-stock threshold, and one purchase order of filters, ordered and half received.
 */
export async function seedDemoParts(ctx: AppContext, manager: Actor, fleetId: number) {
  const workshop = await createLocation(ctx, manager, fleetId, { name: 'Main workshop', kind: 'workshop' });
  const van = await createLocation(ctx, manager, fleetId, { name: 'Service van 1', kind: 'van' });
  const oil = await createPart(ctx, manager, fleetId, {
    number: 'OF-1001',
    name: 'Oil filter',
    manufacturer: 'Mann',
    unit: 'pcs',
    cost: 12.5,
  });
  const pads = await createPart(ctx, manager, fleetId, {
    number: 'BP-2040',
    name: 'Brake pads (axle set)',
    manufacturer: 'Bosch',
    unit: 'set',
    cost: 48,
  });
  const fluid = await createPart(ctx, manager, fleetId, {
    number: 'AB-5W30',
    name: 'Engine oil 5W-30',
    manufacturer: 'Castrol',
    unit: 'l',
    cost: 7.2,
  });
  await adjustPart(ctx, manager, fleetId, oil.id, { location_id: workshop.id, delta: 8, reason: 'count' });
  await adjustPart(ctx, manager, fleetId, pads.id, { location_id: workshop.id, delta: 3, reason: 'count' });
  await adjustPart(ctx, manager, fleetId, fluid.id, { location_id: workshop.id, delta: 60, reason: 'count' });
  await adjustPart(ctx, manager, fleetId, oil.id, { location_id: van.id, delta: 2, reason: 'count' });
  await setThreshold(ctx, manager, fleetId, pads.id, workshop.id, 2);
  const order = await createOrder(ctx, manager, fleetId, {
    vendor: 'Nordic Truck Parts',
    location_id: workshop.id,
    lines: [
      { part_id: oil.id, qty: 10, cost: 11.8 },
      { part_id: pads.id, qty: 4, cost: 46 },
    ],
  });
  await actOnOrder(ctx, manager, fleetId, order.id, 'order');
  const first = order.lines[0];
  if (first)
    await receiveOrder(ctx, manager, fleetId, order.id, {
      location_id: workshop.id,
      lines: [{ line_id: first.id, qty: 10 }],
    });
}
