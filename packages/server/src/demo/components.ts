import { axleLayout, layoutPositions } from '@fleetkeep/core';
import type { Actor } from '../auth/actor.js';
import { type AppContext, DAY } from '../context.js';
import { mountComponent, recordTread } from '../modules/components/actions.js';
import { createComponent } from '../modules/components/service.js';

/**
 * The demo fleet's components (docs/product.md "Components"): four tyres mounted on its first car or van
 * three months ago (8,000 km before its current mileage, when it had run that far), with tread
 * readings then and now; a spare tyre in stock; a battery in the engine bay.
 */
export async function seedDemoComponents(ctx: AppContext, manager: Actor, fleetId: number, today: number) {
  const units = await ctx.db.kysely
    .selectFrom('units')
    .select(['id', 'mileage', 'unit_type_id'])
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  // A car or van (four tyres on its diagram), else the first unit.
  const unit = units.find((u) => layoutPositions(axleLayout(u.unit_type_id)).length === 4) ?? units[0];
  if (!unit) return;
  const positions = layoutPositions(axleLayout(unit.unit_type_id)).slice(0, 4);
  const mileage = Number(unit.mileage);
  const odometer = Math.max(0, Math.round(mileage - 8000));
  const at = today - 90 * DAY;
  const tyre = { kind: 'tyre', brand: 'Michelin', model: 'Agilis 215/65 R16', cost: 142.5 };
  for (const [i, position] of positions.entries()) {
    const made = await createComponent(ctx, manager, fleetId, { ...tyre, serial: `DOT 3X4R 21${i}4` });
    await mountComponent(ctx, manager, fleetId, made.id, { unit_id: unit.id, position, odometer, at });
    await recordTread(ctx, manager, fleetId, made.id, { depth: 8, at });
    await recordTread(ctx, manager, fleetId, made.id, { depth: i === 3 ? 4.5 : 5.5, at: today });
  }
  await createComponent(ctx, manager, fleetId, { ...tyre, serial: 'DOT 3X4R 2224' });
  const battery = await createComponent(ctx, manager, fleetId, {
    kind: 'battery',
    serial: 'VARTA-E44-0921',
    brand: 'Varta',
    model: 'Blue Dynamic E44 77 Ah',
    cost: 129,
  });
  await mountComponent(ctx, manager, fleetId, battery.id, {
    unit_id: unit.id,
    position: 'Engine bay',
    odometer,
    at,
  });
}
