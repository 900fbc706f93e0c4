import {
  type ComponentDetailWire,
  type ComponentState,
  type ComponentWire,
  componentDistance,
  costPerKm,
  DEFAULT_TREAD_THRESHOLD,
  fromThousandths,
  isTreadLow,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { chunks } from '../../db/lookups.js';
import type { ComponentMountRow, ComponentRow, Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';

/**
 * Components as read (docs/product.md "Components"): rows to wires with their mount periods, the
 * distance (odometer at dismount, or the unit's current mileage while mounted, less the odometer at
 * mount), the cost per km and the latest tread reading, each looked up once per batch of rows.
 */

/** The component of the fleet; one of another fleet answers like a missing one (404). */
export async function loadComponent(
  db: Kysely<Database>,
  fleetId: number,
  id: number,
): Promise<ComponentRow> {
  const row = await db
    .selectFrom('components')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Component not found');
  return row;
}

/** The fleet's tread threshold, thousandths of a mm. */
export async function treadThreshold(db: Kysely<Database>, fleetId: number): Promise<number> {
  const row = await db
    .selectFrom('component_settings')
    .select('tread_threshold')
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  return row ? Number(row.tread_threshold) : DEFAULT_TREAD_THRESHOLD;
}

interface Units {
  name: Map<number, string>;
  mileage: Map<number, number>;
}

async function unitsOf(db: Kysely<Database>, fleetId: number, ids: number[]): Promise<Units> {
  const out: Units = { name: new Map(), mileage: new Map() };
  for (const part of chunks([...new Set(ids)]))
    for (const u of await db
      .selectFrom('units')
      .select(['id', 'name', 'mileage'])
      .where('fleet_id', '=', fleetId)
      .where('id', 'in', part)
      .execute()) {
      out.name.set(u.id, u.name);
      out.mileage.set(u.id, Number(u.mileage));
    }
  return out;
}

const mountDistance = (m: ComponentMountRow, units: Units) =>
  componentDistance(
    [{ mountOdometer: Number(m.mount_odometer), dismountOdometer: num(m.dismount_odometer) }],
    units.mileage.get(m.unit_id) ?? null,
  );

const num = (v: number | null) => (v === null ? null : Number(v));

interface Batch {
  mounts: Map<number, ComponentMountRow[]>;
  units: Units;
  latest: Map<number, { depth: number; at: number }>;
  threshold: number;
}

async function batchOf(db: Kysely<Database>, fleetId: number, ids: number[]): Promise<Batch> {
  const mounts = new Map<number, ComponentMountRow[]>();
  const latest = new Map<number, { depth: number; at: number }>();
  for (const part of chunks(ids)) {
    for (const m of await db
      .selectFrom('component_mounts')
      .selectAll()
      .where('fleet_id', '=', fleetId)
      .where('component_id', 'in', part)
      .orderBy('mounted_at', 'desc')
      .orderBy('id', 'desc')
      .execute()) {
      const list = mounts.get(m.component_id) ?? [];
      list.push(m);
      mounts.set(m.component_id, list);
    }
    for (const r of await db
      .selectFrom('component_treads')
      .select(['component_id', 'depth', 'at'])
      .where('fleet_id', '=', fleetId)
      .where('component_id', 'in', part)
      .orderBy('at', 'asc')
      .orderBy('id', 'asc')
      .execute())
      latest.set(r.component_id, { depth: Number(r.depth), at: Number(r.at) });
  }
  const unitIds = [...mounts.values()].flat().map((m) => m.unit_id);
  return {
    mounts,
    latest,
    units: await unitsOf(db, fleetId, unitIds),
    threshold: await treadThreshold(db, fleetId),
  };
}

function toWire(r: ComponentRow, b: Batch): ComponentWire {
  const mounts = b.mounts.get(r.id) ?? [];
  const open = mounts.find((m) => m.dismounted_at === null);
  const distance = Math.round(mounts.reduce((sum, m) => sum + mountDistance(m, b.units), 0) * 1000) / 1000;
  const perKm = costPerKm(Number(r.cost), distance);
  const tread = b.latest.get(r.id);
  return {
    id: r.id,
    kind: r.kind,
    serial: r.serial,
    brand: r.brand,
    model: r.model,
    cost: fromThousandths(Number(r.cost)),
    state: r.state as ComponentState,
    unit_id: open?.unit_id ?? null,
    unit_name: open ? (b.units.name.get(open.unit_id) ?? '') : null,
    position: open?.position ?? null,
    mounted_at: open ? Number(open.mounted_at) : null,
    distance,
    cost_per_km: perKm === null ? null : fromThousandths(perKm),
    tread: tread ? fromThousandths(tread.depth) : null,
    tread_at: tread?.at ?? null,
    tread_low: tread ? isTreadLow(tread.depth, b.threshold) : false,
    created: Number(r.created_at),
    updated: Number(r.updated_at),
  };
}

/** Rows of one fleet to wires, in their order. */
export async function componentWires(
  db: Kysely<Database>,
  fleetId: number,
  rows: ComponentRow[],
): Promise<ComponentWire[]> {
  if (rows.length === 0) return [];
  const b = await batchOf(
    db,
    fleetId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toWire(r, b));
}

/** One component with its mount periods (newest first) and its tread readings (oldest first). */
export async function componentDetail(
  db: Kysely<Database>,
  fleetId: number,
  id: number,
): Promise<ComponentDetailWire> {
  const row = await loadComponent(db, fleetId, id);
  const b = await batchOf(db, fleetId, [id]);
  const treads = await db
    .selectFrom('component_treads')
    .select(['id', 'depth', 'at'])
    .where('fleet_id', '=', fleetId)
    .where('component_id', '=', id)
    .orderBy('at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return {
    ...toWire(row, b),
    mounts: (b.mounts.get(id) ?? []).map((m) => ({
      id: m.id,
      unit_id: m.unit_id,
      unit_name: b.units.name.get(m.unit_id) ?? '',
      position: m.position,
      mounted_at: Number(m.mounted_at),
      mount_odometer: Number(m.mount_odometer),
      dismounted_at: num(m.dismounted_at),
      dismount_odometer: num(m.dismount_odometer),
      distance: mountDistance(m, b.units),
    })),
    treads: treads.map((t) => ({
      id: t.id,
      depth: fromThousandths(Number(t.depth)),
      at: Number(t.at),
      low: isTreadLow(Number(t.depth), b.threshold),
    })),
  };
}
