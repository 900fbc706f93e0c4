import {
  aclSatisfies,
  type FleetEntitiesBody,
  type FleetEntitiesReply,
  type LiveEvent,
  type PersonUpdateBody,
  type PersonWire,
  type UnitListReply,
  type UnitUpdateBody,
  type UnitWire,
  unitListReply,
} from '@fleetkeep/core';
import { loadAccountTree, requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { reachableUnits } from '../../auth/reach.js';
import { type AppContext, now } from '../../context.js';
import type { PersonRow } from '../../db/schema.js';
import { countersChanged } from '../../events/domain.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { accessDenied, conflict, invalidInput, notFound } from '../../http/errors.js';
import type { TaggedList } from '../../http/etag.js';
import { refuseChangedFixed } from '../../http/fixed-fields.js';
import { validateCustomValues } from '../customfields/service.js';
import { dropAssignments, loadIntervals } from '../intervals/store.js';
import { recordCorrection } from '../statistics/counter-days.js';
import { personToWire, round3, unitToWire } from './mappers.js';
import { profileColumns } from './profile.js';

/** Who may edit a service object's profile: the fleet admin and those who manage its maintenance. */

export type PersonKind = 'drivers' | 'trailers';
const COLLECTION = { drivers: 'driver', trailers: 'trailer' } as const;
const OBJECT_TYPE = { units: 'u', drivers: 'd', trailers: 't' } as const;

/**
 * GET /api/fleets/{id}/units as a tagged list (http/etag.ts): the fleet's `units` revision (migration 026)
 * makes the tag, so an unchanged list answers 304 and the body is built once per revision.
 */
export async function fleetUnitsRead(ctx: AppContext, actor: Actor, fleetId: number): Promise<TaggedList> {
  const access = await requireFleet(ctx, actor, fleetId, 'fleet.member');
  // An "assigned units only" member gets the units assigned now (auth/reach.ts), a variant of its own.
  const reach = await reachableUnits(ctx, actor, access);
  return {
    collections: ['units'],
    variant: reach === null ? '' : `reach:${reach.join(',')}`,
    schema: unitListReply,
    build: () => readFleetUnits(ctx, fleetId, reach),
  };
}

async function readFleetUnits(
  ctx: AppContext,
  fleetId: number,
  reach: readonly number[] | null,
): Promise<UnitListReply> {
  if (reach !== null && reach.length === 0) return { units: [] };
  let query = ctx.db.kysely.selectFrom('units').selectAll().where('fleet_id', '=', fleetId);
  if (reach !== null) query = query.where('id', 'in', [...reach]);
  const rows = await query.orderBy('id').execute();
  return { units: rows.map(unitToWire) };
}

/** A list of drivers or trailers under its kind's name (`{drivers: [...]}`). */
type PersonList<K extends PersonKind> = { [key in K]: PersonWire[] };
const personList = <K extends PersonKind>(kind: K, rows: PersonRow[]) =>
  ({ [kind]: rows.map(personToWire) }) as PersonList<K>;

export async function fleetPeople<K extends PersonKind>(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  kind: K,
): Promise<PersonList<K>> {
  const access = await requireFleet(ctx, actor, fleetId, 'fleet.member');
  // An "assigned units only" member reaches no driver or trailer records (auth/reach.ts).
  if ((await reachableUnits(ctx, actor, access)) !== null) return personList(kind, []);
  const table: PersonKind = kind;
  const rows = await ctx.db.kysely
    .selectFrom(table)
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  return personList(kind, rows);
}

/** GET /api/fleets/{id}/user/{drivers|trailers}: those the admin can bind: in this fleet or in none. */
export async function bindablePeople<K extends PersonKind>(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  kind: K,
): Promise<PersonList<K>> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const tree = await loadAccountTree(ctx);
  const accounts = [...tree.byId.keys()].filter((a) => tree.isWithin(fleet.account_id, a));
  const table: PersonKind = kind;
  const rows = await ctx.db.kysely
    .selectFrom(table)
    .selectAll()
    .where('account_id', 'in', accounts)
    .where((eb) => eb.or([eb('fleet_id', '=', fleetId), eb('fleet_id', 'is', null)]))
    .orderBy('id')
    .execute();
  return personList(kind, rows);
}

/**
 * PUT /api/fleets/{id}/entities: the service objects of the fleet, per kind given. Objects listed join,
 * objects of that kind not listed leave. An object belongs to at most one fleet (PRODUCT.md), so one
 * held by another fleet is a conflict. All or nothing.
 */
export async function setEntities(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  binding: FleetEntitiesBody,
): Promise<FleetEntitiesReply> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const tree = await loadAccountTree(ctx);
  const t = now();
  const events: LiveEvent[] = [];
  const errors: { kind: string; id: number; reason: string }[] = [];
  const intervalsChanged: number[] = [];
  const maintenance: LiveEvent[] = [];

  await unitOfWork(ctx, async (trx, uow) => {
    for (const kind of ['units', 'drivers', 'trailers'] as const) {
      const wanted = binding[kind];
      if (!wanted) continue;
      const wantedSet = new Set(wanted);
      const rows = wanted.length
        ? await trx
            .selectFrom(kind)
            .select(['id', 'account_id', 'fleet_id'])
            .where('id', 'in', wanted)
            .execute()
        : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const objectId of wantedSet) {
        const row = byId.get(objectId);
        if (!row || !tree.isWithin(fleet.account_id, row.account_id))
          errors.push({ kind, id: objectId, reason: 'Unknown object' });
        else if (row.fleet_id !== null && row.fleet_id !== fleetId)
          errors.push({ kind, id: objectId, reason: 'Object belongs to another fleet' });
      }
      if (errors.length > 0) continue;
      const current = await trx.selectFrom(kind).select('id').where('fleet_id', '=', fleetId).execute();
      const currentSet = new Set(current.map((r) => r.id));
      const joining = [...wantedSet].filter((x) => !currentSet.has(x));
      const leaving = [...currentSet].filter((x) => !wantedSet.has(x));
      if (leaving.length) {
        await trx.updateTable(kind).set({ fleet_id: null }).where('id', 'in', leaving).execute();
        // Leaving the fleet removes the object's interval assignments (PRODUCT.md "Service objects").
        const dropped = await dropAssignments(trx, fleetId, OBJECT_TYPE[kind], leaving);
        intervalsChanged.push(...dropped.intervalIds);
        for (const id of dropped.serviceIds)
          maintenance.push({ t: 'd', s: 'service', fid: fleetId, d: { id } });
      }
      if (joining.length) {
        if (kind === 'units') {
          // "Actual" counters start at the moment of joining (PRODUCT.md "Service objects and counters").
          await trx
            .updateTable('units')
            .set((eb) => ({
              fleet_id: fleetId,
              joined_at: t,
              base_mileage: eb.ref('mileage'),
              base_engine_hours: eb.ref('engine_hours'),
              pulled_mileage: 0,
              pulled_engine_hours: 0,
            }))
            .where('id', 'in', joining)
            .execute();
        } else {
          await trx.updateTable(kind).set({ fleet_id: fleetId }).where('id', 'in', joining).execute();
        }
      }
      const collection = kind === 'units' ? 'avl_unit' : COLLECTION[kind];
      for (const x of leaving) events.push({ t: 'd', s: collection, fid: fleetId, d: { id: x } });
      if (joining.length) {
        const joined = await trx.selectFrom(kind).selectAll().where('id', 'in', joining).execute();
        for (const row of joined) {
          const d = kind === 'units' ? unitToWire(row as never) : personToWire(row as PersonRow);
          events.push({ t: 'c', s: collection, fid: fleetId, d });
        }
      }
    }
    if (errors.length > 0) throw conflict('Some objects cannot be bound', errors);
    for (const d of await loadIntervals(trx, fleetId, [...new Set(intervalsChanged)]))
      maintenance.push({ t: 'u', s: 'interval', fid: fleetId, d });
    uow.emit(...events, ...maintenance);
  });
  return { error: 0, changed: events.length };
}

type CustomValues = { id: number; v: string }[];

/** Custom field values equal to the stored ones (same fields, values and order)? */
function sameCustomValues(stored: string, given: CustomValues): boolean {
  const current = storedCustomValues(stored);
  return (
    current.length === given.length && current.every((c, i) => c.id === given[i]!.id && c.v === given[i]!.v)
  );
}

function storedCustomValues(text: string): CustomValues {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as CustomValues) : [];
  } catch {
    return [];
  }
}

/**
 * PUT /api/fleets/{fleetId}/units/{id}: profile, unit type, counter corrections (recorded), custom fields.
 * Only what differs from the stored unit is written, so the unit as read (round trip) or a body with
 * nothing to change is a no-op that answers the unit. Counters are compared as they go out (rounded to
 * thousandths), so sending back a read value records no correction.
 */
export async function updateUnit(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  patch: UnitUpdateBody,
): Promise<UnitWire> {
  const { acl, fleet } = await requireFleet(ctx, actor, fleetId, 'object.edit');
  const unit = await ctx.db.kysely
    .selectFrom('units')
    .selectAll()
    .where('id', '=', unitId)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!unit) throw notFound('Unit not found');
  // Fleet and device identifier stay: a different value is refused, not dropped.
  refuseChangedFixed(patch, unitToWire(unit));
  const name = patch.nm !== undefined && patch.nm !== unit.name ? patch.nm : undefined;
  // Renaming is the fleet admin's (PRODUCT.md "Service objects"); the name as read (a round trip) is no
  // rename, so an object editor may write the unit back as it was read.
  if (name !== undefined && !aclSatisfies(acl, 'fleet.admin')) throw accessDenied();
  const type = patch.ut !== undefined && patch.ut !== unit.unit_type_id ? { id: patch.ut } : undefined;
  const mileage = patch.cnm !== undefined && patch.cnm !== round3(unit.mileage) ? patch.cnm : undefined;
  const hours = patch.cneh !== undefined && patch.cneh !== round3(unit.engine_hours) ? patch.cneh : undefined;
  const cf = patch.cf !== undefined && !sameCustomValues(unit.cf, patch.cf) ? patch.cf : undefined;
  // The vehicle profile (docs/product.md "The vehicle profile"): only the fields that differ.
  const profile = profileColumns(patch.vp, fleet.fm, unit);
  const profileChanged = Object.keys(profile).length > 0;
  if (
    name === undefined &&
    !type &&
    mileage === undefined &&
    hours === undefined &&
    cf === undefined &&
    !profileChanged
  ) {
    return unitToWire(unit);
  }
  if (type && type.id !== null) {
    const known = await ctx.db.kysely
      .selectFrom('unit_types')
      .select('id')
      .where('id', '=', type.id)
      .executeTakeFirst();
    if (!known) throw invalidInput([{ field: 'body.ut', message: 'Unknown unit type' }]);
  }
  const t = now();
  let wire: UnitWire | undefined;
  await unitOfWork(ctx, async (trx, uow) => {
    // customfields: values must be unit fields of this fleet; checked in the transaction, before the
    // write, so a concurrent delete of a field cannot leave its value behind.
    const cfIssues = await validateCustomValues(trx, ctx.db.ops, fleetId, 'u', cf);
    if (cfIssues.length) throw invalidInput(cfIssues);
    await trx
      .updateTable('units')
      .set({
        ...(name !== undefined && { name }),
        ...(type && { unit_type_id: type.id }),
        ...(mileage !== undefined && { mileage }),
        ...(hours !== undefined && { engine_hours: hours }),
        ...(cf !== undefined && { cf: JSON.stringify(cf) }),
        ...profile,
      })
      .where('id', '=', unitId)
      .execute();
    const corrections = [
      ...(mileage !== undefined ? [{ field: 'mileage', old_value: unit.mileage, new_value: mileage }] : []),
      ...(hours !== undefined
        ? [{ field: 'engine_hours', old_value: unit.engine_hours, new_value: hours }]
        : []),
    ];
    if (corrections.length) {
      await trx
        .insertInto('counter_corrections')
        .values(corrections.map((c) => ({ ...c, unit_id: unitId, user_id: actor.userId, tm: t })))
        .execute();
      // statistics: a correction is no distance driven (modules/statistics/counter-days.ts).
      await recordCorrection(trx, unitId, {
        mileage: (mileage ?? unit.mileage) - unit.mileage,
        engineHours: (hours ?? unit.engine_hours) - unit.engine_hours,
      });
      // Domain event "counters changed" (events/domain.ts), committed with the correction.
      const counters = { mileage: mileage ?? unit.mileage, engineHours: hours ?? unit.engine_hours };
      await uow.record([countersChanged({ id: unitId, fleetId, ...counters }, t, actor.userId)]);
    }
    uow.afterCommit(async () => {
      const updated = await ctx.db.kysely
        .selectFrom('units')
        .selectAll()
        .where('id', '=', unitId)
        .executeTakeFirstOrThrow();
      wire = unitToWire(updated);
      return [{ t: 'u', s: 'avl_unit', fid: fleetId, d: wire }];
    });
    if (mileage !== undefined || hours !== undefined)
      uow.afterCommit(async () => {
        for (const listener of ctx.countersListeners) await listener([unitId]);
      });
  });
  return wire!;
}

/**
 * PUT /api/drivers/{id} and /api/trailers/{id}: the fleet comes from the record (DESIGN §5). As for
 * units, only what differs is written; the record as read or an empty body is a no-op.
 */
export async function updatePerson(
  ctx: AppContext,
  actor: Actor,
  kind: PersonKind,
  objectId: number,
  patch: PersonUpdateBody,
): Promise<PersonWire> {
  const row = await ctx.db.kysely.selectFrom(kind).selectAll().where('id', '=', objectId).executeTakeFirst();
  // An object outside any fleet, or of a fleet the actor cannot see, answers like a foreign one.
  if (!row || row.fleet_id === null) throw accessDenied();
  await requireFleet(ctx, actor, row.fleet_id, 'object.edit');
  const fleetId = row.fleet_id;
  // The fleet stays (the binding moves objects): a different `fid` is refused, not dropped.
  refuseChangedFixed(patch, personToWire(row));
  const set = {
    ...(patch.n !== undefined && patch.n !== row.name && { name: patch.n }),
    ...(patch.ds !== undefined && patch.ds !== row.ds && { ds: patch.ds }),
    ...(patch.c !== undefined && patch.c !== row.c && { c: patch.c }),
    ...(patch.cf !== undefined && !sameCustomValues(row.cf, patch.cf) && { cf: JSON.stringify(patch.cf) }),
  };
  if (Object.keys(set).length === 0) return personToWire(row);
  let wire: PersonWire | undefined;
  await unitOfWork(ctx, async (trx, uow) => {
    // customfields: values must be driver or trailer fields of this fleet (checked as in updateUnit).
    const values = set.cf !== undefined ? patch.cf : undefined;
    const cfIssues = await validateCustomValues(trx, ctx.db.ops, fleetId, OBJECT_TYPE[kind], values);
    if (cfIssues.length) throw invalidInput(cfIssues);
    await trx.updateTable(kind).set(set).where('id', '=', objectId).execute();
    uow.afterCommit(async () => {
      const updated = await ctx.db.kysely
        .selectFrom(kind)
        .selectAll()
        .where('id', '=', objectId)
        .executeTakeFirstOrThrow();
      wire = personToWire(updated);
      return [{ t: 'u', s: COLLECTION[kind], fid: fleetId, d: wire }];
    });
  });
  return wire!;
}

/**
 * POST /api/fleets/{id}/pullcounters: counts the history before joining into the "actual" counters
 * (PRODUCT.md): the pulled part becomes what the unit had at joining.
 */
export async function pullCounters(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitIds?: number[],
): Promise<UnitListReply> {
  await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  if (unitIds?.length === 0) return { units: [] };
  return unitOfWork(ctx, async (trx, uow) => {
    let query = trx
      .updateTable('units')
      .set((eb) => ({
        pulled_mileage: eb.ref('base_mileage'),
        pulled_engine_hours: eb.ref('base_engine_hours'),
      }))
      .where('fleet_id', '=', fleetId);
    if (unitIds) query = query.where('id', 'in', unitIds);
    await query.execute();
    let select = trx.selectFrom('units').selectAll().where('fleet_id', '=', fleetId);
    if (unitIds) select = select.where('id', 'in', unitIds);
    const units = (await select.orderBy('id').execute()).map(unitToWire);
    uow.emit(...units.map((d) => ({ t: 'u', s: 'avl_unit', fid: fleetId, d }) as const));
    return { units };
  });
}
