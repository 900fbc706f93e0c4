import {
  REPORT_FORMATS,
  REPORT_GROUP_DEFAULT,
  REPORT_GROUPS,
  REPORT_TYPES,
  type ReportFormat,
  type ReportGroup,
  type ReportQuery,
  type ReportType,
} from '@fleetkeep/core';
import { client } from '../../lib/client.ts';
import { decodePeriod, encodePeriod, type Period } from '../../lib/periods.ts';

/**
 * Pure rules of the reports screen (PRODUCT.md "Reports", spec §2 /reports): what the URL keeps of a
 * report (type, period, objects, grouping), so that a reload or a shared link shows the same report,
 * and the query the server is asked with.
 */

/** Object kinds a report can be narrowed to: units, drivers, trailers (core contract `ot`). */
export const OBJECT_KINDS = ['u', 'd', 't'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

/** What the URL keeps of the report shown. */
export interface ReportState<T extends string = ReportType> {
  type: T;
  period: Period;
  /** Only objects of this kind; null: every object of the fleet. */
  kind: ObjectKind | null;
  /** Only these objects of `kind`; empty: all of that kind. */
  objects: number[];
  group: ReportGroup;
}

const ID = /^[1-9]\d{0,9}$/;

/** The chosen object ids of `obj=1,2,3`: positive integers, each once, in the order given. */
export function decodeObjects(raw: string | null): number[] {
  if (!raw) return [];
  const out: number[] = [];
  for (const part of raw.split(',')) {
    const text = part.trim();
    if (!ID.test(text)) continue;
    const id = Number(text);
    if (id <= 4294967295 && !out.includes(id)) out.push(id);
  }
  return out;
}

const oneOf = <T extends string>(list: readonly T[], raw: string | null): T | null =>
  raw !== null && (list as readonly string[]).includes(raw) ? (raw as T) : null;

/**
 * The report of the URL: `type`, the period (lib/periods: `period`, `from`, `to`), `ot=u|d|t` with
 * `obj=1,2` (objects only with a kind), `group=day|week|month` (none when absent). Unknown values fall
 * back to the defaults (the first type, a month, every object, no grouping).
 */
export function decodeReportState<T extends string = ReportType>(
  params: URLSearchParams,
  today: string,
  types: readonly T[] = REPORT_TYPES as unknown as readonly T[],
): ReportState<T> {
  const type = oneOf(types, params.get('type')) ?? (types[0] as T);
  const kind = oneOf(OBJECT_KINDS, params.get('ot'));
  const group = oneOf(REPORT_GROUPS, params.get('group')) ?? REPORT_GROUP_DEFAULT;
  const objects = kind === null ? [] : decodeObjects(params.get('obj'));
  return { type, period: decodePeriod(params, today), kind, objects, group };
}

/**
 * Writes a report into a copy of the query, other parameters (the table's sort and search) left alone;
 * defaults are left out so that the plain /reports stays plain. `defaultType` is the first type.
 */
export function encodeReportState(
  params: URLSearchParams,
  state: ReportState<string>,
  defaultType: string = REPORT_TYPES[0],
): URLSearchParams {
  const next = encodePeriod(params, state.period);
  if (state.type === defaultType) next.delete('type');
  else next.set('type', state.type);
  if (state.kind === null) next.delete('ot');
  else next.set('ot', state.kind);
  if (state.kind === null || state.objects.length === 0) next.delete('obj');
  else next.set('obj', state.objects.join(','));
  if (state.group === REPORT_GROUP_DEFAULT) next.delete('group');
  else next.set('group', state.group);
  return next;
}

/**
 * The query of GET /api/fleets/{fid}/reports/{type} (core `reportQuery`): the period's fleet days, the
 * grouping unless none, `ot` and `ids` when narrowed.
 */
export function reportQueryOf(state: ReportState<string>): ReportQuery {
  const query: ReportQuery = { from: state.period.from, to: state.period.to };
  if (state.group !== REPORT_GROUP_DEFAULT) query.group = state.group;
  if (state.kind !== null) {
    query.ot = state.kind;
    if (state.objects.length > 0) query.ids = state.objects.join(',');
  }
  return query;
}

/** The URL of a report's export in `format` (core route `reports.export`; the report's query and the format). */
export function reportExportUrl(fid: number, state: ReportState<string>, format: ReportFormat): string {
  return client.reports.export.url(fid, state.type, { ...reportQueryOf(state), format });
}

/** PRODUCT.md "Reports": exported as XLSX, CSV and PDF (core REPORT_FORMATS). */
export const EXPORT_FORMATS = REPORT_FORMATS;
export type ExportFormat = ReportFormat;

/** How far a download is, 0…1; null when its size is unknown (the bar then only shows it runs). */
export function progressRatio(progress: { loaded: number; total: number | null }): number | null {
  if (progress.total === null || progress.total <= 0) return null;
  return Math.min(1, Math.max(0, progress.loaded / progress.total));
}
