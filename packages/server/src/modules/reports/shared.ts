import {
  convertVolume,
  FuelMeasure,
  type ObjectType,
  type ReportColumnKind,
  type ReportGroup,
  reportBucket,
  type ServiceWire,
  toThousandths,
} from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import type { DialectOps } from '../../db/dialect/index.js';
import type { Database, FleetRow } from '../../db/schema.js';
import { loadWires, type Scope } from '../services/load.js';
import type { Period } from '../statistics/rules.js';

/**
 * What every report builder shares (PRODUCT.md "Reports"): the context of one report, the rows before
 * they are put on the wire, the fleet's object names, and the reads of closed services and of the daily
 * cost aggregates. Every query is filtered on the fleet id.
 */

/** A row before it is put on the wire: values by column key; money, numbers, volumes in thousandths. */
export type Values = Record<string, string | number | null>;
export interface Row {
  /** Bucket first day (YYYY-MM-DD) or null when not grouped / no date. */
  period: string | null;
  /** Label of the chart's x axis when not grouped. */
  label: string;
  /** Sort key within a bucket. */
  sort: string;
  values: Values;
  ot?: ObjectType;
  oid?: number;
}

/** Kinds whose values are integer thousandths until put on the wire. */
export const THOUSANDTHS: ReadonlySet<ReportColumnKind> = new Set(['money', 'number', 'volume']);

export interface Objects {
  ot?: ObjectType;
  ids: number[];
}

export interface Ctx {
  db: Kysely<Database>;
  ops: DialectOps;
  fleet: FleetRow;
  period: Period;
  from: string;
  to: string;
  group: ReportGroup;
  objects: Objects;
  fm: number;
  names: Map<string, string>;
}

export const keyOf = (t: string, id: number) => `${t}:${id}`;
export const nameOf = (c: Ctx, t: string, id: number) => c.names.get(keyOf(t, id)) ?? `#${id}`;
export const bucketOf = (c: Ctx, dayText: string) => reportBucket(dayText, c.group, c.from);

/** Names of the fleet's objects (only those the filter keeps). Objects that left the fleet read `#id`. */
export async function objectNames(db: Kysely<Database>, fleetId: number, objects: Objects) {
  const out = new Map<string, string>();
  const tables = { u: 'units', d: 'drivers', t: 'trailers' } as const;
  for (const t of ['u', 'd', 't'] as const) {
    if (objects.ot && objects.ot !== t) continue;
    let q = db.selectFrom(tables[t]).select(['id', 'name']).where('fleet_id', '=', fleetId);
    if (objects.ids.length) q = q.where('id', 'in', objects.ids);
    for (const r of await q.execute()) out.set(keyOf(t, r.id), r.name);
  }
  return out;
}

/** Services of the fleet, narrowed to the filter's objects. */
export function objectScope(c: Ctx, more: Scope): Scope {
  return (qb) => {
    let q = more(qb.where('fleet_id', '=', c.fleet.id));
    if (c.objects.ot) q = q.where('object_type', '=', c.objects.ot);
    if (c.objects.ids.length) q = q.where('object_id', 'in', c.objects.ids);
    return q;
  };
}

export const FINISHED_BITS = sql<number>`(${sql.ref('f')} & 24)`;

/** Closed services whose end date lies in the period (rejected ones cost nothing: spec §4). */
export const closedInPeriod = (c: Ctx) =>
  loadWires(
    c.db,
    c.ops,
    c.fleet.id,
    objectScope(c, (qb) =>
      qb
        .where(FINISHED_BITS, '=', 8)
        .where('end_date', '>=', c.period.first)
        .where('end_date', '<=', c.period.last),
    ),
  );

export async function intervalNames(c: Ctx, services: ServiceWire[]) {
  const ids = [...new Set(services.map((s) => s.ivid).filter((id): id is number => id !== null))];
  const out = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await c.db
      .selectFrom('intervals')
      .select(['id', 'name'])
      .where('fleet_id', '=', c.fleet.id)
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute();
    for (const r of rows) out.set(r.id, r.name);
  }
  return out;
}

export const costOf = (s: ServiceWire) => toThousandths(s.total_cost) ?? 0;

/** Sums rows sharing a key (bucket and label): the listed keys are added. */
export function sumInto(map: Map<string, Row>, key: string, row: Row, summed: readonly string[]) {
  const have = map.get(key);
  if (!have) {
    map.set(key, row);
    return;
  }
  for (const k of summed) have.values[k] = Number(have.values[k] ?? 0) + Number(row.values[k] ?? 0);
}

export interface CostDay {
  day: number;
  ot: string;
  oid: number;
  servicesCost: number;
  servicesCount: number;
  fuelCost: number;
  fuelCount: number;
  /** Thousandths of the fleet's fuel unit. */
  volume: number;
}

/** The `cost_days` rows of the period of the filter's objects (never the fleet's `*` rows). */
export async function costDays(c: Ctx, unitsOnly = false): Promise<CostDay[]> {
  let q = c.db
    .selectFrom('cost_days')
    .select([
      'day',
      'object_type',
      'object_id',
      'services_cost',
      'services_count',
      'fuel_cost',
      'fuel_count',
      'fuel_l',
      'fuel_gal',
    ])
    .where('fleet_id', '=', c.fleet.id)
    .where('day', '>=', c.period.first)
    .where('day', '<=', c.period.last);
  if (unitsOnly) q = q.where('object_type', '=', 'u');
  else q = q.where('object_type', 'in', ['u', 'd', 't']);
  if (c.objects.ot) q = q.where('object_type', '=', c.objects.ot);
  if (c.objects.ids.length) q = q.where('object_id', 'in', c.objects.ids);
  const rows = await q.orderBy('day').execute();
  return rows.map((r) => ({
    day: Number(r.day),
    ot: r.object_type,
    oid: Number(r.object_id),
    servicesCost: Number(r.services_cost),
    servicesCount: Number(r.services_count),
    fuelCost: Number(r.fuel_cost),
    fuelCount: Number(r.fuel_count),
    volume:
      convertVolume(Number(r.fuel_l), FuelMeasure.liter, c.fm) +
      convertVolume(Number(r.fuel_gal), FuelMeasure.gallon, c.fm),
  }));
}
