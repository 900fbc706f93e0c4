import {
  type ComponentAction,
  type ComponentDetailWire,
  type ComponentDismountInput,
  type ComponentMountInput,
  type ComponentState,
  type ComponentTreadInput,
  componentTransition,
  fromThousandths,
  isTreadLow,
  normalizePosition,
  toThousandths,
} from '@fleetkeep/core';
import type { Transaction } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { ComponentRow, Database } from '../../db/schema.js';
import { type UnitOfWork, unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput, notFound } from '../../http/errors.js';
import { componentDetail, loadComponent, treadThreshold } from './load.js';

/**
 * Mounting, dismounting, retiring and tread readings of a component (docs/product.md "Components"),
 * each in one unit of work. The unit's row is locked while a mount checks its position is free (one
 * component per position of a unit; a partial unique index backs it), so two mechanics mounting at
 * the same place get one success and one 409.
 */

type Trx = Transaction<Database>;

async function lockComponent(ctx: AppContext, trx: Trx, fleetId: number, id: number) {
  const row = await ctx.db.ops
    .forUpdate(trx.selectFrom('components').selectAll().where('fleet_id', '=', fleetId).where('id', '=', id))
    .executeTakeFirst();
  return row ?? loadComponent(trx, fleetId, id);
}

/** The next state, or 409 naming the state the component is in. */
function transition(row: ComponentRow, action: ComponentAction): ComponentState {
  const next = componentTransition(row.state as ComponentState, action);
  if (next === null)
    throw conflict(`A component ${row.state === 'stock' ? 'in stock' : row.state} cannot be ${action}ed`, [
      { id: row.id, kind: 'component', reason: 'state', value: row.state },
    ]);
  return next;
}

/** The unit of the fleet, locked; 404 when it is not the fleet's. */
async function lockUnit(ctx: AppContext, trx: Trx, fleetId: number, unitId: number) {
  const unit = await ctx.db.ops
    .forUpdate(
      trx
        .selectFrom('units')
        .select(['id', 'mileage'])
        .where('fleet_id', '=', fleetId)
        .where('id', '=', unitId),
    )
    .executeTakeFirst();
  if (!unit) throw notFound('Unit not found');
  return { id: unit.id, mileage: Number(unit.mileage) };
}

async function setState(trx: Trx, row: ComponentRow, state: ComponentState, at: number) {
  await trx.updateTable('components').set({ state, updated_at: at }).where('id', '=', row.id).execute();
}

/** POST .../mount: a component in stock onto a free position of a unit of the fleet. */
export async function mountComponent(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  input: ComponentMountInput,
): Promise<ComponentDetailWire> {
  await requireFleet(ctx, actor, fleetId, 'component.manage');
  await unitOfWork(ctx, async (trx) => {
    const row = await lockComponent(ctx, trx, fleetId, id);
    const unit = await lockUnit(ctx, trx, fleetId, input.unit_id);
    const next = transition(row, 'mount');
    const position = normalizePosition(row.kind, input.position);
    if (position === null)
      throw invalidInput([
        {
          field: 'body.position',
          message:
            row.kind === 'tyre'
              ? 'A tyre position is an axle (1–6) and a side: L or R, with O or I on a twin axle'
              : 'At most 40 characters',
        },
      ]);
    const taken = await trx
      .selectFrom('component_mounts')
      .select('component_id')
      .where('unit_id', '=', unit.id)
      .where('position', '=', position)
      .where('dismounted_at', 'is', null)
      .executeTakeFirst();
    if (taken)
      throw conflict('Another component is mounted at this position', [
        { id: taken.component_id, kind: 'component', field: 'position', reason: 'taken', value: position },
      ]);
    const at = input.at ?? now();
    await trx
      .insertInto('component_mounts')
      .values({
        component_id: id,
        fleet_id: fleetId,
        unit_id: unit.id,
        position,
        mounted_at: at,
        mount_odometer: input.odometer ?? unit.mileage,
        dismounted_at: null,
        dismount_odometer: null,
      })
      .execute();
    await setState(trx, row, next, now());
  });
  return componentDetail(ctx.db.kysely, fleetId, id);
}

/** Closes the open mount period at the odometer given, else the unit's current mileage. */
async function closeMount(
  ctx: AppContext,
  trx: Trx,
  fleetId: number,
  id: number,
  input: ComponentDismountInput,
) {
  const open = await trx
    .selectFrom('component_mounts')
    .select(['id', 'unit_id', 'mounted_at', 'mount_odometer'])
    .where('component_id', '=', id)
    .where('dismounted_at', 'is', null)
    .executeTakeFirst();
  if (!open) return;
  const unit = await lockUnit(ctx, trx, fleetId, open.unit_id);
  const at = input?.at ?? now();
  const odometer = input?.odometer ?? unit.mileage;
  if (at < Number(open.mounted_at))
    throw invalidInput([{ field: 'body.at', message: 'Must not be before the mounting' }]);
  if (odometer < Number(open.mount_odometer))
    throw invalidInput([
      { field: 'body.odometer', message: 'Must not be less than the odometer at mounting' },
    ]);
  await trx
    .updateTable('component_mounts')
    .set({ dismounted_at: at, dismount_odometer: odometer })
    .where('id', '=', open.id)
    .execute();
}

/** POST .../dismount and .../retire: the open period closed; back to stock, or retired for good. */
export async function dismountComponent(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  input: ComponentDismountInput,
  action: 'dismount' | 'retire',
): Promise<ComponentDetailWire> {
  await requireFleet(ctx, actor, fleetId, 'component.manage');
  await unitOfWork(ctx, async (trx) => {
    const row = await lockComponent(ctx, trx, fleetId, id);
    const next = transition(row, action);
    await closeMount(ctx, trx, fleetId, id, input);
    await setState(trx, row, next, now());
  });
  return componentDetail(ctx.db.kysely, fleetId, id);
}

/** POST .../treads: a reading; under the fleet's threshold it records `component.treadLow`. */
export async function recordTread(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  input: ComponentTreadInput,
): Promise<ComponentDetailWire> {
  await requireFleet(ctx, actor, fleetId, 'component.manage');
  await unitOfWork(ctx, async (trx, work) => {
    const row = await lockComponent(ctx, trx, fleetId, id);
    if (row.state === 'retired')
      throw conflict('The component is retired', [
        { id, kind: 'component', reason: 'state', value: row.state },
      ]);
    const depth = toThousandths(input.depth) ?? 0;
    const at = input.at ?? now();
    await trx
      .insertInto('component_treads')
      .values({ component_id: id, fleet_id: fleetId, depth, at })
      .execute();
    await trx.updateTable('components').set({ updated_at: now() }).where('id', '=', id).execute();
    const threshold = await treadThreshold(trx, fleetId);
    if (isTreadLow(depth, threshold)) await recordLow(trx, work, row, actor, { depth, threshold, at });
  });
  return componentDetail(ctx.db.kysely, fleetId, id);
}

async function recordLow(
  trx: Trx,
  work: UnitOfWork,
  row: ComponentRow,
  actor: Actor,
  r: { depth: number; threshold: number; at: number },
) {
  const open = await trx
    .selectFrom('component_mounts')
    .select(['unit_id', 'position'])
    .where('component_id', '=', row.id)
    .where('dismounted_at', 'is', null)
    .executeTakeFirst();
  await work.record([
    {
      type: 'component.treadLow',
      fid: row.fleet_id,
      at: r.at,
      by: actor.userId,
      componentId: row.id,
      kind: row.kind,
      serial: row.serial,
      unitId: open?.unit_id ?? null,
      position: open?.position ?? null,
      depth: fromThousandths(r.depth),
      threshold: fromThousandths(r.threshold),
    },
  ]);
}
