import {
  consumptionLabel,
  formatCalendarDay,
  formatMoney,
  formatMoneyAmount,
  formatNumber,
  itemReportText,
  KM_PER_MILE,
  kmToFleetDistance,
  type ReportColumnKind,
  unitLabel,
  usesGallons,
  usesMiles,
} from '@fleetkeep/core';

/**
 * How the reports screen shows a value of each column kind (core contract `REPORT_COLUMN_KINDS`, spec §9
 * "Number display"): the wire keeps core units (km, hours, money in the fleet currency, volumes in the
 * fleet's fuel unit, cost per km); the screen converts distances and cost per distance for fleets in
 * miles, puts the unit in the column title and formats the numbers with core/format. Pure.
 */

export interface ReportFormatContext {
  /** i18next language (unit labels, grouping and decimal separator, money). */
  lang: string;
  /** The fleet's measure system (1 miles) and fuel unit (2 US gallons). */
  ms: number;
  fm: number;
  currency: string;
  /** The user's date format (spec §9 default DD.MM.YYYY) and the dayjs locale. */
  dateFormat: string;
  locale: string;
  /** Translation of the coded kinds (object type, status, line type) and of the engine-hours unit. */
  t: (key: string) => string;
}

export type CellValue = string | number | null | undefined;

const volumeText = (lang: string, fm: number) => unitLabel(lang, usesGallons(fm) ? 'gallon' : 'liter');
const distanceText = (lang: string, ms: number) => unitLabel(lang, usesMiles(ms) ? 'mile' : 'kilometer');

/**
 * The unit a column's title carries ('km', 'EUR', 'L/100 km', 'EUR/mi'), or null for kinds without one.
 * Consumption is fuel per 100 km in a km fleet and distance per fuel unit in a miles fleet.
 */
export function columnUnit(kind: ReportColumnKind, ctx: ReportFormatContext): string | null {
  switch (kind) {
    case 'money':
      return ctx.currency || null;
    case 'distance':
      return distanceText(ctx.lang, ctx.ms);
    case 'hours':
      return ctx.t('objects.engineHoursUnit');
    case 'volume':
      return volumeText(ctx.lang, ctx.fm);
    case 'consumption':
      return usesMiles(ctx.ms)
        ? `${distanceText(ctx.lang, ctx.ms)}/${volumeText(ctx.lang, ctx.fm)}`
        : `${volumeText(ctx.lang, ctx.fm)}/100 ${distanceText(ctx.lang, ctx.ms)}`;
    case 'consumption_per_hour':
      return consumptionLabel(ctx.lang, 'hours', ctx.ms, ctx.fm);
    case 'cost_per_distance': {
      const per = unitLabel(ctx.lang, usesMiles(ctx.ms) ? 'mile' : 'kilometer', 1);
      return ctx.currency ? `${ctx.currency}/${per}` : per;
    }
    default:
      return null;
  }
}

/** A column's title with its unit: 'Mileage, km'. */
export function columnTitle(title: string, kind: ReportColumnKind, ctx: ReportFormatContext): string {
  const unit = columnUnit(kind, ctx);
  return unit ? `${title}, ${unit}` : title;
}

/**
 * A wire value in the fleet's display unit, for sorting and charts: distances in km → miles, cost per km →
 * cost per mile for `ms` 1; other numbers as they are; null for no value.
 */
export function displayNumber(kind: ReportColumnKind, value: CellValue, ms: number): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  if (kind === 'distance') return kmToFleetDistance(value, ms);
  // Cost per km × km per mile = cost per mile.
  if (kind === 'cost_per_distance') return usesMiles(ms) ? value * KM_PER_MILE : value;
  return value;
}

/**
 * How many fraction digits a kind shows (spec §9: at most 3; counters whole and consumption to one
 * decimal, docs/product.md "Numbers, money and times"). Money has its currency's minor units.
 */
const DECIMALS: Partial<Record<ReportColumnKind, number>> = {
  count: 0,
  distance: 0,
  hours: 0,
  consumption: 1,
  consumption_per_hour: 1,
  cost_per_distance: 3,
};

/**
 * A number of a kind as the table shows it (the unit is in the title), in the user's language: '1,234.5',
 * money '1,467.35' with the currency's minor units.
 */
export function formatNumberOf(kind: ReportColumnKind, value: number, ctx: ReportFormatContext): string {
  if (kind === 'money') return formatMoneyAmount(value, ctx.currency, ctx.lang);
  return formatNumber(value, { decimals: DECIMALS[kind] ?? 3, locale: ctx.lang });
}

/** A cell's text (empty for no value); coded kinds worded through `t`, dates in the user's format. */
export function formatCell(kind: ReportColumnKind, value: CellValue, ctx: ReportFormatContext): string {
  if (value === null || value === undefined || value === '') return '';
  switch (kind) {
    case 'text':
      return String(value);
    case 'date':
      return formatCalendarDay(String(value), ctx.dateFormat, ctx.locale);
    case 'object_type':
      return ctx.t(`reports.ot.${value}`);
    case 'status':
      return ctx.t(`reports.status.${value}`);
    case 'line_type':
      return ctx.t(`reports.lineType.${value}`);
    case 'inspection_item':
      return itemReportText(String(value), ctx.t);
    case 'severity':
      return ctx.t(`inspections.severity.${value}`);
    case 'certification':
      return ctx.t(`inspections.cert.${value}`);
    default: {
      const n = displayNumber(kind, value, ctx.ms);
      return n === null ? String(value) : formatNumberOf(kind, n, ctx);
    }
  }
}

/** A total with its unit, for the line under the table: '1 234.5 EUR', '12 km'. */
export function formatTotal(kind: ReportColumnKind, value: number | null, ctx: ReportFormatContext): string {
  const n = displayNumber(kind, value, ctx.ms);
  if (n === null) return '–';
  if (kind === 'money') return formatMoney(n, ctx.currency, { locale: ctx.lang });
  const unit = columnUnit(kind, ctx);
  const text = formatNumberOf(kind, n, ctx);
  return unit ? `${text} ${unit}` : text;
}

/** The sort value of a cell: numbers in display units, dates and text as they are. */
export function sortValue(
  kind: ReportColumnKind,
  value: CellValue,
  ctx: ReportFormatContext,
): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return displayNumber(kind, value, ctx.ms);
  if (
    kind === 'object_type' ||
    kind === 'status' ||
    kind === 'line_type' ||
    kind === 'inspection_item' ||
    kind === 'severity' ||
    kind === 'certification'
  )
    return formatCell(kind, value, ctx);
  return value;
}
