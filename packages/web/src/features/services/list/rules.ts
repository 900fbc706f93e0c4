import {
  hasTag,
  localDate,
  type ObjectType,
  type ServiceWire,
  type StatusBadge,
  statusBadge,
  statusOf,
} from '@fleetkeep/core';
import type { Can } from '../../../lib/permissions.ts';
import {
  decodeUnitTypes,
  encodeUnitTypes,
  matchesUnitTypes,
  type UnitTypeFilter,
} from '../../../lib/unitTypes.ts';

/**
 * Pure rules of the services list (spec §2 /services, §4 status flags, §9 remaining value; PRODUCT.md
 * "Services", "The status engine").
 */

export const TABS = ['upcoming', 'inProgress', 'archive'] as const;
export type Tab = (typeof TABS)[number];

export function parseTab(value: string | null): Tab {
  return (TABS as readonly string[]).includes(value ?? '') ? (value as Tab) : 'upcoming';
}

/** Spec §4: Upcoming = Due plus overdue; In progress; Archive = closed and rejected. */
export function inTab(f: number, tab: Tab): boolean {
  const status = statusOf(f);
  if (tab === 'upcoming') return status === 'due';
  if (tab === 'inProgress') return status === 'inProgress';
  return status === 'closed' || status === 'rejected';
}

/** Status filter choices of each tab (the In progress tab has one status only). */
export function statusChoices(tab: Tab): StatusBadge[] {
  if (tab === 'upcoming') return ['due', 'overdue'];
  if (tab === 'archive') return ['closed', 'rejected'];
  return [];
}

export const OBJECT_TYPES: readonly ObjectType[] = ['u', 'd', 't'];

export interface ListFilters {
  object: ObjectType | null;
  unitTypes: UnitTypeFilter[];
  status: StatusBadge | null;
  /** A unit tag (docs/product.md "The vehicle profile"): units with it only. */
  tag: string | null;
}

/**
 * Reads the filters from the URL: `obj=u`, `ut=1,3`, `st=overdue`, `tag=north`; unknown values are
 * dropped.
 */
export function decodeFilters(params: URLSearchParams, tab: Tab): ListFilters {
  const obj = params.get('obj');
  const object = OBJECT_TYPES.includes(obj as ObjectType) ? (obj as ObjectType) : null;
  const unitTypes = decodeUnitTypes(params.get('ut'));
  const st = params.get('st') as StatusBadge | null;
  const status = st !== null && statusChoices(tab).includes(st) ? st : null;
  const tag = params.get('tag')?.trim() || null;
  return { object, unitTypes, status, tag };
}

/** Writes the filters into a copy of the query, leaving other parameters alone. */
export function encodeFilters(params: URLSearchParams, filters: ListFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string) => (value === '' ? next.delete(key) : next.set(key, value));
  set('obj', filters.object ?? '');
  set('ut', encodeUnitTypes(filters.unitTypes));
  set('st', filters.status ?? '');
  set('tag', filters.tag ?? '');
  return next;
}

/**
 * The rows of a tab that pass the filters. Unit types and the tag apply to units only: with types or a
 * tag chosen, drivers and trailers drop out. `unitType` returns a unit's type id (undefined when
 * unknown), `unitTags` its tags.
 */
export function filterServices(
  services: readonly ServiceWire[],
  tab: Tab,
  filters: ListFilters,
  unitType: (id: number) => number | null | undefined,
  unitTags: (id: number) => readonly string[] = () => [],
): ServiceWire[] {
  return services.filter((s) => {
    if (!inTab(s.f, tab)) return false;
    if (filters.object !== null && s.t !== filters.object) return false;
    if (
      filters.unitTypes.length > 0 &&
      (s.t !== 'u' || !matchesUnitTypes(filters.unitTypes, unitType(s.uid)))
    )
      return false;
    if (filters.status !== null && statusBadge(s.f) !== filters.status) return false;
    if (filters.tag !== null && (s.t !== 'u' || !hasTag(unitTags(s.uid), filters.tag))) return false;
    return true;
  });
}

/**
 * The date column of a tab, also its sort key: the planned date (term of completion) while Due, the
 * start date while In progress (its planned date when it had none), the end date in the archive.
 */
export function dateOf(s: ServiceWire, tab: Tab): number | null {
  if (tab === 'archive') return s.end_date;
  if (tab === 'inProgress') return s.start_date ?? s.limit_date;
  return s.limit_date;
}

/** Sort key of the planned column: the planned date, else the "expected on" forecast. */
export function plannedSortKey(s: ServiceWire): number | null {
  return s.limit_date ?? s.forecast_date ?? null;
}

/**
 * Remaining mileage (km) and engine hours to the service's limit (spec §9: limit − current); null when
 * either is unknown. Negative values are overdue.
 */
export function remaining(s: ServiceWire): { mileage: number | null; engineHours: number | null } {
  const round3 = (v: number) => Math.round(v * 1000) / 1000;
  return {
    mileage:
      s.limit_mileage !== null && s.current_mileage !== null
        ? round3(s.limit_mileage - s.current_mileage)
        : null,
    engineHours:
      s.limit_engine_hours !== null && s.current_engine_hours !== null
        ? round3(s.limit_engine_hours - s.current_engine_hours)
        : null,
  };
}

/** Quick actions of one row; Close goes to /services/close, Reject asks first. */
export type QuickAction = 'inProgress' | 'close' | 'reject';

/**
 * Spec §4 / PRODUCT.md "The status engine": Due → In progress, Closed, Rejected; In progress → Closed,
 * Rejected. Only with service.manage; archived services have none (their status is frozen).
 */
export function quickActions(f: number, can: Can): QuickAction[] {
  if (!can('service.manage')) return [];
  const status = statusOf(f);
  if (status === 'due') return ['inProgress', 'close', 'reject'];
  if (status === 'inProgress') return ['close', 'reject'];
  return [];
}

/** Row actions of the archive: correct (archive.edit) and delete (archive.delete). */
export function archiveActions(can: Can): { edit: boolean; delete: boolean } {
  return { edit: can('archive.edit'), delete: can('archive.delete') };
}

export type BulkAction = QuickAction | 'delete';

/** Bulk actions of a tab (PRODUCT.md "Services" batch actions; delete only in the archive). */
export function bulkActions(tab: Tab, can: Can): BulkAction[] {
  if (tab === 'archive') return can('archive.delete') ? ['delete'] : [];
  if (!can('service.manage')) return [];
  return tab === 'upcoming' ? ['inProgress', 'close', 'reject'] : ['close', 'reject'];
}

/** The selected ids that are still rows of the table (rows leave after a live update or an action). */
export function liveSelection(selected: readonly string[], rows: readonly ServiceWire[]): number[] {
  const present = new Set(rows.map((s) => s.id));
  return selected.map(Number).filter((id) => present.has(id));
}

/** The server takes a range whose last day is at most 366 days after its first (server archive.ts). */
export const ARCHIVE_MAX_DAYS = 366;

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayNumber(text: string): number | null {
  const m = DAY_TEXT.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const date = new Date(ms);
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return ms / 86_400_000;
}

/** Today (YYYY-MM-DD) in the fleet zone. */
export function fleetToday(tz: number, nowSeconds: number): string {
  return localDate(tz, nowSeconds);
}

/** The default archive period: the current month of `today` (YYYY-MM-DD), first to last day. */
export function defaultPeriod(today: string): { from: string; to: string } {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, '0');
  return { from: `${y}-${mm}-01`, to: `${y}-${mm}-${String(last).padStart(2, '0')}` };
}

export type PeriodError = 'invalid' | 'order' | 'tooLong';

/** Checks an archive period: valid dates, from ≤ to, at most 366 days. */
export function periodError(from: string, to: string): PeriodError | null {
  const a = dayNumber(from);
  const b = dayNumber(to);
  if (a === null || b === null) return 'invalid';
  if (a > b) return 'order';
  if (b - a > ARCHIVE_MAX_DAYS) return 'tooLong';
  return null;
}

/** The period from the URL (`from`, `to`), the current month when absent or malformed. */
export function decodePeriod(params: URLSearchParams, today: string): { from: string; to: string } {
  const from = params.get('from');
  const to = params.get('to');
  const fallback = defaultPeriod(today);
  return {
    from: from !== null && dayNumber(from) !== null ? from : fallback.from,
    to: to !== null && dayNumber(to) !== null ? to : fallback.to,
  };
}
