import {
  type FuelFillingWire,
  LineItemKind,
  type LiveEvent,
  type NewDomainEvent,
  startOfDay,
} from '@fleetkeep/core';
import type { Kysely, Updateable } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, DAY, now } from '../../context.js';
import type { Database, FleetRow, FuelFillingRow, FuelFillingTable, LineItemRow } from '../../db/schema.js';
import { committed } from '../../db/yield.js';
import { recordDomainEvents } from '../../events/outbox.js';
import { type UnitOfWork, unitOfWork } from '../../events/unit-of-work.js';
import { invalidInput, notFound } from '../../http/errors.js';
import { ensureLibraryItems, type Issue } from '../lineitems/library.js';
import { libraryItemToWire } from '../maintenance-wire.js';
import { applyCostDelta, fuelContribution } from '../statistics/cost-days.js';
import { ATTACHMENT_OWNER, type FleetUnits, wiresByIds } from './load.js';
import { type FuelContext, type FuelInsert, figuresOf, type UnitState } from './rules.js';

/**
 * Writes of fuel fillings: one transaction holding the rows, their domain events (core
 * domain-events.ts `fuel.*`, for the statistics that follow) and new fuel types of the library; after
 * commit the live events of the `fuelfilling` collection (DESIGN §6) and of new library items.
 */

export function fuelContext(fleet: FleetRow, actor: Actor): FuelContext {
  const t = now();
  // Six hours past the start of today is inside today whatever the daylight-saving shift.
  const tomorrow = startOfDay(fleet.tz, startOfDay(fleet.tz, t) + DAY + 6 * 3600);
  return { fleetId: fleet.id, tz: fleet.tz, fm: fleet.fm, now: t, tomorrow, actorId: actor.userId };
}

/** What a write changed, published after commit. */
export class FuelChanges {
  readonly created = new Set<number>();
  readonly updated = new Set<number>();
  readonly deleted = new Set<number>();
  /** The unit of each deleted filling, for the live event (events/visibility.ts). */
  readonly deletedUnits = new Map<number, number>();
  readonly library: LineItemRow[] = [];
}

/** Throws the invalid fields (400), batch rows' in the order of their rows. */
export function throwIssues(issues: Issue[]) {
  if (issues.length) throw invalidInput([...issues].sort((a, b) => (a.row ?? 0) - (b.row ?? 0)));
}

/** The units of the fleet among `ids`, with their mileage (km), read in the write's transaction. */
export async function unitsOf(trx: Kysely<Database>, fleetId: number, ids: number[]) {
  const out = new Map<number, UnitState>();
  const wanted = [...new Set(ids)];
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await trx
      .selectFrom('units')
      .select(['id', 'mileage'])
      .where('fleet_id', '=', fleetId)
      .where('id', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.id, { mileage: r.mileage });
  }
  return out;
}

/** Fuel types not yet in the fleet library's fuel tab join it, priced as filled (PRODUCT.md). */
export async function addFuelTypes(
  trx: Kysely<Database>,
  fleetId: number,
  rows: { fuel_type: string; price: number | null }[],
  ch: FuelChanges,
) {
  const items = rows
    .filter((r) => r.fuel_type.trim() !== '')
    .map((r) => ({ name: r.fuel_type, kind: LineItemKind.fuel, cost: r.price ?? 0 }));
  ch.library.push(...(await ensureLibraryItems(trx, fleetId, items)));
}

export async function loadFilling(db: Kysely<Database>, fleetId: number, id: number) {
  const row = await db
    .selectFrom('fuel_fillings')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('id', '=', id)
    .executeTakeFirst();
  // A filling of another fleet answers like a missing one.
  if (!row) throw notFound('Fuel filling not found');
  return row;
}

export const eventBase = (fc: FuelContext) => ({ fid: fc.fleetId, at: fc.now, by: fc.actorId });

export async function insertFilling(
  trx: Kysely<Database>,
  fc: FuelContext,
  row: FuelInsert,
  ch: FuelChanges,
) {
  const { id } = await trx.insertInto('fuel_fillings').values(row).returning('id').executeTakeFirstOrThrow();
  ch.created.add(id);
  await recordDomainEvents(trx, [
    { type: 'fuel.created', ...eventBase(fc), fillingId: id, ...figuresOf(row) },
  ]);
  // statistics: the daily cost aggregates, in this transaction (modules/statistics/cost-days.ts).
  await applyCostDelta(trx, null, fuelContribution(fc.fleetId, fc.tz, figuresOf(row)));
  return id;
}

export async function updateFilling(
  trx: Kysely<Database>,
  fc: FuelContext,
  existing: FuelFillingRow,
  set: Updateable<FuelFillingTable>,
  ch: FuelChanges,
) {
  await trx.updateTable('fuel_fillings').set(set).where('id', '=', existing.id).execute();
  ch.updated.add(existing.id);
  const after = { ...existing, ...set } as FuelFillingRow;
  const event: NewDomainEvent = {
    type: 'fuel.updated',
    ...eventBase(fc),
    fillingId: existing.id,
    ...figuresOf(after),
    before: figuresOf(existing),
  };
  await recordDomainEvents(trx, [event]);
  // statistics: the daily cost aggregates, in this transaction (modules/statistics/cost-days.ts).
  await applyCostDelta(
    trx,
    fuelContribution(fc.fleetId, fc.tz, figuresOf(existing)),
    fuelContribution(fc.fleetId, fc.tz, figuresOf(after)),
  );
}

export async function deleteFillingRow(
  trx: Kysely<Database>,
  fc: FuelContext,
  existing: FuelFillingRow,
  ch: FuelChanges,
) {
  await trx
    .deleteFrom('attachments')
    .where('fleet_id', '=', fc.fleetId)
    .where('owner_type', '=', ATTACHMENT_OWNER)
    .where('owner_id', '=', existing.id)
    .execute();
  await trx.deleteFrom('fuel_fillings').where('id', '=', existing.id).execute();
  ch.deleted.add(existing.id);
  ch.deletedUnits.set(existing.id, existing.unit_id);
  await recordDomainEvents(trx, [
    { type: 'fuel.deleted', ...eventBase(fc), fillingId: existing.id, ...figuresOf(existing) },
  ]);
  // statistics: the daily cost aggregates, in this transaction (modules/statistics/cost-days.ts).
  await applyCostDelta(trx, fuelContribution(fc.fleetId, fc.tz, figuresOf(existing)), null);
}

/**
 * Runs a write as one unit of work (events/unit-of-work.ts); after the commit it publishes new library
 * items and the created, updated and deleted fillings, then the outbox (the domain events the write
 * recorded). Returns the changed fillings.
 */
export async function runFuelChange<T>(
  ctx: AppContext,
  fleet: FleetUnits,
  write: (trx: Kysely<Database>, ch: FuelChanges, uow: UnitOfWork) => Promise<T>,
): Promise<{ result: T; wires: FuelFillingWire[] }> {
  const ch = new FuelChanges();
  let wires: FuelFillingWire[] = [];
  const fid = fleet.id;
  const result = await unitOfWork(ctx, async (trx, uow) => {
    const r = await write(trx, ch, uow);
    uow.recorded();
    uow.afterCommit(async () => {
      committed(ch.created.size + ch.updated.size); // an import's progress bar (db/yield.ts)
      const ids = [...ch.created, ...ch.updated].filter((id) => !ch.deleted.has(id));
      wires = ids.length ? await wiresByIds(ctx.db.kysely, fleet, ids) : [];
      return [
        ...ch.library.map((item) => ({ t: 'c', s: 'lineitem', fid, d: libraryItemToWire(item) }) as const),
        ...wires.map((d) => ({ t: ch.created.has(d.id) ? 'c' : 'u', s: 'fuelfilling', fid, d }) as const),
        ...[...ch.deleted].map((id): LiveEvent => {
          const unit = ch.deletedUnits.get(id);
          return { t: 'd', s: 'fuelfilling', fid, d: { id }, ...(unit ? { on: { t: 'u', id: unit } } : {}) };
        }),
      ];
    });
    return r;
  });
  return { result, wires };
}
