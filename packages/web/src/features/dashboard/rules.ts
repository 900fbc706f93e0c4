import {
  kmToFleetDistance,
  MeasureSystem,
  ServiceFlag,
  type ServiceWire,
  type StatisticsDay,
  type StatisticsUnitRow,
  statusOf,
  type UnitWire,
} from '@fleetkeep/core';
import { dayNumber, dayText } from '../../lib/periods.ts';

/**
 * Pure rules of the dashboard (spec §2 /dashboard; §9 "Time ranges"; PRODUCT.md "Dashboard"):
 * the period, the layout of the sections (order and hidden ones, kept per user), the counts of
 * services and objects, the costs per distance, the top units, the chart series and the "needs
 * attention" lists. Money is summed as integer thousandths (the wire's exact decimals, spec §5).
 */

// The period (spec §9 "Time ranges") is lib/periods.ts, shared with the fuel list.

// --- layout (PRODUCT.md: sections can be shown or hidden and reordered, remembered per user) ---

export const SECTION_IDS = [
  'status',
  'objects',
  'intervals',
  'costs',
  'perDistance',
  'costChart',
  'topUnits',
  'attention',
  'failedInspections',
  'overdueWorkOrders',
  'map',
  'openIssues',
  'expiringDocuments',
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

/** The locale key of a section's title: the dashboard's own, or the workshop module's for its section. */
export function sectionTitleKey(id: SectionId): string {
  if (id === 'failedInspections') return 'inspections.dashboard';
  if (id === 'openIssues') return 'issues.dashboardTitle';
  if (id === 'expiringDocuments') return 'documents.dashboard';
  return `dashboard.section_${id}`;
}

/** The user setting's key (PATCH /api/user/settings) holding the layout. */
export const LAYOUT_SETTING = 'dashboard';

export interface Layout {
  order: SectionId[];
  hidden: SectionId[];
}

export const DEFAULT_LAYOUT: Layout = { order: [...SECTION_IDS], hidden: [] };

const isSection = (v: unknown): v is SectionId => (SECTION_IDS as readonly unknown[]).includes(v);

/**
 * The layout of a saved setting, whatever it holds: known ids in the saved order (duplicates and unknown
 * ids dropped), sections the setting does not name (added later) appended in their default order.
 */
export function normalizeLayout(saved: unknown): Layout {
  const value = (typeof saved === 'object' && saved !== null ? saved : {}) as {
    order?: unknown;
    hidden?: unknown;
  };
  const order: SectionId[] = [];
  for (const id of Array.isArray(value.order) ? value.order : []) {
    if (isSection(id) && !order.includes(id)) order.push(id);
  }
  for (const id of SECTION_IDS) if (!order.includes(id)) order.push(id);
  const hidden = SECTION_IDS.filter((id) => Array.isArray(value.hidden) && value.hidden.includes(id));
  return { order, hidden };
}

/** Moves a section one place up (-1) or down (+1); unchanged at either end. */
export function moveSection(layout: Layout, id: SectionId, step: -1 | 1): Layout {
  const at = layout.order.indexOf(id);
  const to = at + step;
  if (at < 0 || to < 0 || to >= layout.order.length) return layout;
  const order = [...layout.order];
  [order[at], order[to]] = [order[to] as SectionId, order[at] as SectionId];
  return { ...layout, order };
}

/** Shows a hidden section or hides a shown one. */
export function toggleSection(layout: Layout, id: SectionId): Layout {
  const hidden = layout.hidden.includes(id)
    ? layout.hidden.filter((h) => h !== id)
    : SECTION_IDS.filter((s) => s === id || layout.hidden.includes(s));
  return { ...layout, hidden };
}

/** The sections shown, in order. */
export const visibleSections = (layout: Layout): SectionId[] =>
  layout.order.filter((id) => !layout.hidden.includes(id));

export const sameLayout = (a: Layout, b: Layout): boolean =>
  a.order.join() === b.order.join() && a.hidden.join() === b.hidden.join();

// --- counts ---

export interface StatusCounts {
  due: number;
  overdue: number;
  inProgress: number;
  total: number;
}

/**
 * Open services by status (spec §4): Due without an overdue flag, overdue (a flag of a Due service), In
 * progress. Closed and rejected ones are not counted.
 */
export function statusCounts(services: readonly Pick<ServiceWire, 'f'>[]): StatusCounts {
  const out = { due: 0, overdue: 0, inProgress: 0, total: 0 };
  for (const { f } of services) {
    const status = statusOf(f);
    if (status === 'inProgress') out.inProgress++;
    else if (status !== 'due') continue;
    else if (f & ServiceFlag.overdue) out.overdue++;
    else out.due++;
    out.total++;
  }
  return out;
}

/** Objects active vs in service (spec §4: `ins` is 1 while a service of the object is in progress). */
export function objectCounts(objects: readonly { ins: number }[]): { active: number; inService: number } {
  const inService = objects.filter((o) => o.ins !== 0).length;
  return { active: objects.length - inService, inService };
}

// --- costs ---

const thousandths = (v: number) => Math.round(v * 1000);

/**
 * PRODUCT.md: cost per 1 km (or mile) = cost ÷ distance driven in the fleet's unit; null (shown '-') when
 * nothing was driven.
 */
export function costPerDistance(cost: number, distanceKm: number, miles: boolean): number | null {
  if (!(distanceKm > 0)) return null;
  const distance = kmToFleetDistance(distanceKm, miles ? MeasureSystem.miles : MeasureSystem.meters);
  return distance > 0 ? cost / distance : null;
}

/** A cost per distance for display: '-' when there is none. */
export const perDistanceText = (value: number | null, money: (v: number) => string): string =>
  value === null ? '-' : money(value);

export interface UnitCost {
  uid: number;
  services: number;
  fuel: number;
  total: number;
  distanceKm: number;
  perDistance: number | null;
}

/** The units of the period with the highest total cost (services + fuel), at most `limit`; ties by id. */
export function topUnits(rows: readonly StatisticsUnitRow[], miles: boolean, limit = 5): UnitCost[] {
  return rows
    .filter((r) => r.total_cost > 0)
    .map((r) => ({
      uid: r.uid,
      services: r.services_cost,
      fuel: r.fuel_cost,
      total: r.total_cost,
      distanceKm: r.mileage,
      perDistance: costPerDistance(r.total_cost, r.mileage, miles),
    }))
    .sort((a, b) => b.total - a.total || a.uid - b.uid)
    .slice(0, limit);
}

/** Longest period charted per day; longer ones are charted per week. */
export const DAILY_CHART_MAX_DAYS = 92;

export interface CostSeries {
  step: 'day' | 'week';
  /** First day of each bucket, YYYY-MM-DD. */
  starts: string[];
  services: number[];
  fuel: number[];
}

/**
 * The service and fuel cost over the period, every day (or every 7 days from the first one for periods
 * longer than DAILY_CHART_MAX_DAYS) with a bucket, empty ones at 0.
 */
export function costSeries(days: readonly StatisticsDay[], from: string, to: string): CostSeries {
  const first = dayNumber(from);
  const last = dayNumber(to);
  if (first === null || last === null || last < first)
    return { step: 'day', starts: [], services: [], fuel: [] };
  const step = last - first + 1 > DAILY_CHART_MAX_DAYS ? 'week' : 'day';
  const size = step === 'week' ? 7 : 1;
  const count = Math.floor((last - first) / size) + 1;
  const services = new Array<number>(count).fill(0);
  const fuel = new Array<number>(count).fill(0);
  for (const d of days) {
    const n = dayNumber(d.day);
    if (n === null || n < first || n > last) continue;
    const i = Math.floor((n - first) / size);
    services[i] = (services[i] ?? 0) + thousandths(d.services_cost);
    fuel[i] = (fuel[i] ?? 0) + thousandths(d.fuel_cost);
  }
  return {
    step,
    starts: Array.from({ length: count }, (_, i) => dayText(first + i * size)),
    services: services.map((v) => v / 1000),
    fuel: fuel.map((v) => v / 1000),
  };
}

// --- needs attention ---

/** Overdue services (a flag of a Due service, spec §4), the longest overdue (earliest planned date) first. */
export function overdueServices<T extends Pick<ServiceWire, 'id' | 'f' | 'limit_date'>>(
  services: readonly T[],
): T[] {
  return services
    .filter((s) => statusOf(s.f) === 'due' && (s.f & ServiceFlag.overdue) !== 0)
    .sort(
      (a, b) =>
        (a.limit_date ?? Number.MAX_SAFE_INTEGER) - (b.limit_date ?? Number.MAX_SAFE_INTEGER) || a.id - b.id,
    );
}

/** How long a unit may stay silent before its counters count as stopped. */
export const STALE_AFTER_SECONDS = 24 * 3600;

/**
 * Units whose counters stopped: a last message older than STALE_AFTER_SECONDS. Units that never sent one
 * (no telematics) are not listed. The longest silent first.
 */
export function staleUnits<T extends Pick<UnitWire, 'id' | 'lmsg'>>(units: readonly T[], now: number): T[] {
  return units
    .filter((u) => u.lmsg !== null && now - u.lmsg.t > STALE_AFTER_SECONDS)
    .sort((a, b) => (a.lmsg?.t ?? 0) - (b.lmsg?.t ?? 0) || a.id - b.id);
}
