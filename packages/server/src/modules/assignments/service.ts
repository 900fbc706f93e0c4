import {
  ASSIGNMENTS_LIST_MAX,
  type AssignmentCreateBody,
  type AssignmentListQuery,
  type AssignmentListReply,
  type AssignmentSubject,
  type AssignmentUpdateBody,
  type AssignmentWire,
  clashOf,
  type FieldIssue,
} from '@fleetkeep/core';
import type { Transaction } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { reachableUnits } from '../../auth/reach.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { type UnitOfWork, unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput, notFound } from '../../http/errors.js';
import { refuseChangedFixed } from '../../http/fixed-fields.js';
import { type AssignmentRow, assignmentQuery, assignmentToWire } from './mappers.js';

/**
 * Vehicle assignments (core contracts/assignments.ts; docs/product.md "Vehicle assignments"). Any member
 * reads them (`assignment.view`), an "assigned units only" member those of the units they reach
 * (auth/reach.ts); `assignment.manage` writes. A write locks the unit's row first, so that two writes of
 * one unit run one after the other and the overlap check (core `clashOf`) sees the other's row on both
 * databases.
 */

const NOT_FOUND = 'Vehicle assignment not found';
const CLASH = 'The unit is assigned to another driver at that time';
const END_BEFORE_START = 'The end must come after the start';

/** GET …/vehicle-assignments: newest start first, filtered. */
export async function listAssignments(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  filter: AssignmentListQuery,
): Promise<AssignmentListReply> {
  const access = await requireFleet(ctx, actor, fleetId, 'assignment.view');
  const reach = await reachableUnits(ctx, actor, access);
  if (reach !== null && reach.length === 0) return { assignments: [] };
  const t = now();
  let query = assignmentQuery(ctx.db.kysely, fleetId);
  if (reach !== null) query = query.where('vehicle_assignments.unit_id', 'in', reach);
  if (filter.unit !== undefined) query = query.where('vehicle_assignments.unit_id', '=', filter.unit);
  if (filter.driver !== undefined) query = query.where('vehicle_assignments.user_id', '=', filter.driver);
  if (filter.current === '1')
    query = query
      .where('vehicle_assignments.start_at', '<=', t)
      .where((eb) =>
        eb.or([eb('vehicle_assignments.end_at', 'is', null), eb('vehicle_assignments.end_at', '>', t)]),
      );
  if (filter.current === '0')
    query = query.where((eb) =>
      eb.or([eb('vehicle_assignments.start_at', '>', t), eb('vehicle_assignments.end_at', '<=', t)]),
    );
  const rows = await query
    .orderBy('vehicle_assignments.start_at', 'desc')
    .orderBy('vehicle_assignments.id', 'desc')
    .limit(ASSIGNMENTS_LIST_MAX)
    .execute();
  return { assignments: rows.map((r) => assignmentToWire(r, t)) };
}

async function loadAssignment(
  db: Transaction<Database> | AppContext['db']['kysely'],
  fleetId: number,
  id: number,
) {
  const row = await assignmentQuery(db, fleetId).where('vehicle_assignments.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** GET …/vehicle-assignments/{id}: one the caller reaches (another fleet's, or an unreached unit's: 404). */
export async function getAssignment(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
): Promise<AssignmentWire> {
  const access = await requireFleet(ctx, actor, fleetId, 'assignment.view');
  const row = await loadAssignment(ctx.db.kysely, fleetId, id);
  const reach = await reachableUnits(ctx, actor, access);
  if (reach !== null && !reach.includes(row.unit_id)) throw notFound(NOT_FOUND);
  return assignmentToWire(row, now());
}

/** The driver must be a member of the fleet (400 on `body.drv`). */
async function requireMember(ctx: AppContext, fleetId: number, userId: number): Promise<void> {
  const member = await ctx.db.kysely
    .selectFrom('fleet_users')
    .select('user_id')
    .where('fleet_id', '=', fleetId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!member)
    throw invalidInput([{ field: 'body.drv', message: 'The driver is not a member of the fleet' }]);
}

/** The unit's row, locked for the rest of the transaction; 400 on `body.uid` when not in the fleet. */
async function lockUnit(ctx: AppContext, trx: Transaction<Database>, fleetId: number, unitId: number) {
  const unit = await ctx.db.ops
    .forUpdate(
      trx
        .selectFrom('units')
        .select(['id', 'mileage', 'engine_hours'])
        .where('id', '=', unitId)
        .where('fleet_id', '=', fleetId),
    )
    .executeTakeFirst();
  if (!unit) throw invalidInput([{ field: 'body.uid', message: 'Unknown unit' }]);
  return unit;
}

/** 409 naming the unit's assignment that the span would overlap (core `clashOf`). */
async function refuseClash(
  trx: Transaction<Database>,
  fleetId: number,
  unitId: number,
  span: { id?: number; start: number; end: number | null },
): Promise<void> {
  const others = await trx
    .selectFrom('vehicle_assignments')
    .select(['id', 'start_at', 'end_at'])
    .where('fleet_id', '=', fleetId)
    .where('unit_id', '=', unitId)
    .execute();
  const clash = clashOf(
    span,
    others.map((o) => ({
      id: o.id,
      start: Number(o.start_at),
      end: o.end_at === null ? null : Number(o.end_at),
    })),
  );
  if (clash)
    throw conflict(CLASH, [
      {
        id: clash.id,
        kind: 'assignment',
        field: span.id === undefined ? 'body.st' : 'body.en',
        reason: CLASH,
      },
    ]);
}

function subjectOf(row: AssignmentRow): AssignmentSubject {
  return {
    assignmentId: row.id,
    unitId: row.unit_id,
    driverId: row.user_id,
    start: Number(row.start_at),
    end: row.end_at === null ? null : Number(row.end_at),
  };
}

async function announceChange(
  uow: UnitOfWork,
  actor: Actor,
  fleetId: number,
  type: 'assignment.created' | 'assignment.updated' | 'assignment.deleted',
  row: AssignmentRow,
) {
  await uow.record([{ type, fid: fleetId, at: now(), by: actor.userId, ...subjectOf(row) }]);
  const t = type === 'assignment.created' ? 'c' : type === 'assignment.updated' ? 'u' : 'd';
  uow.emit({ t, s: 'assignment', fid: fleetId, d: { id: row.id, uid: row.unit_id }, by: actor.sessionId });
}

/** POST …/vehicle-assignments: meters not given are the unit's counters now. */
export async function createAssignment(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  body: AssignmentCreateBody,
): Promise<AssignmentWire> {
  await requireFleet(ctx, actor, fleetId, 'assignment.manage');
  await requireMember(ctx, fleetId, body.drv);
  const t = now();
  const start = body.st ?? t;
  if (body.en !== null && body.en <= start)
    throw invalidInput([{ field: 'body.en', message: END_BEFORE_START }]);
  const row = await unitOfWork(ctx, async (trx, uow) => {
    const unit = await lockUnit(ctx, trx, fleetId, body.uid);
    await refuseClash(trx, fleetId, body.uid, { start, end: body.en });
    const ended = body.en !== null;
    const inserted = await trx
      .insertInto('vehicle_assignments')
      .values({
        fleet_id: fleetId,
        unit_id: body.uid,
        user_id: body.drv,
        start_at: start,
        end_at: body.en,
        start_mileage: body.sm ?? unit.mileage,
        start_engine_hours: body.seh ?? unit.engine_hours,
        end_mileage: ended ? (body.em ?? unit.mileage) : null,
        end_engine_hours: ended ? (body.eeh ?? unit.engine_hours) : null,
        created_at: t,
        created_by: actor.userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await loadAssignment(trx, fleetId, inserted.id);
    await announceChange(uow, actor, fleetId, 'assignment.created', row);
    return row;
  });
  return assignmentToWire(row, now());
}

/**
 * PUT …/vehicle-assignments/{id}: an end given to an open assignment takes the unit's counters as the
 * end meters unless the body has them; `en: null` reopens it and drops the end meters.
 */
export async function updateAssignment(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  patch: AssignmentUpdateBody,
): Promise<AssignmentWire> {
  await requireFleet(ctx, actor, fleetId, 'assignment.manage');
  const stored = await loadAssignment(ctx.db.kysely, fleetId, id);
  refuseChangedFixed(patch, assignmentToWire(stored, now()));
  if (patch.drv !== undefined && patch.drv !== stored.user_id) await requireMember(ctx, fleetId, patch.drv);
  const row = await unitOfWork(ctx, async (trx, uow) => {
    const unit = await lockUnit(ctx, trx, fleetId, stored.unit_id);
    const before = await loadAssignment(trx, fleetId, id);
    const start = patch.st ?? Number(before.start_at);
    const end = patch.en === undefined ? (before.end_at === null ? null : Number(before.end_at)) : patch.en;
    const issues: FieldIssue[] = [];
    if (end !== null && end <= start) issues.push({ field: 'body.en', message: END_BEFORE_START });
    if (issues.length) throw invalidInput(issues);
    await refuseClash(trx, fleetId, before.unit_id, { id, start, end });
    const wasOpen = before.end_at === null;
    const endMileage =
      end === null ? null : (patch.em ?? (wasOpen ? unit.mileage : before.end_mileage) ?? unit.mileage);
    const endHours =
      end === null
        ? null
        : (patch.eeh ?? (wasOpen ? unit.engine_hours : before.end_engine_hours) ?? unit.engine_hours);
    await trx
      .updateTable('vehicle_assignments')
      .set({
        user_id: patch.drv ?? before.user_id,
        start_at: start,
        end_at: end,
        start_mileage: patch.sm ?? before.start_mileage,
        start_engine_hours: patch.seh ?? before.start_engine_hours,
        end_mileage: endMileage,
        end_engine_hours: endHours,
      })
      .where('id', '=', id)
      .where('fleet_id', '=', fleetId)
      .execute();
    const row = await loadAssignment(trx, fleetId, id);
    await announceChange(uow, actor, fleetId, 'assignment.updated', row);
    return row;
  });
  return assignmentToWire(row, now());
}

/** DELETE …/vehicle-assignments/{id}. */
export async function deleteAssignment(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'assignment.manage');
  await unitOfWork(ctx, async (trx, uow) => {
    const row = await loadAssignment(trx, fleetId, id);
    await trx
      .deleteFrom('vehicle_assignments')
      .where('id', '=', id)
      .where('fleet_id', '=', fleetId)
      .execute();
    await announceChange(uow, actor, fleetId, 'assignment.deleted', row);
  });
  return { error: 0 as const };
}

/** GET …/assignment-drivers: the fleet's members by name, the driver preset's marked. */
export async function assignableDrivers(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'assignment.manage');
  const rows = await ctx.db.kysely
    .selectFrom('fleet_users')
    .innerJoin('users', 'users.id', 'fleet_users.user_id')
    .select(['users.id', 'users.name', 'users.full_name', 'fleet_users.assigned_only'])
    .where('fleet_users.fleet_id', '=', fleetId)
    .execute();
  const drivers = rows
    .map((r) => ({ id: r.id, nm: r.full_name || r.name, ao: r.assigned_only === 1 }))
    .sort((a, b) => a.nm.localeCompare(b.nm) || a.id - b.id);
  return { drivers };
}
