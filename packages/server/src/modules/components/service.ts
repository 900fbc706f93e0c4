import {
  BUILTIN_COMPONENT_KINDS,
  type ComponentCreateInput,
  type ComponentDetailWire,
  type ComponentKindsReply,
  type ComponentListQuery,
  type ComponentListReply,
  type ComponentSettingsReply,
  type ComponentUpdateInput,
  fromThousandths,
  toThousandths,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput, notFound } from '../../http/errors.js';
import { componentDetail, componentWires, loadComponent, treadThreshold } from './load.js';

/**
 * Tyres and other components (docs/product.md "Components"). Reading needs `component.view`, every
 * write `component.manage`. Every query filters on the fleet: another fleet's component is not found
 * (404). Mounting, dismounting, retiring and tread readings are in actions.ts.
 */

/** 400 unless `kind` is built in or one the fleet defined. */
async function checkKind(db: Kysely<Database>, fleetId: number, kind: string) {
  if ((BUILTIN_COMPONENT_KINDS as readonly string[]).includes(kind)) return;
  const found = await db
    .selectFrom('component_kinds')
    .select('id')
    .where('fleet_id', '=', fleetId)
    .where('name', '=', kind)
    .executeTakeFirst();
  if (!found) throw invalidInput([{ field: 'body.kind', message: 'Not a component kind of this fleet' }]);
}

const money = (v: number | string | undefined) => (v === undefined ? undefined : (toThousandths(v) ?? 0));

export async function listComponents(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  q: ComponentListQuery,
): Promise<ComponentListReply> {
  await requireFleet(ctx, actor, fleetId, 'component.view');
  const db = ctx.db.kysely;
  let query = db.selectFrom('components').where('components.fleet_id', '=', fleetId);
  if (q.kind !== undefined) query = query.where('components.kind', '=', q.kind);
  if (q.state !== undefined) query = query.where('components.state', '=', q.state);
  if (q.unit_id !== undefined)
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('component_mounts as m')
          .select('m.id')
          .whereRef('m.component_id', '=', 'components.id')
          .where('m.unit_id', '=', q.unit_id!)
          .where('m.dismounted_at', 'is', null),
      ),
    );
  const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const page = await query
    .selectAll('components')
    .orderBy('components.created_at', 'desc')
    .orderBy('components.id', 'desc')
    .limit(q.limit ?? 10_000)
    .offset(q.offset ?? 0)
    .execute();
  return { components: await componentWires(db, fleetId, page), total: Number(n) };
}

export async function getComponent(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'component.view');
  return componentDetail(ctx.db.kysely, fleetId, id);
}

export async function createComponent(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: ComponentCreateInput,
): Promise<ComponentDetailWire> {
  await requireFleet(ctx, actor, fleetId, 'component.manage');
  const id = await unitOfWork(ctx, async (trx) => {
    await checkKind(trx, fleetId, input.kind);
    const at = now();
    const row = await trx
      .insertInto('components')
      .values({
        fleet_id: fleetId,
        kind: input.kind,
        serial: input.serial ?? '',
        brand: input.brand ?? '',
        model: input.model ?? '',
        cost: money(input.cost) ?? 0,
        state: 'stock',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return componentDetail(ctx.db.kysely, fleetId, id);
}

export async function updateComponent(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  input: ComponentUpdateInput,
): Promise<ComponentDetailWire> {
  await requireFleet(ctx, actor, fleetId, 'component.manage');
  await unitOfWork(ctx, async (trx) => {
    await loadComponent(trx, fleetId, id);
    if (input.kind !== undefined) await checkKind(trx, fleetId, input.kind);
    await trx
      .updateTable('components')
      .set({
        kind: input.kind,
        serial: input.serial,
        brand: input.brand,
        model: input.model,
        cost: money(input.cost),
        updated_at: now(),
      })
      .where('fleet_id', '=', fleetId)
      .where('id', '=', id)
      .execute();
  });
  return componentDetail(ctx.db.kysely, fleetId, id);
}

/** DELETE: only a component never mounted; one with a history is retired instead (409). */
export async function deleteComponent(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'component.manage');
  await unitOfWork(ctx, async (trx) => {
    await loadComponent(trx, fleetId, id);
    const mounted = await trx
      .selectFrom('component_mounts')
      .select('id')
      .where('component_id', '=', id)
      .executeTakeFirst();
    if (mounted)
      throw conflict('The component has a mount history: retire it instead', [
        { id, kind: 'component', reason: 'history' },
      ]);
    await trx.deleteFrom('components').where('fleet_id', '=', fleetId).where('id', '=', id).execute();
  });
  return { error: 0 as const };
}

export async function listKinds(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
): Promise<ComponentKindsReply> {
  await requireFleet(ctx, actor, fleetId, 'component.view');
  const kinds = await ctx.db.kysely
    .selectFrom('component_kinds')
    .select(['id', 'name'])
    .where('fleet_id', '=', fleetId)
    .orderBy('name')
    .execute();
  return { builtin: [...BUILTIN_COMPONENT_KINDS], kinds };
}

export async function addKind(ctx: AppContext, actor: Actor, fleetId: number, name: string) {
  await requireFleet(ctx, actor, fleetId, 'component.manage');
  return unitOfWork(ctx, async (trx) => {
    const taken =
      (BUILTIN_COMPONENT_KINDS as readonly string[]).includes(name) ||
      (await trx
        .selectFrom('component_kinds')
        .select('id')
        .where('fleet_id', '=', fleetId)
        .where('name', '=', name)
        .executeTakeFirst());
    if (taken) throw conflict('The kind exists', [{ kind: 'component', reason: 'duplicate', value: name }]);
    const row = await trx
      .insertInto('component_kinds')
      .values({ fleet_id: fleetId, name })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, name };
  });
}

/** DELETE .../kinds/{kid}: a kind no component has (409 otherwise). */
export async function removeKind(ctx: AppContext, actor: Actor, fleetId: number, kindId: number) {
  await requireFleet(ctx, actor, fleetId, 'component.manage');
  await unitOfWork(ctx, async (trx) => {
    const kind = await trx
      .selectFrom('component_kinds')
      .select('name')
      .where('fleet_id', '=', fleetId)
      .where('id', '=', kindId)
      .executeTakeFirst();
    if (!kind) throw notFound('Kind not found');
    const used = await trx
      .selectFrom('components')
      .select('id')
      .where('fleet_id', '=', fleetId)
      .where('kind', '=', kind.name)
      .executeTakeFirst();
    if (used)
      throw conflict('Components have this kind', [
        { kind: 'component', reason: 'in_use', value: kind.name },
      ]);
    await trx.deleteFrom('component_kinds').where('id', '=', kindId).execute();
  });
  return { error: 0 as const };
}

export async function getSettings(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
): Promise<ComponentSettingsReply> {
  await requireFleet(ctx, actor, fleetId, 'component.view');
  return { tread_threshold: fromThousandths(await treadThreshold(ctx.db.kysely, fleetId)) };
}

export async function updateSettings(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  threshold: number | string,
): Promise<ComponentSettingsReply> {
  await requireFleet(ctx, actor, fleetId, 'component.manage');
  const value = toThousandths(threshold) ?? 0;
  await unitOfWork(ctx, async (trx) => {
    await trx.deleteFrom('component_settings').where('fleet_id', '=', fleetId).execute();
    await trx
      .insertInto('component_settings')
      .values({ fleet_id: fleetId, tread_threshold: value })
      .execute();
  });
  return { tread_threshold: fromThousandths(value) };
}
