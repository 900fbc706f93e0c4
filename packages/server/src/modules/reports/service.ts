import {
  consumptionOf,
  convertVolume,
  FuelMeasure,
  fromThousandths,
  localDate,
  multiplyThousandths,
  type ObjectType,
  parseReportIds,
  REPORT_CHART_POINTS_MAX,
  REPORT_CHART_SERIES,
  REPORT_ROWS_MAX,
  REPORT_TOTALS,
  type ReportChartWire,
  type ReportColumnKind,
  type ReportGroup,
  type ReportQuery,
  type ReportRowWire,
  type ReportType,
  type ReportWire,
  reportBucket,
  reportBuckets,
  reportColumns,
  type ServiceWire,
  toThousandths,
} from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import type { DialectOps } from '../../db/dialect/index.js';
import type { Database, FleetRow } from '../../db/schema.js';
import { invalidInput } from '../../http/errors.js';
import { round3 } from '../fleets/mappers.js';
import { loadWires, type Scope } from '../services/load.js';
import { costPerKm, type Period, parsePeriod, periodText } from '../statistics/rules.js';

/**
 * The reports (PRODUCT.md "Reports"; core contracts/reports.ts, whose header comment holds the
 * decisions). Costs per object, fuel and distance come from the daily aggregates (`cost_days`,
 * `counter_days`, as the statistics); what they do not hold (intervals, line items, the services
 * themselves, open services) from the service rows of the period, read through the services module's
 * one loader. Every query is filtered on the fleet id.
 *
 * Internally money, quantities and volumes are integer thousandths, so sums never drift; the rows are
 * turned into wire numbers (core units) at the end.
 */

/** A row before it is put on the wire: values by column key; money, numbers, volumes in thousandths. */
type Values = Record<string, string | number | null>;
interface Row {
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
const THOUSANDTHS: ReadonlySet<ReportColumnKind> = new Set(['money', 'number', 'volume']);

interface Objects {
  ot?: ObjectType;
  ids: number[];
}

interface Ctx {
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

const keyOf = (t: string, id: number) => `${t}:${id}`;
const nameOf = (c: Ctx, t: string, id: number) => c.names.get(keyOf(t, id)) ?? `#${id}`;
const bucketOf = (c: Ctx, dayText: string) => reportBucket(dayText, c.group, c.from);

/** Names of the fleet's objects (only those the filter keeps). Objects that left the fleet read `#id`. */
async function objectNames(db: Kysely<Database>, fleetId: number, objects: Objects) {
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
function objectScope(c: Ctx, more: Scope): Scope {
  return (qb) => {
    let q = more(qb.where('fleet_id', '=', c.fleet.id));
    if (c.objects.ot) q = q.where('object_type', '=', c.objects.ot);
    if (c.objects.ids.length) q = q.where('object_id', 'in', c.objects.ids);
    return q;
  };
}

const FINISHED_BITS = sql<number>`(${sql.ref('f')} & 24)`;

/** Closed services whose end date lies in the period (rejected ones cost nothing: spec §4). */
const closedInPeriod = (c: Ctx) =>
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

async function intervalNames(c: Ctx, services: ServiceWire[]) {
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

const costOf = (s: ServiceWire) => toThousandths(s.total_cost) ?? 0;

/** Sums rows sharing a key (bucket and label): the listed keys are added. */
function sumInto(map: Map<string, Row>, key: string, row: Row, summed: readonly string[]) {
  const have = map.get(key);
  if (!have) {
    map.set(key, row);
    return;
  }
  for (const k of summed) have.values[k] = Number(have.values[k] ?? 0) + Number(row.values[k] ?? 0);
}

/** Per object (cost_days rows of the period, objects of every type): closed services count and cost. */
async function costsByObject(c: Ctx): Promise<Row[]> {
  const rows = await costDays(c);
  const map = new Map<string, Row>();
  for (const r of rows) {
    if (r.servicesCount === 0 && r.servicesCost === 0) continue;
    const period = bucketOf(c, localDate(c.fleet.tz, r.day));
    const label = nameOf(c, r.ot, r.oid);
    sumInto(
      map,
      `${period}|${r.ot}:${r.oid}`,
      {
        period,
        label,
        sort: `${label}\u0000${r.ot}${r.oid}`,
        ot: r.ot as ObjectType,
        oid: r.oid,
        values: {
          object_type: r.ot,
          object: label,
          services_count: r.servicesCount,
          services_cost: r.servicesCost,
        },
      },
      ['services_count', 'services_cost'],
    );
  }
  return [...map.values()];
}

interface CostDay {
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
async function costDays(c: Ctx, unitsOnly = false): Promise<CostDay[]> {
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

/** Per line item (name and kind) of the closed services of the period: quantity, services, cost. */
async function costsByLineItem(c: Ctx): Promise<Row[]> {
  const services = await closedInPeriod(c);
  const map = new Map<string, Row & { ids: Set<number> }>();
  for (const s of services) {
    const period = bucketOf(c, localDate(c.fleet.tz, s.end_date as number));
    for (const l of s.li) {
      const qty = toThousandths(l.q) ?? 0;
      const cost = multiplyThousandths(qty, toThousandths(l.c) ?? 0); // as a service total
      const key = `${period}|${l.t}|${l.n}`;
      const have = map.get(key);
      if (have) {
        have.values.quantity = Number(have.values.quantity) + qty;
        have.values.cost = Number(have.values.cost) + cost;
        have.ids.add(s.id);
        have.values.services_count = have.ids.size;
      } else
        map.set(key, {
          period,
          label: l.n,
          sort: `${l.n}\u0000${l.t}`,
          ids: new Set([s.id]),
          values: { line_item: l.n, line_type: l.t, quantity: qty, services_count: 1, cost },
        });
    }
  }
  return [...map.values()].map(({ ids: _ids, ...row }) => row);
}

/** Per interval of the closed services of the period; one-time services (no interval) in one row. */
async function costsByInterval(c: Ctx): Promise<Row[]> {
  const services = await closedInPeriod(c);
  const names = await intervalNames(c, services);
  const map = new Map<string, Row>();
  for (const s of services) {
    const period = bucketOf(c, localDate(c.fleet.tz, s.end_date as number));
    const name = s.ivid === null ? null : (names.get(s.ivid) ?? `#${s.ivid}`);
    sumInto(
      map,
      `${period}|${s.ivid ?? 0}`,
      {
        period,
        label: name ?? '',
        // One-time services after the intervals.
        sort: name === null ? '\uffff' : `${name}\u0000${s.ivid}`,
        values: { interval: name, services_count: 1, services_cost: costOf(s) },
      },
      ['services_count', 'services_cost'],
    );
  }
  return [...map.values()];
}

/** Plain decimal text of thousandths ('2', '1.5'), for the line-item list of a service. */
const plain = (n: number) => String(n);

/** The closed services of the period, each with its line items. */
async function servicesPerformed(c: Ctx): Promise<Row[]> {
  const services = await closedInPeriod(c);
  const names = await intervalNames(c, services);
  return services.map((s) => {
    const date = localDate(c.fleet.tz, s.end_date as number);
    const object = nameOf(c, s.t, s.uid);
    return {
      period: bucketOf(c, date),
      label: object,
      sort: `${date}\u0000${object}\u0000${String(s.id).padStart(10, '0')}`,
      ot: s.t,
      oid: s.uid,
      values: {
        date,
        object_type: s.t,
        object,
        service: s.n,
        interval: s.ivid === null ? null : (names.get(s.ivid) ?? `#${s.ivid}`),
        mileage: s.mileage,
        engine_hours: s.engine_hours,
        line_items: s.li.length ? s.li.map((l) => `${l.n} × ${plain(l.q)}`).join('; ') : null,
        services_cost: costOf(s),
      },
    };
  });
}

/** Status word of an open service (spec §4 flags). */
function openStatus(f: number) {
  if (f & 2) return 'in_progress';
  if (f & 4) return 'overdue';
  return 'due';
}

const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : round3(a - b));

/** Open services (Due, overdue, In progress) planned on or before `to`, or with no planned date. */
async function upcomingOverdue(c: Ctx): Promise<Row[]> {
  const services = await loadWires(
    c.db,
    c.ops,
    c.fleet.id,
    objectScope(c, (qb) =>
      qb
        .where(FINISHED_BITS, '=', 0)
        .where((eb) => eb.or([eb('planned_date', 'is', null), eb('planned_date', '<=', c.period.last)])),
    ),
  );
  const names = await intervalNames(c, services);
  return services.map((s) => {
    const planned = s.limit_date === null ? null : localDate(c.fleet.tz, s.limit_date);
    const object = nameOf(c, s.t, s.uid);
    return {
      period: planned === null ? null : bucketOf(c, planned),
      label: object,
      sort: `${planned ?? '9999'}\u0000${object}\u0000${String(s.id).padStart(10, '0')}`,
      ot: s.t,
      oid: s.uid,
      values: {
        planned_date: planned,
        object_type: s.t,
        object,
        service: s.n,
        interval: s.ivid === null ? null : (names.get(s.ivid) ?? `#${s.ivid}`),
        status: openStatus(s.f),
        limit_mileage: s.limit_mileage,
        remaining_mileage: minus(s.limit_mileage, s.current_mileage),
        limit_engine_hours: s.limit_engine_hours,
        remaining_engine_hours: minus(s.limit_engine_hours, s.current_engine_hours),
      },
    };
  });
}

/**
 * Distance driven per unit and bucket, from the daily counter history as the statistics read it
 * (modules/statistics/service.ts `periodCounters`): each day's last mileage (the unit's live counter
 * on its latest day) less the one before it — the last day before the period, else the first value
 * of the period's first day — never negative, added to the day's bucket.
 */
async function unitDistances(c: Ctx, unitIds: number[]): Promise<Map<number, Map<string | null, number>>> {
  const out = new Map<number, Map<string | null, number>>();
  if (unitIds.length === 0) return out;
  for (let i = 0; i < unitIds.length; i += 1000) {
    const part = unitIds.slice(i, i + 1000);
    const units = await c.db
      .selectFrom('units')
      .select(['id', 'counter_day', sql<number>`mileage - counter_off_mileage`.as('live_m')])
      .where('fleet_id', '=', c.fleet.id)
      .where('id', 'in', part)
      .execute();
    const live = new Map(units.map((u) => [u.id, { day: u.counter_day, km: Number(u.live_m) }]));
    const ids = units.map((u) => u.id);
    if (ids.length === 0) continue;
    const latestBefore = c.db
      .selectFrom('counter_days')
      .select(['unit_id', sql<number>`max(day)`.as('day')])
      .where('unit_id', 'in', ids)
      .where('day', '<', c.period.first)
      .groupBy('unit_id')
      .as('m');
    const bases = await c.db
      .selectFrom('counter_days as x')
      .innerJoin(latestBefore, (j) => j.onRef('m.unit_id', '=', 'x.unit_id').onRef('m.day', '=', 'x.day'))
      .select(['x.unit_id', 'x.last_mileage'])
      .execute();
    const base = new Map(bases.map((b) => [b.unit_id, Number(b.last_mileage)]));
    const days = await c.db
      .selectFrom('counter_days')
      .select(['unit_id', 'day', 'first_mileage', 'last_mileage'])
      .where('unit_id', 'in', ids)
      .where('day', '>=', c.period.first)
      .where('day', '<=', c.period.last)
      .orderBy('unit_id')
      .orderBy('day')
      .execute();
    let unit = -1;
    let prev = 0;
    for (const d of days) {
      if (d.unit_id !== unit) {
        unit = d.unit_id;
        prev = base.get(unit) ?? Number(d.first_mileage);
      }
      const l = live.get(unit);
      const end = l && Number(l.day) === Number(d.day) ? l.km : Number(d.last_mileage);
      const km = Math.max(end - prev, 0);
      prev = end;
      if (km === 0) continue;
      const bucket = bucketOf(c, localDate(c.fleet.tz, Number(d.day)));
      let byBucket = out.get(unit);
      if (!byBucket) {
        byBucket = new Map();
        out.set(unit, byBucket);
      }
      byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + km);
    }
  }
  return out;
}

/** The units of the filter (fuel and distance belong to units). */
async function filterUnits(c: Ctx): Promise<number[]> {
  if (c.objects.ot && c.objects.ot !== 'u') return [];
  return [...c.names.keys()].filter((k) => k.startsWith('u:')).map((k) => Number(k.slice(2)));
}

interface UnitFigures {
  period: string | null;
  uid: number;
  servicesCost: number;
  fuelCost: number;
  fuelCount: number;
  volume: number;
  km: number;
}

/** Costs, fuel and distance per unit and bucket (only units with any of them). */
async function unitFigures(c: Ctx): Promise<UnitFigures[]> {
  const units = await filterUnits(c);
  if (units.length === 0) return [];
  const inFleet = new Set(units);
  const map = new Map<string, UnitFigures>();
  const at = (period: string | null, uid: number) => {
    const key = `${period}|${uid}`;
    let f = map.get(key);
    if (!f) {
      f = { period, uid, servicesCost: 0, fuelCost: 0, fuelCount: 0, volume: 0, km: 0 };
      map.set(key, f);
    }
    return f;
  };
  for (const r of await costDays(c, true)) {
    if (!inFleet.has(r.oid)) continue;
    const f = at(bucketOf(c, localDate(c.fleet.tz, r.day)), r.oid);
    f.servicesCost += r.servicesCost;
    f.fuelCost += r.fuelCost;
    f.fuelCount += r.fuelCount;
    f.volume += r.volume;
  }
  for (const [uid, byBucket] of await unitDistances(c, units))
    for (const [period, km] of byBucket) at(period, uid).km += km;
  return [...map.values()];
}

async function fuelReport(c: Ctx): Promise<Row[]> {
  return (await unitFigures(c))
    .filter((f) => f.fuelCount !== 0 || f.km > 0)
    .map((f) => {
      const object = nameOf(c, 'u', f.uid);
      return {
        period: f.period,
        label: object,
        sort: `${object}\u0000${f.uid}`,
        ot: 'u' as const,
        oid: f.uid,
        values: {
          object,
          fuel_count: f.fuelCount,
          fuel_volume: f.volume,
          fuel_cost: f.fuelCost,
          mileage: f.km,
          consumption: consumptionOf(f.volume, f.km, c.fleet.ms),
        },
      };
    });
}

async function costPerDistanceReport(c: Ctx): Promise<Row[]> {
  return (await unitFigures(c))
    .filter((f) => f.km > 0 || f.servicesCost !== 0 || f.fuelCost !== 0)
    .map((f) => {
      const object = nameOf(c, 'u', f.uid);
      const total = f.servicesCost + f.fuelCost;
      return {
        period: f.period,
        label: object,
        sort: `${object}\u0000${f.uid}`,
        ot: 'u' as const,
        oid: f.uid,
        values: {
          object,
          mileage: f.km,
          services_cost: f.servicesCost,
          fuel_cost: f.fuelCost,
          total_cost: total,
          cost_per_distance: costPerKm(total, f.km),
        },
      };
    });
}

const BUILDERS: Record<ReportType, (c: Ctx) => Promise<Row[]>> = {
  'service-costs-by-object': costsByObject,
  'service-costs-by-line-item': costsByLineItem,
  'service-costs-by-interval': costsByInterval,
  'services-performed': servicesPerformed,
  'upcoming-overdue': upcomingOverdue,
  fuel: fuelReport,
  'cost-per-distance': costPerDistanceReport,
};

/** Sums of the summable keys over rows (thousandths and km), with the ratios recomputed. */
function sumsOf(type: ReportType, rows: readonly Row[], keys: readonly string[], ms: number) {
  const sums: Record<string, number> = {};
  for (const k of keys) sums[k] = 0;
  for (const r of rows) for (const k of keys) sums[k]! += Number(r.values[k] ?? 0);
  if (type === 'fuel')
    sums.consumption = consumptionOf(sums.fuel_volume ?? 0, sums.mileage ?? 0, ms) as never;
  if (type === 'cost-per-distance')
    sums.cost_per_distance = costPerKm(
      (sums.services_cost ?? 0) + (sums.fuel_cost ?? 0),
      sums.mileage ?? 0,
    ) as never;
  return sums as Record<string, number | null>;
}

/** A value as the wire carries it (decision 2 of the contract): thousandths → decimal, km to 3 places. */
function wireValue(kind: ReportColumnKind, v: string | number | null): string | number | null {
  if (v === null || typeof v === 'string') return v;
  if (THOUSANDTHS.has(kind)) return fromThousandths(v);
  if (kind === 'distance' || kind === 'hours') return round3(v);
  return v;
}

/** The keys whose sums a series or total needs (ratios: their parts). */
function partsOf(type: ReportType, key: string): string[] {
  if (key === 'consumption') return ['fuel_volume', 'mileage'];
  if (key === 'cost_per_distance') return ['services_cost', 'fuel_cost', 'mileage'];
  return type === 'upcoming-overdue' || key === 'rows' ? [] : [key];
}

function chartOf(c: Ctx, type: ReportType, rows: Row[]): ReportChartWire {
  const series = REPORT_CHART_SERIES[type];
  const kind: ReportColumnKind =
    series === 'rows'
      ? 'count'
      : (reportColumns(type, 'none').find((col) => col.key === series)?.kind ?? 'number');
  const parts = partsOf(type, series);
  const byX = new Map<string, Row[]>();
  const xOf = (r: Row) => (c.group === 'none' ? r.label : r.period);
  for (const r of rows) {
    const x = xOf(r);
    if (x === null) continue;
    const list = byX.get(x);
    if (list) list.push(r);
    else byX.set(x, [r]);
  }
  const yOf = (list: readonly Row[]): number | null => {
    if (series === 'rows') return list.length;
    const sums = sumsOf(type, list, parts, c.fleet.ms);
    const y = sums[series] ?? null;
    return y === null ? null : (wireValue(kind, y) as number);
  };
  if (c.group !== 'none') {
    const points = reportBuckets(c.from, c.to, c.group).map((x) => ({ x, y: yOf(byX.get(x) ?? []) }));
    return { x: 'period', series, kind, points: points.slice(0, REPORT_CHART_POINTS_MAX) };
  }
  const points = [...byX].map(([x, list]) => ({ x, y: yOf(list) }));
  points.sort((a, b) => (b.y ?? -Infinity) - (a.y ?? -Infinity) || (a.x < b.x ? -1 : a.x > b.x ? 1 : 0));
  return { x: 'label', series, kind, points: points.slice(0, REPORT_CHART_POINTS_MAX) };
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The report, and the fleet it is about (for the exports' formatting). */
export async function buildReport(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  type: ReportType,
  query: ReportQuery,
): Promise<{ fleet: FleetRow; report: ReportWire }> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'report.view');
  const period = parsePeriod(fleet.tz, query.from, query.to);
  if (Array.isArray(period)) throw invalidInput(period);
  const group = query.group ?? 'none';
  const objects: Objects = { ot: query.ot, ids: parseReportIds(query.ids) };
  const db = ctx.db.kysely;
  const text = periodText(fleet.tz, period);
  const c: Ctx = {
    db,
    ops: ctx.db.ops,
    fleet,
    period,
    ...text,
    group,
    objects,
    fm: fleet.fm === FuelMeasure.gallon ? FuelMeasure.gallon : FuelMeasure.liter,
    names: await objectNames(db, fleet.id, objects),
  };
  const rows = await BUILDERS[type](c);
  rows.sort(
    (a, b) =>
      (a.period ?? '\uffff').localeCompare(b.period ?? '\uffff') ||
      collator.compare(a.sort, b.sort) ||
      (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0),
  );
  const columns = reportColumns(type, group);
  const kinds = new Map(columns.map((col) => [col.key, col.kind]));
  const totalKeys = REPORT_TOTALS[type];
  const summed = [...new Set(totalKeys.flatMap((k) => partsOf(type, k)))];
  const sums = sumsOf(type, rows, summed, fleet.ms);
  const totals: Record<string, number | null> = {};
  for (const k of totalKeys) {
    const v = sums[k] ?? null;
    totals[k] = v === null ? null : (wireValue(kinds.get(k) ?? 'number', v) as number);
  }
  const kept = rows.slice(0, REPORT_ROWS_MAX);
  const wireRows: ReportRowWire[] = kept.map((r) => {
    const out: ReportRowWire = {};
    for (const col of columns)
      out[col.key] = col.key === 'period' ? r.period : wireValue(col.kind, r.values[col.key] ?? null);
    if (r.ot !== undefined && r.oid !== undefined) {
      out.ot = r.ot;
      out.oid = r.oid;
    }
    return out;
  });
  return {
    fleet,
    report: {
      type,
      ...text,
      group,
      ms: fleet.ms,
      fm: c.fm,
      columns,
      rows: wireRows,
      totals,
      truncated: rows.length > REPORT_ROWS_MAX ? 1 : 0,
      chart: chartOf(c, type, rows),
    },
  };
}
