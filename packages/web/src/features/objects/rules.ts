import { evaluate, type IntervalRule, KM_PER_MILE, localDate, ServiceFlag } from '@fleetkeep/core';
import { naturalCollator } from '../../components/DataTable/rules.ts';
import { MAX_UNIT_TYPES } from '../intervals/rules.ts';

/**
 * Pure rules of the service objects list and the object pages (spec §2 /items, /unit, /driver,
 * /trailer; §3 "Unit", "Driver and trailer"; §4 Active / In service; §9 "Remaining value";
 * PRODUCT.md "Service objects and counters").
 */

/** Object type codes of the wire (spec §3 "Service": u unit, d driver, t trailer). */
export type ObjectType = 'u' | 'd' | 't';
export const OBJECT_TYPES: readonly ObjectType[] = ['u', 'd', 't'];

/** The page kind of a route (/unit, /driver, /trailer) and its wire code, API path and collection. */
export type ObjectKind = 'unit' | 'driver' | 'trailer';
export const KIND_INFO = {
  unit: { t: 'u', path: 'units', collection: 'avl_unit' },
  driver: { t: 'd', path: 'drivers', collection: 'driver' },
  trailer: { t: 't', path: 'trailers', collection: 'trailer' },
} as const satisfies Record<ObjectKind, { t: ObjectType; path: string; collection: string }>;
export const KIND_OF_TYPE: Record<ObjectType, ObjectKind> = { u: 'unit', d: 'driver', t: 'trailer' };

/** A unit as `GET /api/fleets/:fid/units` sends it (server `unitToWire`): km and hours. */
export interface UnitWire {
  id: number;
  nm: string;
  uid?: string;
  ut?: number | null;
  cnm?: number;
  cneh?: number;
  acnm?: number;
  aceh?: number;
  ins?: number;
  cf?: { id: number; v: string }[];
}

/** A driver or trailer (server `personToWire`). */
export interface PersonWire {
  id: number;
  n: string;
  ds?: string;
  c?: string;
  ins?: number;
  cf?: { id: number; v: string }[];
}

/** One row of the /items table: a unit, driver or trailer. */
export interface ObjectRow {
  key: string;
  id: number;
  t: ObjectType;
  name: string;
  /** Unit type id; null unknown; undefined for drivers and trailers. */
  ut: number | null | undefined;
  /** Mileage in km and engine hours; null for drivers and trailers (they have no counters). */
  mileage: number | null;
  engineHours: number | null;
  inService: boolean;
}

export function unitRow(u: UnitWire): ObjectRow {
  return {
    key: `u${u.id}`,
    id: u.id,
    t: 'u',
    name: u.nm,
    ut: u.ut ?? null,
    mileage: u.cnm ?? 0,
    engineHours: u.cneh ?? 0,
    inService: (u.ins ?? 0) !== 0,
  };
}

export function personRow(p: PersonWire, t: 'd' | 't'): ObjectRow {
  return {
    key: `${t}${p.id}`,
    id: p.id,
    t,
    name: p.n,
    ut: undefined,
    mileage: null,
    engineHours: null,
    inService: (p.ins ?? 0) !== 0,
  };
}

/** Spec §3: names sort naturally and case-insensitively ('unit 2' before 'Unit 10'). */
export function compareNames(a: string, b: string): number {
  return naturalCollator.compare(a, b);
}

/** Rows in natural name order (the list's order before the user picks a column). */
export function sortByName<T extends { name: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => compareNames(a.name, b.name));
}

/** Spec §4: a unit (driver, trailer) is Active without an in-progress service, otherwise In service. */
export type StateLabel = 'active' | 'inService';
export function stateOf(row: { inService: boolean }): StateLabel {
  return row.inService ? 'inService' : 'active';
}

/** The unit-type filter value of units with no type (spec §3: the client's entry with id null). */
export const UNKNOWN_TYPE = 'none';
export type TypeFilter = number | typeof UNKNOWN_TYPE;

export interface ObjectFilters {
  /** One object type, or null for all. */
  kind: ObjectType | null;
  /** Unit types; empty means any. With types chosen only units are listed. */
  unitTypes: TypeFilter[];
}

/** Reads the filters from the query string (`kind=u|d|t`, `ut=3,7,none`); bad values are dropped. */
export function decodeFilters(params: URLSearchParams): ObjectFilters {
  const kind = params.get('kind');
  const unitTypes = [
    ...new Set(
      (params.get('ut') ?? '')
        .split(',')
        .filter((s) => /^\d+$/.test(s) || s === UNKNOWN_TYPE)
        .map((s): TypeFilter => (s === UNKNOWN_TYPE ? UNKNOWN_TYPE : Number(s))),
    ),
  ].slice(0, MAX_UNIT_TYPES);
  return {
    kind: (OBJECT_TYPES as readonly string[]).includes(kind ?? '') ? (kind as ObjectType) : null,
    unitTypes,
  };
}

/** Writes the filters into a copy of the query string, keeping the other parameters. */
export function encodeFilters(params: URLSearchParams, filters: ObjectFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  if (filters.kind) next.set('kind', filters.kind);
  else next.delete('kind');
  const types = [...new Set(filters.unitTypes)].slice(0, MAX_UNIT_TYPES);
  if (types.length) next.set('ut', types.join(','));
  else next.delete('ut');
  return next;
}

/** The rows passing the kind and unit-type filters. */
export function filterObjects(rows: readonly ObjectRow[], filters: ObjectFilters): ObjectRow[] {
  const types = new Set(filters.unitTypes);
  return rows.filter((r) => {
    if (filters.kind && r.t !== filters.kind) return false;
    if (types.size === 0) return true;
    if (r.t !== 'u') return false;
    return types.has(r.ut === null || r.ut === undefined ? UNKNOWN_TYPE : r.ut);
  });
}

/** The selection of the bulk mode as navigation state entries ({id, t}), from row keys like 'u12'. */
export function selectionEntries(keys: readonly string[]): { id: number; t: ObjectType }[] {
  const out: { id: number; t: ObjectType }[] = [];
  for (const key of keys) {
    const t = key.charAt(0);
    const id = Number(key.slice(1));
    if ((OBJECT_TYPES as readonly string[]).includes(t) && Number.isInteger(id) && id > 0)
      out.push({ id, t: t as ObjectType });
  }
  return out;
}

/** A distance in km in the fleet's unit (miles when the fleet's `ms` is 1). */
export function toFleetDistance(km: number, miles: boolean): number {
  return miles ? km / KM_PER_MILE : km;
}

/**
 * PRODUCT.md: cost per 1 km (or mile) = cost ÷ distance in the fleet unit; null (shown '-') when the
 * distance is 0 or unknown.
 */
export function costPerDistance(cost: number, distanceKm: number | null, miles: boolean): number | null {
  if (distanceKm === null || !(distanceKm > 0)) return null;
  return cost / toFleetDistance(distanceKm, miles);
}

/** GET /api/fleets/{fid}/units/{uid}/statistics (server modules/statistics): km, hours, costs as decimals. */
export interface UnitStatisticsWire {
  from: string;
  to: string;
  mileage: number;
  engine_hours: number;
  services_cost: number;
  fuel_cost: number;
  cost_per_km: number | null;
}

/** The period indicators of the general tab from a unit's statistics, per 1 km or 1 mile. */
export interface PeriodIndicators {
  distanceKm: number;
  engineHours: number;
  services: number;
  fuel: number;
  total: number;
  /** null: nothing driven (shown '-'). */
  perDistance: number | null;
}

/**
 * PRODUCT.md "Unit page indicators": total cost = closed services + fuel of the period; cost per 1 km
 * (or mile) = that total ÷ the distance driven in the period (not the unit's whole mileage).
 */
export function periodIndicators(s: UnitStatisticsWire, miles: boolean): PeriodIndicators {
  // Exact decimals (3 digits) summed in thousandths.
  const total = (Math.round(s.services_cost * 1000) + Math.round(s.fuel_cost * 1000)) / 1000;
  return {
    distanceKm: s.mileage,
    engineHours: s.engine_hours,
    services: s.services_cost,
    fuel: s.fuel_cost,
    total,
    perDistance: costPerDistance(total, s.mileage, miles),
  };
}

/** A service as the services API sends it (server `serviceToWire`); only what these pages read. */
export interface ServiceWire {
  id: number;
  uid: number;
  t: ObjectType;
  f: number;
  n: string;
  ivid: number | null;
  limit_date: number | null;
  forecast_date?: number | null;
  start_date: number | null;
  end_date: number | null;
  total_cost: number;
}

/** The services of one object. */
export function servicesOf<T extends { uid: number; t: ObjectType }>(
  services: readonly T[],
  t: ObjectType,
  id: number,
): T[] {
  return services.filter((s) => s.t === t && s.uid === id);
}

/** Sum of the costs of the closed services (PRODUCT.md "cost of services"; rejected ones cost nothing). */
export function closedCost(services: readonly ServiceWire[]): number {
  const thousandths = services
    .filter((s) => (s.f & ServiceFlag.closed) !== 0)
    .reduce((sum, s) => sum + Math.round((s.total_cost ?? 0) * 1000), 0);
  return thousandths / 1000;
}

/** Spec §9 time ranges a cost period can take (days). */
export const PERIODS = { week: 7, month: 30, quarter: 90, year: 365 } as const;
export type Period = keyof typeof PERIODS;
export function decodePeriod(value: string | null): Period {
  return value !== null && value in PERIODS ? (value as Period) : 'year';
}

/** The archive query range of a period ending today in the fleet zone: whole days, both ends included. */
export function periodRange(period: Period, tz: number, now: number): { from: string; to: string } {
  const days = PERIODS[period];
  return { from: localDate(tz, now - (days - 1) * 86400), to: localDate(tz, now) };
}

/** An interval's rule fields (the intervals API; km and hours). */
export interface IntervalWire extends IntervalRule {
  id: number;
  n: string;
  u: {
    id: number;
    t: ObjectType;
    lcnm: number | null;
    lceh: number | null;
    ltm: number | null;
    cnt: number;
  }[];
}

/** One baseline of `GET /api/fleets/:fid/{units|drivers|trailers}/:id/bases`. */
export interface BaseWire {
  ivid: number;
  lcnm: number | null;
  lceh: number | null;
  ltm: number | null;
  cnt: number;
}

/** A remaining value of one kind: the amount (≥ 0) and whether the threshold has passed. */
export interface Remaining {
  kind: 'mileage' | 'engineHours' | 'days';
  /** Absolute amount in the fleet unit (distance), hours or days. */
  amount: number;
  overdue: boolean;
}

/**
 * Spec §9 "Remaining value": last service value + step − current, per enabled kind, in the fleet's
 * distance unit; time in days to the due date (core `evaluate`, the status engine's own rule). Drivers
 * and trailers have no counters, so only their time rule counts.
 */
export function remainingValues(
  interval: IntervalRule,
  base: BaseWire,
  counters: { mileage: number | null; engineHours: number | null },
  miles: boolean,
  now: number,
  tz: number,
): Remaining[] {
  const ev = evaluate(
    interval,
    { lcnm: base.lcnm ?? 0, lceh: base.lceh ?? 0, ltm: base.ltm ?? now },
    counters,
    now,
    tz,
  );
  const out: Remaining[] = [];
  const { mileage, engineHours, days } = ev.remaining;
  if (mileage !== null)
    out.push({ kind: 'mileage', amount: Math.abs(toFleetDistance(mileage, miles)), overdue: mileage < 0 });
  if (engineHours !== null)
    out.push({ kind: 'engineHours', amount: Math.abs(engineHours), overdue: engineHours < 0 });
  if (days !== null) out.push({ kind: 'days', amount: Math.abs(days), overdue: days < 0 });
  return out;
}

/** The object's assignments joined with their intervals, in natural name order. */
export function assignedIntervals<I extends { id: number; n: string }>(
  intervals: readonly I[],
  bases: readonly BaseWire[],
): { interval: I; base: BaseWire }[] {
  const byId = new Map(intervals.map((iv) => [iv.id, iv]));
  const out: { interval: I; base: BaseWire }[] = [];
  for (const base of bases) {
    const interval = byId.get(base.ivid);
    if (interval) out.push({ interval, base });
  }
  return out.sort((a, b) => compareNames(a.interval.n, b.interval.n));
}
