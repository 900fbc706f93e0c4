import {
  addCalendar,
  type FuelFillingCreateInput,
  type FuelFillingUpdateInput,
  type FuelFillingWire,
  startOfDay,
} from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { reachableUnits, reaches } from '../../auth/reach.js';
import type { AppContext } from '../../context.js';
import { invalidInput, notFound } from '../../http/errors.js';
import { changedFixedFields } from '../../http/fixed-fields.js';
import { OBJECT_NOT_FOUND } from '../../http/object-scope.js';
import { validateCustomValues } from '../customfields/service.js';
import { recordInWork } from '../meter/integrity.js';
import { parsePeriod } from '../statistics/rules.js';
import { toWires } from './load.js';
import { planCreate, planUpdate } from './rules.js';
import {
  addFuelTypes,
  deleteFillingRow,
  fuelContext,
  insertFilling,
  loadFilling,
  runFuelChange,
  throwIssues,
  unitsOf,
  updateFilling,
} from './write.js';

/**
 * Fuel fillings (spec §7 "Fuel fillings", PRODUCT.md "Fuel fillings"). Reading needs viewFuelFilling,
 * writing manageFuelFilling, deleting deleteFuelfilling (spec §6). Every query filters on the fleet:
 * another fleet's filling is not found (404).
 */

/**
 * GET .../fuel-fillings and .../units/{id}/fuel-fillings: the fillings of whole fleet days from `from`
 * to `to` (YYYY-MM-DD or Unix seconds, both days included, at most 366 days), by time.
 */
export async function listFillings(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  from: string,
  to: string,
  unitId?: number,
): Promise<{ fuel_fillings: FuelFillingWire[] }> {
  const access = await requireFleet(ctx, actor, fleetId, 'fuel.view');
  const { fleet } = access;
  const period = parsePeriod(fleet.tz, from, to);
  if (Array.isArray(period)) throw invalidInput(period);
  // An "assigned units only" member lists the fillings of the units assigned now (auth/reach.ts).
  const reach = await reachableUnits(ctx, actor, access);
  if (reach !== null && reach.length === 0) return { fuel_fillings: [] };
  const end = startOfDay(fleet.tz, addCalendar(fleet.tz, period.last, 1, 'd'));
  let query = ctx.db.kysely
    .selectFrom('fuel_fillings')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('filled_at', '>=', period.first)
    .where('filled_at', '<', end);
  if (unitId !== undefined) query = query.where('unit_id', '=', unitId);
  if (reach !== null) query = query.where('unit_id', 'in', reach);
  const rows = await query.orderBy('filled_at').orderBy('id').execute();
  return { fuel_fillings: await toWires(ctx.db.kysely, fleet, rows, true) };
}

export async function getFilling(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  const access = await requireFleet(ctx, actor, fleetId, 'fuel.view');
  const { fleet } = access;
  const row = await loadFilling(ctx.db.kysely, fleetId, id);
  if (!reaches(await reachableUnits(ctx, actor, access), row.unit_id))
    throw notFound('Fuel filling not found');
  return (await toWires(ctx.db.kysely, fleet, [row], false))[0]!;
}

export async function createFilling(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: FuelFillingCreateInput,
): Promise<FuelFillingWire> {
  // Managing fillings, or a driver's add-only right (core needs.ts `fuel.add`), who adds to the units
  // assigned to them only: another unit answers 404 as an unknown one (auth/reach.ts).
  const access = await requireFleet(ctx, actor, fleetId, 'fuel.add');
  const { fleet } = access;
  if (!reaches(await reachableUnits(ctx, actor, access), input.uid)) throw notFound(OBJECT_NOT_FOUND.units);
  const fc = fuelContext(fleet, actor);
  const { wires } = await runFuelChange(ctx, fleet, async (trx, ch, uow) => {
    // customfields: values must be fuel-filling fields of this fleet (read before any write).
    const custom = await validateCustomValues(trx, ctx.db.ops, fleetId, 'f', input.cf);
    const units = await unitsOf(trx, fleetId, [input.uid]);
    const plan = planCreate(fc, input, units.get(input.uid));
    throwIssues([...custom, ...plan.issues]);
    await insertFilling(trx, fc, plan.row, ch);
    await addFuelTypes(trx, fleetId, [plan.row], ch);
    // A mileage entered with the filling is a reading of the unit's meter (source fuel, docs/product.md
    // "Meter integrity"), decided by the same rules as one recorded by hand; the default (the unit's
    // counter) reads nothing new. One the rules refuse (in the future) is not recorded.
    if (input.mileage !== undefined && input.mileage !== null)
      await recordInWork(
        ctx,
        uow,
        actor.userId,
        fleetId,
        input.uid,
        { tm: plan.row.filled_at, cnm: input.mileage },
        'fuel',
      );
  });
  return wires[0]!;
}

export async function updateOne(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  patch: FuelFillingUpdateInput,
): Promise<FuelFillingWire> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fuel.manage');
  const fc = fuelContext(fleet, actor);
  const { wires } = await runFuelChange(ctx, fleet, async (trx, ch) => {
    const custom = await validateCustomValues(trx, ctx.db.ops, fleetId, 'f', patch.cf);
    const existing = await loadFilling(trx, fleetId, id);
    const units = patch.uid === undefined ? new Map() : await unitsOf(trx, fleetId, [patch.uid]);
    const plan = planUpdate(fc, existing, patch, patch.uid === undefined ? undefined : units.get(patch.uid));
    // The creator stays: a different `cid` is refused, not dropped.
    const fixed = changedFixedFields(patch, { cid: existing.creator_id });
    throwIssues([...fixed, ...custom, ...plan.issues]);
    await updateFilling(trx, fc, existing, plan.row, ch);
    if (patch.fuel_type !== undefined)
      await addFuelTypes(trx, fleetId, [{ fuel_type: patch.fuel_type, price: plan.row.price ?? null }], ch);
  });
  return wires[0]!;
}

/** DELETE .../fuel-fillings/{id}: with deleteFuelfilling; its attachments go with it. */
export async function deleteOne(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fuel.delete');
  const fc = fuelContext(fleet, actor);
  await runFuelChange(ctx, fleet, async (trx, ch) => {
    await deleteFillingRow(trx, fc, await loadFilling(trx, fleetId, id), ch);
  });
  return { error: 0 as const };
}
