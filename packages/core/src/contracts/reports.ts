// CONTRACT READY
import { z } from 'zod';
import { Limits } from '../constants.js';
import { flag, objectType, pathId } from './common.js';
import { SERVICE_ARCHIVE_RANGE_DAYS } from './services.js';
import { STATISTICS_PERIOD_TEXT_MAX } from './statistics.js';

/**
 * Wire contracts of the reports (PRODUCT.md "Reports"; spec §2 `/reports`, §9 "Time ranges" and "Number
 * display"): `GET /api/fleets/{fid}/reports/{type}` (JSON, the screen's table and chart)
 * and `GET /api/fleets/{fid}/reports/{type}/export?format=xlsx|csv|pdf` (a file, worded in the caller's
 * language and number formats). Both need `report.view`.
 *
 * Decisions:
 *
 * 1. One reply shape for every type: `columns` (key and kind, in display order), `rows` (objects keyed by
 *    the column keys), `totals` and `chart`. Column TITLES are not on the wire: they are the i18n keys
 *    `reports.col.<key>` (type names `reports.type.<type>`), so the screen and the exports word them
 *    alike. The columns of each type are declared once here (`REPORT_COLUMNS`).
 * 2. Units on the wire are the core units, as in the statistics: distances km, engine hours hours, money
 *    a number with at most 3 decimals in the fleet currency, volumes in the fleet's fuel unit (`fm`),
 *    consumption as the statistics define it (fuel units per 100 km in a km fleet, distance per fuel
 *    unit, mpg, in a miles fleet), cost per distance per km. The client (and the exports) convert km to
 *    miles and cost per km to cost per mile for fleets in miles (`ms` 1). `kind` says how to format.
 * 3. Period: `from`/`to` as the statistics take them (YYYY-MM-DD or Unix seconds, whole fleet-zone days,
 *    both included, at most REPORT_RANGE_DAYS). Costs count closed services by their end date and fuel
 *    fillings by the fleet day they were filled on (the `cost_days` aggregates). `services-performed`
 *    lists the services closed in the period. `upcoming-overdue` lists the open services (Due, overdue
 *    included, and In progress) whose planned date is on or before `to` or that have no planned date;
 *    `from` does not narrow it (an overdue service stays on it until it is closed).
 * 4. Grouping (`group`): `day`, `week` (ISO weeks, Monday first), `month` or `none` (default). Buckets
 *    are fleet-zone calendar days; with a grouping every row gets the `period` column (kind `date`: the
 *    bucket's first day, YYYY-MM-DD, clipped to `from`), rows are ordered by it, and the chart's x axis
 *    is the bucket. Without one the chart's x axis is the row label (object, line item, interval).
 *    `upcoming-overdue` buckets by planned date (services without one in no bucket: `period` null).
 * 5. Objects: `ot` keeps one object type (u units, d drivers, t trailers); `ids` (comma list) keeps those
 *    objects of that type (`ids` needs `ot`). Neither: every object of the fleet. `fuel` and
 *    `cost-per-distance` are per unit (fuel fillings and distance belong to units); there `ot` d or t
 *    gives no rows. Objects of other fleets are never shown (ids not in the fleet are ignored).
 * 6. Rows beyond REPORT_ROWS_MAX are left out (`truncated` 1); `totals` still cover every row. Rows of
 *    objects carry `ot` and `oid` besides the columns (for links; not columns, not exported).
 * 7. Exports: `Content-Disposition: attachment; filename="<type>-<from>-<to>.<ext>"`; xlsx with numeric
 *    cells and number formats, csv UTF-8 with BOM, RFC 4180, cells starting with = + - @ neutralised
 *    (core `csv.ts`), pdf a titled table; distances and cost per distance converted for the fleet.
 */

/** The report types (PRODUCT.md "Reports"), in the order the screen offers them. */
export const REPORT_TYPES = [
  'service-costs-by-object',
  'service-costs-by-line-item',
  'service-costs-by-interval',
  'services-performed',
  'upcoming-overdue',
  'fuel',
  'cost-per-distance',
  'inspections-with-defects',
  'work-orders',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const REPORT_GROUPS = ['day', 'week', 'month', 'none'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];
export const REPORT_GROUP_DEFAULT: ReportGroup = 'none';

export const REPORT_FORMATS = ['xlsx', 'csv', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A report period spans at most this many fleet days (as the statistics and the archive). */
export const REPORT_RANGE_DAYS = SERVICE_ARCHIVE_RANGE_DAYS;
/** The most rows a report (and an export) carries; `truncated` says when more were left out. */
export const REPORT_ROWS_MAX = 10000;
/** The most object ids `ids` may name. */
export const REPORT_IDS_MAX = 1000;
/** The most points of the chart (a day grouping of the longest period fits; labels beyond are cut). */
export const REPORT_CHART_POINTS_MAX = 400;

/**
 * How a column is formatted:
 * - `text`: plain text (may be null: shown empty);
 * - `date`: YYYY-MM-DD in the fleet zone;
 * - `object_type`: u/d/t, worded by `reports.ot.<u|d|t>`;
 * - `status`: one of REPORT_STATUSES, worded by `reports.status.<status>`;
 * - `line_type`: 1 labour, 2 part (spec §9 "Line item types"), worded by `reports.lineType.<1|2>`;
 * - `money`: fleet currency, ≤ 3 decimals; `number`: a plain decimal (quantities), ≤ 3 decimals;
 * - `count`: an integer; `distance`: km (miles for `ms` 1); `hours`: engine hours;
 * - `volume`: the fleet's fuel unit `fm`; `consumption`: see decision 2 (l|gal/100 km or mpg);
 * - `consumption_per_hour`: fuel units per engine hour (L/h, gal/h), set for units whose type counts
 *   engine hours instead of `consumption` (docs/product.md "Consumption of machines");
 * - `cost_per_distance`: money per km (per mile for `ms` 1);
 * - `inspection_item`: an inspection item's label, or a built-in item's locale key (`inspections.dvir.…`)
 *   worded in the reader's language; `severity`: minor, major, dangerous (`inspections.severity.<v>`);
 *   `certification`: repaired, unnecessary (`inspections.cert.<v>`), empty while uncertified.
 */
export const REPORT_COLUMN_KINDS = [
  'text',
  'date',
  'object_type',
  'status',
  'line_type',
  'money',
  'number',
  'count',
  'distance',
  'hours',
  'volume',
  'consumption',
  'consumption_per_hour',
  'cost_per_distance',
  'inspection_item',
  'severity',
  'certification',
] as const;
export type ReportColumnKind = (typeof REPORT_COLUMN_KINDS)[number];

/** Values of a `status` column. */
export const REPORT_STATUSES = ['due', 'overdue', 'in_progress', 'closed', 'rejected'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export interface ReportColumnDef {
  key: string;
  kind: ReportColumnKind;
}

const col = (key: string, kind: ReportColumnKind): ReportColumnDef => ({ key, kind });

/** The bucket column every grouped report starts with (decision 4). */
export const REPORT_PERIOD_COLUMN: ReportColumnDef = col('period', 'date');

/**
 * The columns of each type without the period column, in display order. Every key has its title
 * `reports.col.<key>`.
 */
export const REPORT_COLUMNS: Record<ReportType, readonly ReportColumnDef[]> = {
  'service-costs-by-object': [
    col('object_type', 'object_type'),
    col('object', 'text'),
    col('services_count', 'count'),
    col('services_cost', 'money'),
  ],
  'service-costs-by-line-item': [
    col('line_item', 'text'),
    col('line_type', 'line_type'),
    col('quantity', 'number'),
    col('services_count', 'count'),
    col('cost', 'money'),
  ],
  'service-costs-by-interval': [
    col('interval', 'text'),
    col('services_count', 'count'),
    col('services_cost', 'money'),
  ],
  'services-performed': [
    col('date', 'date'),
    col('object_type', 'object_type'),
    col('object', 'text'),
    col('service', 'text'),
    col('interval', 'text'),
    col('mileage', 'distance'),
    col('engine_hours', 'hours'),
    col('line_items', 'text'),
    col('services_cost', 'money'),
  ],
  'upcoming-overdue': [
    col('planned_date', 'date'),
    col('object_type', 'object_type'),
    col('object', 'text'),
    col('service', 'text'),
    col('interval', 'text'),
    col('status', 'status'),
    col('limit_mileage', 'distance'),
    col('remaining_mileage', 'distance'),
    col('limit_engine_hours', 'hours'),
    col('remaining_engine_hours', 'hours'),
  ],
  fuel: [
    col('object', 'text'),
    col('fuel_count', 'count'),
    col('fuel_volume', 'volume'),
    col('fuel_cost', 'money'),
    col('mileage', 'distance'),
    col('engine_hours', 'hours'),
    col('consumption', 'consumption'),
    col('consumption_per_hour', 'consumption_per_hour'),
  ],
  'cost-per-distance': [
    col('object', 'text'),
    col('mileage', 'distance'),
    col('services_cost', 'money'),
    col('fuel_cost', 'money'),
    col('total_cost', 'money'),
    col('cost_per_distance', 'cost_per_distance'),
  ],
  // One row per defect of the inspections submitted in the period (docs/product.md "Inspections").
  'inspections-with-defects': [
    col('date', 'date'),
    col('object_type', 'object_type'),
    col('object', 'text'),
    col('form', 'text'),
    col('item', 'inspection_item'),
    col('severity', 'severity'),
    col('certification', 'certification'),
    col('certified_by', 'text'),
  ],
  // The work orders completed in the period (docs/product.md "Work orders"): their line items' cost and
  // downtime in hours.
  'work-orders': [
    col('date', 'date'),
    col('object_type', 'object_type'),
    col('object', 'text'),
    col('work_order', 'text'),
    col('assignee', 'text'),
    col('issues_count', 'count'),
    col('services_count', 'count'),
    col('cost', 'money'),
    col('downtime_hours', 'number'),
  ],
};

/** The columns of a report as the reply lists them: the period column first when grouped. */
export function reportColumns(type: ReportType, group: ReportGroup): ReportColumnDef[] {
  const own = REPORT_COLUMNS[type];
  return group === 'none' ? [...own] : [REPORT_PERIOD_COLUMN, ...own];
}

/**
 * The chart's one series per type: a column key, or `rows` (the number of rows per x).
 * Money, counts, volumes and distances are summed per x; ratios (consumption, cost per distance) are
 * recomputed from the sums.
 */
export const REPORT_CHART_SERIES: Record<ReportType, string> = {
  'service-costs-by-object': 'services_cost',
  'service-costs-by-line-item': 'cost',
  'service-costs-by-interval': 'services_cost',
  'services-performed': 'services_cost',
  'upcoming-overdue': 'rows',
  fuel: 'fuel_volume',
  'cost-per-distance': 'cost_per_distance',
  'inspections-with-defects': 'rows',
  'work-orders': 'cost',
};

/**
 * The keys of `totals` per type: summed columns, and the ratios (consumption, cost per distance)
 * recomputed from the sums. Columns whose sum means nothing (odometer readings, limits) have none.
 */
export const REPORT_TOTALS: Record<ReportType, readonly string[]> = {
  'service-costs-by-object': ['services_count', 'services_cost'],
  'service-costs-by-line-item': ['cost'],
  'service-costs-by-interval': ['services_count', 'services_cost'],
  'services-performed': ['services_cost'],
  'upcoming-overdue': [],
  fuel: [
    'fuel_count',
    'fuel_volume',
    'fuel_cost',
    'mileage',
    'engine_hours',
    'consumption',
    'consumption_per_hour',
  ],
  'cost-per-distance': ['mileage', 'services_cost', 'fuel_cost', 'total_cost', 'cost_per_distance'],
  'inspections-with-defects': [],
  'work-orders': ['issues_count', 'services_count', 'cost', 'downtime_hours'],
};

/** The most characters of the `ids` text (REPORT_IDS_MAX ids of up to 10 digits and their commas). */
export const REPORT_IDS_TEXT_MAX = REPORT_IDS_MAX * 11;
const IDS_TEXT = /^\d{1,10}(,\d{1,10})*$/;

/** The ids of `ids=1,2,3`: each once, in the order given (the text is checked by the contract). */
export function parseReportIds(text: string | undefined): number[] {
  if (!text) return [];
  const out: number[] = [];
  for (const part of text.split(',')) {
    const n = Number(part);
    if (n >= 1 && n <= Limits.intSigned && !out.includes(n)) out.push(n);
  }
  return out;
}

export const reportParams = z.object({ fid: pathId, type: z.enum(REPORT_TYPES) });

const reportQueryFields = {
  from: z.string().min(1).max(STATISTICS_PERIOD_TEXT_MAX).describe('YYYY-MM-DD or Unix seconds, fleet day'),
  to: z.string().min(1).max(STATISTICS_PERIOD_TEXT_MAX).describe('YYYY-MM-DD or Unix seconds, fleet day'),
  group: z.enum(REPORT_GROUPS).optional().describe('day, week (ISO), month or none (default)'),
  ot: objectType.optional().describe('Only objects of this type: u units, d drivers, t trailers'),
  ids: z
    .string()
    .max(REPORT_IDS_TEXT_MAX)
    .regex(IDS_TEXT, 'Expected a comma list of ids')
    .refine((s) => s.split(',').length <= REPORT_IDS_MAX, `At most ${REPORT_IDS_MAX} ids`)
    .optional()
    .describe('Only these objects of type `ot` (comma list)'),
};
const idsNeedOt = { message: 'ids needs ot', path: ['ids'] };

/** GET .../reports/{type}: period, grouping, objects. */
export const reportQuery = z
  .object(reportQueryFields)
  .refine((q) => q.ids === undefined || q.ot !== undefined, idsNeedOt);
export type ReportQuery = z.infer<typeof reportQuery>;

/** GET .../reports/{type}/export: the report's query and the file format. */
export const reportExportQuery = z
  .object({ ...reportQueryFields, format: z.enum(REPORT_FORMATS).describe('xlsx, csv or pdf') })
  .refine((q) => q.ids === undefined || q.ot !== undefined, idsNeedOt);
export type ReportExportQuery = z.infer<typeof reportExportQuery>;

const cell = z.union([z.string(), z.number(), z.null()]);

export const reportColumnWire = z.object({
  key: z.string().describe('Column key; its title is the i18n key reports.col.<key>'),
  kind: z.enum(REPORT_COLUMN_KINDS).describe('How the values are formatted (REPORT_COLUMN_KINDS)'),
});
export type ReportColumnWire = z.infer<typeof reportColumnWire>;

export const reportRowWire = z
  .record(z.string(), cell)
  .describe('Values by column key (core units, decision 2); object rows also carry ot and oid');
export type ReportRowWire = z.infer<typeof reportRowWire>;

export const reportChartWire = z.object({
  x: z
    .enum(['period', 'label'])
    .describe('period: x is a bucket first day YYYY-MM-DD; label: a row label (empty: a one-time service)'),
  series: z.string().describe('Column key summed (or recomputed) per x, or rows: the number of rows'),
  kind: z.enum(REPORT_COLUMN_KINDS).describe('Kind of the series values'),
  points: z
    .array(z.object({ x: z.string(), y: z.number().nullable() }))
    .max(REPORT_CHART_POINTS_MAX)
    .describe('In period order, or (x label) by value, largest first'),
});
export type ReportChartWire = z.infer<typeof reportChartWire>;

/** GET .../reports/{type}: the report. */
export const reportReply = z.object({
  type: z.enum(REPORT_TYPES),
  from: z.string().describe('First day, YYYY-MM-DD in the fleet zone'),
  to: z.string().describe('Last day, YYYY-MM-DD in the fleet zone'),
  group: z.enum(REPORT_GROUPS),
  ms: z.number().int().describe('Measure system of the fleet: 1 miles, otherwise km (the wire stays km)'),
  fm: z.number().int().describe('Fuel unit of the volumes: 1 litres, 2 US gallons'),
  columns: z.array(reportColumnWire),
  rows: z.array(reportRowWire).max(REPORT_ROWS_MAX),
  totals: z
    .record(z.string(), z.number().nullable())
    .describe('Summed columns (money, count, volume, distance, number) and recomputed ratios, by key'),
  truncated: flag.describe('1 when rows beyond REPORT_ROWS_MAX were left out'),
  chart: reportChartWire,
});
export type ReportWire = z.infer<typeof reportReply>;
