import { sql } from 'kysely';
import type { Actor } from '../auth/actor.js';
import { type AppContext, DAY } from '../context.js';
import { actOnWorkOrder } from '../modules/work-orders/actions.js';
import { createWorkOrder } from '../modules/work-orders/service.js';

/**
 * The demo fleet's work orders (docs/product.md "Work orders"), so that a newcomer sees the workshop
 * loop: one in progress for the mechanic with a Due service of its truck and brake parts, whose
 * scheduled end has passed (the dashboard's overdue list), and one open for later this week.
 */
export async function seedDemoWorkOrders(ctx: AppContext, manager: Actor, fleetId: number, today: number) {
  const db = ctx.db.kysely;
  const mechanic = await db
    .selectFrom('users')
    .select('id')
    .where('name', '=', 'mechanic')
    .executeTakeFirst();
  const units = await db
    .selectFrom('units')
    .select(['id', 'name'])
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  if (units.length === 0) return;
  // The truck with the most open services gets the overdue one; its first open service is added.
  const open = await db
    .selectFrom('services')
    .select(['id', 'object_id'])
    .where('fleet_id', '=', fleetId)
    .where('object_type', '=', 'u')
    .where(sql<number>`(${sql.ref('f')} & 24)`, '=', 0)
    .orderBy('id')
    .execute();
  const truck = units.find((u) => open.some((s) => s.object_id === u.id)) ?? units[0]!;
  const service = open.find((s) => s.object_id === truck.id);
  const brakes = await createWorkOrder(ctx, manager, fleetId, {
    object_type: 'u',
    object_id: truck.id,
    title: 'Brake check and due service',
    description: 'Driver reports a pull to the left when braking.',
    assignee_id: mechanic?.id ?? null,
    scheduled_start: today - 2 * DAY,
    scheduled_end: today - DAY,
    service_ids: service ? [service.id] : [],
    li: [
      { n: 'Brake pads, front axle', t: 2, q: 1, c: 85 },
      { n: 'Brake fluid DOT 4 (litre)', t: 2, q: 1, c: 12 },
    ],
  });
  await actOnWorkOrder(ctx, manager, fleetId, brakes.id, 'start');
  const other = units.find((u) => u.id !== truck.id) ?? truck;
  await createWorkOrder(ctx, manager, fleetId, {
    object_type: 'u',
    object_id: other.id,
    title: 'Replace wiper blades',
    scheduled_start: today + DAY,
    scheduled_end: today + 3 * DAY,
    li: [{ n: 'Wiper blades (pair)', t: 2, q: 1, c: 24 }],
  });
}
