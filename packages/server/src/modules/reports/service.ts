import {
  consumptionOf,
  consumptionPerHour,
  FuelMeasure,
  fromThousandths,
  parseReportIds,
  REPORT_CHART_POINTS_MAX,
  REPORT_CHART_SERIES,
  REPORT_ROWS_MAX,
  REPORT_TOTALS,
  type ReportChartWire,
  type ReportColumnKind,
  type ReportQuery,
  type ReportRowWire,
  type ReportType,
  type ReportWire,
  reportBuckets,
  reportColumns,
} from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import type { FleetRow } from '../../db/schema.js';
import { invalidInput } from '../../http/errors.js';
import { round3 } from '../fleets/mappers.js';
import { costPerKm, parsePeriod, periodText } from '../statistics/rules.js';
import { costPerDistanceReport } from './cost-per-distance.js';
import { costsByInterval } from './costs-by-interval.js';
import { costsByLineItem } from './costs-by-line-item.js';
import { costsByObject } from './costs-by-object.js';
import { fuelReport } from './fuel.js';
import { inspectionsWithDefects } from './inspections-with-defects.js';
import { servicesPerformed } from './services-performed.js';
import { type Ctx, type Objects, objectNames, type Row, THOUSANDTHS } from './shared.js';
import { upcomingOverdue } from './upcoming-overdue.js';
import { workOrdersReport } from './work-orders.js';

/**
 * The reports (PRODUCT.md "Reports"; core contracts/reports.ts, whose header comment holds the
 * decisions). Costs per object, fuel and distance come from the daily aggregates (`cost_days`,
 * `counter_days`, as the statistics); what they do not hold (intervals, line items, the services
 * themselves, open services) from the service rows of the period, read through the services module's
 * one loader. Every query is filtered on the fleet id. One file per report builds its rows
 * (`shared.ts` holds what they share); this file puts them on the wire with totals and chart.
 *
 * Internally money, quantities and volumes are integer thousandths, so sums never drift; the rows are
 * turned into wire numbers (core units) at the end.
 */

const BUILDERS: Record<ReportType, (c: Ctx) => Promise<Row[]>> = {
  'service-costs-by-object': costsByObject,
  'service-costs-by-line-item': costsByLineItem,
  'service-costs-by-interval': costsByInterval,
  'services-performed': servicesPerformed,
  'upcoming-overdue': upcomingOverdue,
  fuel: fuelReport,
  'cost-per-distance': costPerDistanceReport,
  'inspections-with-defects': inspectionsWithDefects,
  'work-orders': workOrdersReport,
};

/** Sums of the summable keys over rows (thousandths and km), with the ratios recomputed. */
function sumsOf(type: ReportType, rows: readonly Row[], keys: readonly string[], ms: number) {
  const sums: Record<string, number> = {};
  for (const k of keys) sums[k] = 0;
  for (const r of rows) for (const k of keys) sums[k]! += Number(r.values[k] ?? 0);
  if (type === 'fuel') {
    // Each consumption over the units of its basis (fuel.ts): per distance of the others, per engine
    // hour of the units counting hours.
    let volume = 0;
    let km = 0;
    let hourVolume = 0;
    let hours = 0;
    for (const r of rows) {
      if (r.values.basis === 'hours') {
        hourVolume += Number(r.values.fuel_volume ?? 0);
        hours += Number(r.values.engine_hours ?? 0);
      } else {
        volume += Number(r.values.fuel_volume ?? 0);
        km += Number(r.values.mileage ?? 0);
      }
    }
    sums.consumption = consumptionOf(volume, km, ms) as never;
    sums.consumption_per_hour = consumptionPerHour(hourVolume, hours) as never;
  }
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
  if (key === 'consumption_per_hour') return ['fuel_volume', 'engine_hours'];
  if (key === 'cost_per_distance') return ['services_cost', 'fuel_cost', 'mileage'];
  return type === 'upcoming-overdue' || type === 'inspections-with-defects' || key === 'rows' ? [] : [key];
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
