import {
  type LiveEvent,
  type ObjectDeleteReply,
  type ObjectType,
  type PersonCreateBody,
  type PersonWire,
  ServiceFlag,
  type UnitCreateBody,
  type UnitDeviceBody,
  type UnitListReply,
  type UnitWire,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { loadAccountTree, requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { isUniqueViolation } from '../../db/dialect/index.js';
import type { Database } from '../../db/schema.js';
import { type UnitOfWork, unitOfWork } from '../../events/unit-of-work.js';
import { accessDenied, conflict, invalidInput, notFound } from '../../http/errors.js';
import { removeObjectDocuments } from '../documents/service.js';
import { dropAssignments, loadIntervals } from '../intervals/store.js';
import { removeObjectIssues } from '../issues/remove.js';
import { releaseServiceParts } from '../parts/stock.js';
import { trackServices } from '../statistics/cost-days.js';
import { personToWire, unitToWire } from './mappers.js';
import type { PersonKind } from './objects.js';
import { UNIT_ATTACHMENT_OWNER } from './photo.js';
import { insertUnit } from './unit-insert.js';

/**
 * Creating and removing service objects (PRODUCT.md "Service objects and
 * counters"): units, drivers and trailers of a fleet, made by its admin in the fleet's account.
 */

type Db = Kysely<Database>;
type Event = LiveEvent;

const COLLECTION = { drivers: 'driver', trailers: 'trailer' } as const;
const PERSON_TYPE = { drivers: 'd', trailers: 't' } as const;

export const DUPLICATE_DEVICE = 'Device identifier is already in use';

/** 409 error 10 naming the field, for a device identifier another unit of the installation has. */
const duplicateDevice = () => conflict(DUPLICATE_DEVICE, [{ field: 'body.uid', reason: DUPLICATE_DEVICE }]);

/** Refuses (409) a device identifier some unit of the installation already has. */
async function requireFreeDevice(ctx: AppContext, deviceId: string): Promise<void> {
  const taken = await ctx.db.kysely
    .selectFrom('units')
    .select('id')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  if (taken) throw duplicateDevice();
}

/** Awaits a write that sets a device identifier: when two requests race for one, the unique index decides. */
async function writeUnique<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateDevice();
    throw err;
  }
}

async function requireKnownUnitType(db: Db, unitType: number | null): Promise<void> {
  if (unitType === null) return;
  const known = await db.selectFrom('unit_types').select('id').where('id', '=', unitType).executeTakeFirst();
  if (!known) throw invalidInput([{ field: 'body.ut', message: 'Unknown unit type' }]);
}

/**
 * PUT /api/fleets/{fid}/units/{id}/device: the unit's new device identifier (admin). Readings are matched
 * to units by device identifier per batch (telematics/store.ts), so the next reading of the new tracker
 * reaches the unit and the old identifier is free for another unit at once.
 */
export async function changeUnitDevice(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  body: UnitDeviceBody,
): Promise<UnitWire> {
  await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const unit = await ctx.db.kysely
    .selectFrom('units')
    .selectAll()
    .where('id', '=', unitId)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!unit) throw notFound('Unit not found');
  if (unit.device_id === body.uid) return unitToWire(unit);
  await requireFreeDevice(ctx, body.uid);
  const wire = unitToWire({ ...unit, device_id: body.uid });
  await writeUnique(
    unitOfWork(ctx, async (trx, uow) => {
      await trx.updateTable('units').set({ device_id: body.uid }).where('id', '=', unitId).execute();
      uow.emit({ t: 'u', s: 'avl_unit', fid: fleetId, d: wire });
    }),
  );
  return wire;
}

/**
 * POST /api/fleets/{id}/units: a unit of the fleet's account in the fleet. The device identifier is
 * unique across the installation (409 error 10). A starting mileage or engine hours is a hand correction
 * from 0, recorded with who and when like `PUT .../units/{id}`, and is the unit's counter at joining, so
 * its "actual" counters start at 0 until the history is pulled (PRODUCT.md "Service objects and counters").
 */
export async function createUnit(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  body: UnitCreateBody,
): Promise<UnitWire> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  await requireKnownUnitType(ctx.db.kysely, body.ut);
  await requireFreeDevice(ctx, body.uid);
  let wire: UnitWire | undefined;
  await writeUnique(
    unitOfWork(ctx, async (trx, uow) => {
      const id = await insertUnit(trx, actor, fleet, body, now());
      uow.afterCommit(async () => {
        wire = unitToWire(
          await ctx.db.kysely.selectFrom('units').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
        );
        return [{ t: 'c', s: 'avl_unit', fid: fleetId, d: wire }];
      });
    }),
  );
  return wire!;
}

/** POST /api/fleets/{id}/drivers and /trailers: a driver or trailer of the fleet's account in the fleet. */
export async function createPerson(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  kind: PersonKind,
  body: PersonCreateBody,
): Promise<PersonWire> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  return unitOfWork(ctx, async (trx, uow) => {
    const row = await trx
      .insertInto(kind)
      .values({
        account_id: fleet.account_id,
        fleet_id: fleetId,
        name: body.n,
        ds: body.ds,
        c: body.c,
        cf: '[]',
        ins: 0,
        created_at: now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const wire = personToWire(row);
    uow.emit({ t: 'c', s: COLLECTION[kind], fid: fleetId, d: wire });
    return wire;
  });
}

const IN_PROGRESS = ServiceFlag.inProgress;
const ARCHIVED = ServiceFlag.closed | ServiceFlag.rejected;

/**
 * The removal rule of PRODUCT.md "Service objects and counters", for an object that is deleted: its
 * interval assignments go with their Due services (`dropAssignments`, as when it leaves the fleet), and
 * so do its other open services, which nothing would ever close; its archived services stay unless
 * `withArchive`. An object with a service in progress is refused (409): that work is finished or
 * rejected first. Returns the intervals whose lists changed and the services removed.
 */
async function removeObjectServices(
  trx: Db,
  fleetId: number,
  type: ObjectType,
  objectId: number,
  withArchive: boolean,
): Promise<{ intervalIds: number[]; serviceIds: number[] }> {
  const services = await trx
    .selectFrom('services')
    .select(['id', 'f'])
    .where('fleet_id', '=', fleetId)
    .where('object_type', '=', type)
    .where('object_id', '=', objectId)
    .execute();
  if (services.some((s) => (s.f & IN_PROGRESS) !== 0 && (s.f & ARCHIVED) === 0))
    throw conflict('A service of this object is in progress');
  const dropped = await dropAssignments(trx, fleetId, type, [objectId]);
  const droppedSet = new Set(dropped.serviceIds);
  const more = services
    .filter((s) => !droppedSet.has(s.id))
    .filter((s) => withArchive || (s.f & ARCHIVED) === 0)
    .map((s) => s.id);
  if (more.length) {
    // Parts their lines took go back to stock (modules/parts).
    await releaseServiceParts(trx, { fleetId, by: null, at: now() }, more);
    const costs = await trackServices(trx, more); // statistics: deleted closed services
    await trx
      .deleteFrom('attachments')
      .where('owner_type', '=', 'service')
      .where('owner_id', 'in', more)
      .execute();
    await trx.deleteFrom('services').where('id', 'in', more).execute();
    await costs.done(); // statistics
  }
  return { intervalIds: dropped.intervalIds, serviceIds: [...dropped.serviceIds, ...more] };
}

/** Live events of a removal, after commit: the object, its removed services, the changed intervals. */
function announceRemoval(
  uow: UnitOfWork,
  ctx: AppContext,
  fleetId: number,
  object: Event,
  removed: { intervalIds: number[]; serviceIds: number[] },
): void {
  uow.emit(
    object,
    ...removed.serviceIds.map((id) => ({ t: 'd', s: 'service', fid: fleetId, d: { id } }) as const),
  );
  uow.afterCommit(async () =>
    (await loadIntervals(ctx.db.kysely, fleetId, [...new Set(removed.intervalIds)])).map(
      (d) => ({ t: 'u', s: 'interval', fid: fleetId, d }) as const,
    ),
  );
}

/** DELETE /api/fleets/{fid}/units/{id}: the unit, its readings and counter history, by the removal rule. */
export async function deleteUnit(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  withArchive: boolean,
): Promise<ObjectDeleteReply> {
  await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const removed = await unitOfWork(ctx, async (trx, uow) => {
    const unit = await trx
      .selectFrom('units')
      .select('id')
      .where('id', '=', unitId)
      .where('fleet_id', '=', fleetId)
      .executeTakeFirst();
    if (!unit) throw notFound('Unit not found');
    const result = await removeObjectServices(trx, fleetId, 'u', unitId, withArchive);
    await removeObjectIssues(uow, fleetId, 'u', unitId, actor.userId);
    await removeObjectDocuments(trx, fleetId, 'u', unitId);
    // Positions, the ingest log, corrections and counter days go with the unit (foreign keys cascade);
    // its photo is a row of the generic attachments table (no foreign key), removed here.
    await trx
      .deleteFrom('attachments')
      .where('fleet_id', '=', fleetId)
      .where('owner_type', '=', UNIT_ATTACHMENT_OWNER)
      .where('owner_id', '=', unitId)
      .execute();
    await trx.deleteFrom('units').where('id', '=', unitId).execute();
    announceRemoval(uow, ctx, fleetId, { t: 'd', s: 'avl_unit', fid: fleetId, d: { id: unitId } }, result);
    return result;
  });
  return { error: 0, services: removed.serviceIds.length };
}

/**
 * DELETE /api/drivers/{id} and /api/trailers/{id}: the fleet comes from the record (DESIGN §5); one in no
 * fleet, or of a fleet the caller cannot administer, answers like a foreign one (403).
 */
export async function deletePerson(
  ctx: AppContext,
  actor: Actor,
  kind: PersonKind,
  objectId: number,
  withArchive: boolean,
): Promise<ObjectDeleteReply> {
  const row = await ctx.db.kysely
    .selectFrom(kind)
    .select('fleet_id')
    .where('id', '=', objectId)
    .executeTakeFirst();
  if (!row || row.fleet_id === null) throw accessDenied();
  const fleetId = row.fleet_id;
  await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const removed = await unitOfWork(ctx, async (trx, uow) => {
    const result = await removeObjectServices(trx, fleetId, PERSON_TYPE[kind], objectId, withArchive);
    await removeObjectIssues(uow, fleetId, PERSON_TYPE[kind], objectId, actor.userId);
    await removeObjectDocuments(trx, fleetId, PERSON_TYPE[kind], objectId);
    const gone = await trx
      .deleteFrom(kind)
      .where('id', '=', objectId)
      .where('fleet_id', '=', fleetId)
      .executeTakeFirst();
    // Moved out of the fleet meanwhile: nothing of another fleet is touched.
    if (Number(gone.numDeletedRows) === 0) throw accessDenied();
    const object: Event = { t: 'd', s: COLLECTION[kind], fid: fleetId, d: { id: objectId } };
    announceRemoval(uow, ctx, fleetId, object, result);
    return result;
  });
  return { error: 0, services: removed.serviceIds.length };
}

/**
 * GET /api/fleets/{id}/user/units: the units the admin can bind (the objects screen's "available" list):
 * units of the fleet's account, or one below it, in this fleet or in none.
 */
export async function bindableUnits(ctx: AppContext, actor: Actor, fleetId: number): Promise<UnitListReply> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const tree = await loadAccountTree(ctx);
  const accounts = [...tree.byId.keys()].filter((a) => tree.isWithin(fleet.account_id, a));
  const rows = await ctx.db.kysely
    .selectFrom('units')
    .selectAll()
    .where('account_id', 'in', accounts)
    .where((eb) => eb.or([eb('fleet_id', '=', fleetId), eb('fleet_id', 'is', null)]))
    .orderBy('id')
    .execute();
  return { units: rows.map(unitToWire) };
}
