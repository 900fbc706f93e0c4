import {
  consumptionLabel,
  itemReportText,
  KM_PER_MILE,
  kmToFleetDistance,
  MeasureSystem,
  REPORT_TOTALS,
  type ReportColumnKind,
  type ReportFormat,
  type ReportWire,
  usesMiles,
} from '@fleetkeep/core';
import type { Formatter } from '../../../i18n/formatter.js';

/**
 * A report as every export writes it (contracts/reports.ts decision 7), worded in the reader's language:
 * column titles from `reports.col.<key>` with the unit they are in, type names, statuses and object
 * types translated, distances and cost per distance converted for fleets in miles. Numeric cells stay
 * numbers (each exporter formats them its way); `date` cells stay YYYY-MM-DD.
 */

export type ExportValue = string | number | null;

export interface ExportColumn {
  key: string;
  kind: ReportColumnKind;
  title: string;
  /** Numbers are right-aligned. */
  numeric: boolean;
}

export interface ExportTable {
  title: string;
  /** "Fleet", "Period", "Generated" lines under the title: label and text. */
  meta: [string, string][];
  columns: ExportColumn[];
  rows: ExportValue[][];
  /** The totals row: sums under their columns; null without totals. */
  totals: ExportValue[] | null;
  /** Said under the table when rows were left out. */
  note: string | null;
  /** The "Total" word, written in the totals row's first cell. */
  totalLabel: string;
  f: Formatter;
  /** File name: `<type>-<from>-<to>.<ext>`. */
  fileName(format: ReportFormat): string;
}

const NUMERIC: ReadonlySet<ReportColumnKind> = new Set([
  'money',
  'number',
  'count',
  'distance',
  'hours',
  'volume',
  'consumption',
  'consumption_per_hour',
  'cost_per_distance',
]);

/**
 * Fraction digits a kind is shown with in a text export (spec §9: at most 3; counts none; counters whole
 * and consumption to one decimal, docs/product.md "Numbers, money and times"). Money has its currency's
 * minor units (Formatter `moneyAmount`).
 */
export const DECIMALS: Partial<Record<ReportColumnKind, number>> = {
  count: 0,
  distance: 0,
  hours: 0,
  consumption: 1,
  consumption_per_hour: 1,
};

/** The unit a column's title names (money: the currency), or none. */
function unitOf(kind: ReportColumnKind, wire: ReportWire, f: Formatter, currency: string): string {
  switch (kind) {
    case 'money':
      return currency;
    case 'distance':
      return f.distanceLabel;
    case 'hours':
      return f.t('objects.engineHoursUnit');
    case 'volume':
      return f.volumeLabel;
    case 'consumption':
      // As core consumptionOf: fuel units per 100 km, or distance per fuel unit in a miles fleet.
      return wire.ms === MeasureSystem.miles
        ? `${f.distanceLabel}/${f.volumeLabel}`
        : `${f.volumeLabel}/100 ${f.distanceLabel}`;
    case 'consumption_per_hour':
      return consumptionLabel(f.lang, 'hours', wire.ms, wire.fm);
    case 'cost_per_distance':
      return currency ? `${currency}/${f.distanceLabel}` : `1 ${f.distanceLabel}`;
    default:
      return '';
  }
}

/** A wire value as the reader reads it: converted units, worded enums. */
function exportValue(kind: ReportColumnKind, v: string | number | null, wire: ReportWire, f: Formatter) {
  if (v === null) return null;
  switch (kind) {
    case 'distance':
      return typeof v === 'number' ? round3(kmToFleetDistance(v, wire.ms)) : v;
    case 'cost_per_distance':
      return typeof v === 'number' && usesMiles(wire.ms) ? round3(v * KM_PER_MILE) : v;
    case 'object_type':
      return f.t(`reports.ot.${v}`);
    case 'status':
      return f.t(`reports.status.${v}`);
    case 'line_type':
      return v === 1 || v === 2 ? f.t(`reports.lineType.${v}`) : String(v);
    case 'inspection_item':
      return itemReportText(String(v), f.t);
    case 'severity':
      return f.t(`inspections.severity.${v}`);
    case 'certification':
      return f.t(`inspections.cert.${v}`);
    default:
      return v;
  }
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function exportTable(
  wire: ReportWire,
  f: Formatter,
  fleetName: string,
  currency: string,
): ExportTable {
  const t = f.t;
  const columns: ExportColumn[] = wire.columns.map((c) => {
    const unit = unitOf(c.kind, wire, f, currency);
    const title = t(`reports.col.${c.key}`);
    return {
      key: c.key,
      kind: c.kind,
      title: unit ? `${title}, ${unit}` : title,
      numeric: NUMERIC.has(c.kind),
    };
  });
  const rows = wire.rows.map((r) => wire.columns.map((c) => exportValue(c.kind, r[c.key] ?? null, wire, f)));
  const totalKeys = REPORT_TOTALS[wire.type];
  let totals: ExportValue[] | null = null;
  if (totalKeys.length) {
    totals = wire.columns.map((c) =>
      totalKeys.includes(c.key) ? exportValue(c.kind, wire.totals[c.key] ?? null, wire, f) : null,
    );
  }
  const period = `${f.day(wire.from)} – ${f.day(wire.to)}`;
  return {
    title: t(`reports.type.${wire.type}`),
    meta: [
      [t('reports.export.fleet'), fleetName],
      [t('reports.export.period'), period],
      [t('reports.export.generated'), f.dateTime(Math.floor(Date.now() / 1000))],
    ],
    columns,
    rows,
    totals,
    totalLabel: t('reports.screen.total'),
    note: wire.truncated ? t('reports.export.truncated', { count: wire.rows.length }) : null,
    f,
    fileName: (format) => `${wire.type}-${wire.from}-${wire.to}.${format}`,
  };
}

/** Thrown by an exporter when the client went away (the request was aborted). */
export class ExportAborted extends Error {
  constructor() {
    super('The client disconnected');
  }
}

/** Checks the signal every `every` rows. */
export function checkAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw new ExportAborted();
}
