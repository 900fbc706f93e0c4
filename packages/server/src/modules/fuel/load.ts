import {
  convertPrice,
  convertVolume,
  type FuelFillingWire,
  type FuelPoint,
  fillingConsumptions,
  fromThousandths,
} from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import { chunks } from '../../db/lookups.js';
import type { Database, FuelFillingRow } from '../../db/schema.js';
import { fuelUnitOf } from './rules.js';

/**
 * Fuel fillings as read (PRODUCT.md "Fuel fillings"): rows to wires in the fleet's fuel unit, with their
 * attachment counts and the consumption of full-tank fillings. A filling's consumption depends on the
 * fillings before it back to the last full tank, which a list may not hold: those are read too, with
 * index seeks per unit (`fuel_fillings_unit_full`, `fuel_fillings_unit_time`).
 */

/** The attachments' owner type of fuel fillings in the generic table (migration 003). */
export const ATTACHMENT_OWNER = 'fuel';

/** The fleet settings a read needs: its fuel unit and measure system (spec §3 `fm`, `ms`). */
export interface FleetUnits {
  id: number;
  fm: number;
  ms: number;
}

const CHUNK = 500;
/**
 * Full tanks, as the literal condition of the partial index `fuel_fillings_unit_full` (migration 011)
 * so that both dialects can use it: a bound `1` would not match.
 */
const FULL_TANK = sql<boolean>`${sql.ref('full_tank')} = 1`;
/**
 * The fleet filter of the per-unit context queries, written `+fleet_id` so that the planner does not pick the
 * fleet's time index (`fuel_fillings_fleet_time`, a scan of every filling of a large fleet) over the unit
 * indexes those queries are made for; found in the 1,000,000-filling statistics bench, where one filling's
 * write took 1-2 s on SQLite. The rows are the same: the unit ids of the OR already belong to the fleet.
 */
const SAME_FLEET = (fleetId: number) => sql<boolean>`+${sql.ref('fleet_id')} = ${fleetId}`;
/** Units per query of the consumption context (three bound values each). */
const UNIT_CHUNK = 200;

async function attachmentCounts(db: Kysely<Database>, fleetId: number, ids: number[]) {
  const out = new Map<number, number>();
  for (const part of chunks(ids, CHUNK)) {
    const rows = await db
      .selectFrom('attachments')
      .select(['owner_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('fleet_id', '=', fleetId)
      .where('owner_type', '=', ATTACHMENT_OWNER)
      .where('owner_id', 'in', part)
      .groupBy('owner_id')
      .execute();
    for (const r of rows) out.set(r.owner_id, Number(r.n));
  }
  return out;
}

interface Span {
  unitId: number;
  first: number;
  last: number;
}

/**
 * The fillings consumption needs besides `rows`: per unit, those from its last full tank with mileage
 * before its first row (where every stretch ending in the rows starts), and when the rows are not every
 * filling of their span (`complete` false), the ones between its first and last row.
 */
async function contextRows(
  db: Kysely<Database>,
  fleetId: number,
  rows: FuelFillingRow[],
  complete: boolean,
): Promise<FuelFillingRow[]> {
  const spans = new Map<number, Span>();
  for (const r of rows) {
    const s = spans.get(r.unit_id);
    if (!s) spans.set(r.unit_id, { unitId: r.unit_id, first: r.filled_at, last: r.filled_at });
    else {
      s.first = Math.min(s.first, r.filled_at);
      s.last = Math.max(s.last, r.filled_at);
    }
  }
  const out: FuelFillingRow[] = [];
  for (const part of chunks([...spans.values()], UNIT_CHUNK)) {
    const bases = await db
      .selectFrom('fuel_fillings')
      .select(['unit_id', (eb) => eb.fn.max('filled_at').as('at')])
      .where(SAME_FLEET(fleetId))
      .where(FULL_TANK)
      .where('mileage', 'is not', null)
      .where((eb) =>
        eb.or(part.map((s) => eb.and([eb('unit_id', '=', s.unitId), eb('filled_at', '<', s.first)]))),
      )
      .groupBy('unit_id')
      .execute();
    const baseOf = new Map(bases.map((b) => [b.unit_id, Number(b.at)]));
    // Per unit: from its base (or its first row) up to, and in a complete list below, its first row.
    const ranges = part.flatMap((s): { unitId: number; from: number; to: number; below: boolean }[] => {
      const from = baseOf.get(s.unitId) ?? s.first;
      if (complete) return from < s.first ? [{ unitId: s.unitId, from, to: s.first, below: true }] : [];
      return [{ unitId: s.unitId, from, to: s.last, below: false }];
    });
    if (ranges.length === 0) continue;
    const found = await db
      .selectFrom('fuel_fillings')
      .selectAll()
      .where(SAME_FLEET(fleetId))
      .where((eb) =>
        eb.or(
          ranges.map((r) =>
            eb.and([
              eb('unit_id', '=', r.unitId),
              eb('filled_at', '>=', r.from),
              eb('filled_at', r.below ? '<' : '<=', r.to),
            ]),
          ),
        ),
      )
      .execute();
    out.push(...found);
  }
  return out;
}

/** Consumption of each row that ends a stretch between full tanks, in the fleet's units. */
async function consumptions(
  db: Kysely<Database>,
  fleet: FleetUnits,
  rows: FuelFillingRow[],
  complete: boolean,
): Promise<Map<number, number | null>> {
  const fm = fuelUnitOf(fleet.fm);
  const byUnit = new Map<number, Map<number, FuelPoint>>();
  for (const r of [...(await contextRows(db, fleet.id, rows, complete)), ...rows]) {
    let points = byUnit.get(r.unit_id);
    if (!points) {
      points = new Map();
      byUnit.set(r.unit_id, points);
    }
    points.set(r.id, {
      id: r.id,
      time: r.filled_at,
      mileage: r.mileage,
      volume: convertVolume(r.volume, r.volume_unit, fm),
      full: r.full_tank === 1,
    });
  }
  const out = new Map<number, number | null>();
  for (const points of byUnit.values())
    for (const [id, value] of fillingConsumptions([...points.values()], fleet.ms)) out.set(id, value);
  return out;
}

export function fillingToWire(
  row: FuelFillingRow,
  fm: number,
  attachments: number,
  consumption: number | null,
): FuelFillingWire {
  const unit = fuelUnitOf(fm);
  return {
    id: row.id,
    uid: row.unit_id,
    date: row.filled_at,
    fuel_type: row.fuel_type,
    volume: fromThousandths(convertVolume(row.volume, row.volume_unit, unit)),
    price: row.price === null ? null : fromThousandths(convertPrice(row.price, row.volume_unit, unit)),
    manual_cost: row.manual_cost === null ? null : fromThousandths(row.manual_cost),
    total_cost: fromThousandths(row.total_cost),
    mileage: row.mileage,
    full: row.full_tank === 1 ? 1 : 0,
    station: row.station,
    description: row.description,
    consumption,
    fm: unit,
    ats: attachments,
    cid: row.creator_id,
    tm: row.created_at,
    updated: row.updated_at,
    cf: JSON.parse(row.cf || '[]') as { id: number; v: string }[],
  };
}

/**
 * The wires of `rows`, in their order. `complete`: the rows hold every filling of the fleet between
 * each unit's first and last of them (a period or unit list), so only the fillings before are read.
 */
export async function toWires(
  db: Kysely<Database>,
  fleet: FleetUnits,
  rows: FuelFillingRow[],
  complete: boolean,
): Promise<FuelFillingWire[]> {
  if (rows.length === 0) return [];
  const counts = await attachmentCounts(
    db,
    fleet.id,
    rows.map((r) => r.id),
  );
  const consumption = await consumptions(db, fleet, rows, complete);
  return rows.map((r) => fillingToWire(r, fleet.fm, counts.get(r.id) ?? 0, consumption.get(r.id) ?? null));
}

/** The wires of fillings by id (those of other fleets are not found), ordered by id. */
export async function wiresByIds(db: Kysely<Database>, fleet: FleetUnits, ids: number[]) {
  const rows: FuelFillingRow[] = [];
  for (const part of chunks(ids, CHUNK))
    rows.push(
      ...(await db
        .selectFrom('fuel_fillings')
        .selectAll()
        .where('fleet_id', '=', fleet.id)
        .where('id', 'in', part)
        .execute()),
    );
  rows.sort((a, b) => a.id - b.id);
  return toWires(db, fleet, rows, false);
}

/** The same, reading the fleet's units first (for writers outside this module, e.g. custom fields). */
export async function fuelWiresOfFleet(db: Kysely<Database>, fleetId: number, ids: number[]) {
  const fleet = await db
    .selectFrom('fleets')
    .select(['id', 'fm', 'ms'])
    .where('id', '=', fleetId)
    .executeTakeFirstOrThrow();
  return wiresByIds(db, fleet, ids);
}
