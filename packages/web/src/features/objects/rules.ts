import {
  evaluate,
  hasTag,
  type IntervalBaseWire,
  type IntervalRule,
  type IntervalWire,
  localDate,
  type ObjectType,
  objectType,
  type PersonWire,
  ServiceFlag,
  type ServiceWire,
  type StatisticsUnitWire,
  type UnitWire,
} from '@fleetkeep/core';
import { kmToDisplay } from '../../lib/distance.ts';
import { naturalCollator } from '../../lib/naturalSort.ts';
import {
  decodeUnitTypes,
  encodeUnitTypes,
  matchesUnitTypes,
  type UnitTypeFilter,
} from '../../lib/unitTypes.ts';

/**
 * Pure rules of the service objects list and the object pages (spec §2 /items, /unit, /driver,
 * /trailer; §3 "Unit", "Driver and trailer"; §4 Active / In service; §9 "Remaining value";
 * PRODUCT.md "Service objects and counters"). The records are the core contract's wire types, narrowed
 * with `Pick` to what these pages read.
 */

/** Object type codes of the wire (spec §3 "Service": u unit, d driver, t trailer; core `objectType`). */
export const OBJECT_TYPES: readonly ObjectType[] = objectType.options;

/** The page kind of a route (/unit, /driver, /trailer) and its wire code, API path and collection. */
export type ObjectKind = 'unit' | 'driver' | 'trailer';
export const KIND_INFO = {
  unit: { t: 'u', path: 'units', collection: 'avl_unit' },
  driver: { t: 'd', path: 'drivers', collection: 'driver' },
  trailer: { t: 't', path: 'trailers', collection: 'trailer' },
} as const satisfies Record<ObjectKind, { t: ObjectType; path: string; collection: string }>;
export const KIND_OF_TYPE: Record<ObjectType, ObjectKind> = { u: 'unit', d: 'driver', t: 'trailer' };

/** The part of a unit (`GET /api/fleets/:fid/units`: km and hours) a row of the list reads. */
export type UnitRowSource = Pick<UnitWire, 'id' | 'nm' | 'ut' | 'cnm' | 'cneh' | 'ins'> &
  Partial<Pick<UnitWire, 'vp'>>;
/** The part of a driver or trailer a row of the list reads. */
export type PersonRowSource = Pick<PersonWire, 'id' | 'n' | 'ins'>;

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
  /** A unit's plate, VIN and tags (docs/product.md "The vehicle profile"); empty for drivers and trailers. */
  plate: string;
  vin: string;
  tags: string[];
}

export function unitRow(u: UnitRowSource): ObjectRow {
  return {
    key: `u${u.id}`,
    id: u.id,
    t: 'u',
    name: u.nm,
    ut: u.ut,
    mileage: u.cnm,
    engineHours: u.cneh,
    inService: u.ins !== 0,
    plate: u.vp?.pl ?? '',
    vin: u.vp?.vin ?? '',
    tags: u.vp?.tg ?? [],
  };
}

/**
 * The search text of a row's plate column: plate and VIN as written and without spaces and dashes, so
 * that "bxy123" finds "B-XY 123" (docs/product.md "The vehicle profile": search covers plate and VIN).
 */
export const plateSearchText = (r: Pick<ObjectRow, 'plate' | 'vin'>): string => {
  const squeeze = (s: string) => s.replace(/[\s-]/g, '');
  return [r.plate, squeeze(r.plate), r.vin].filter(Boolean).join(' ');
};

export function personRow(p: PersonRowSource, t: Exclude<ObjectType, 'u'>): ObjectRow {
  return {
    key: `${t}${p.id}`,
    id: p.id,
    t,
    name: p.n,
    ut: undefined,
    mileage: null,
    engineHours: null,
    inService: p.ins !== 0,
    plate: '',
    vin: '',
    tags: [],
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

export interface ObjectFilters {
  /** One object type, or null for all. */
  kind: ObjectType | null;
  /** Unit types; empty means any. With types chosen only units are listed. */
  unitTypes: UnitTypeFilter[];
  /** A unit tag (docs/product.md "The vehicle profile"); with a tag only units carrying it are listed. */
  tag: string | null;
}

/** Reads the filters from the query string (`kind=u|d|t`, `ut=3,7,none`, `tag=…`); bad values are dropped. */
export function decodeFilters(params: URLSearchParams): ObjectFilters {
  const kind = params.get('kind');
  const unitTypes = decodeUnitTypes(params.get('ut'), true);
  const tag = params.get('tag')?.trim();
  return {
    kind: (OBJECT_TYPES as readonly string[]).includes(kind ?? '') ? (kind as ObjectType) : null,
    unitTypes,
    tag: tag ? tag : null,
  };
}

/** Writes the filters into a copy of the query string, keeping the other parameters. */
export function encodeFilters(params: URLSearchParams, filters: ObjectFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  if (filters.kind) next.set('kind', filters.kind);
  else next.delete('kind');
  const types = encodeUnitTypes(filters.unitTypes);
  if (types) next.set('ut', types);
  else next.delete('ut');
  if (filters.tag) next.set('tag', filters.tag);
  else next.delete('tag');
  return next;
}

/** The rows passing the kind, tag and unit-type filters. */
export function filterObjects(rows: readonly ObjectRow[], filters: ObjectFilters): ObjectRow[] {
  return rows.filter((r) => {
    if (filters.kind && r.t !== filters.kind) return false;
    if (filters.tag && !hasTag(r.tags, filters.tag)) return false;
    if (filters.unitTypes.length === 0) return true;
    return r.t === 'u' && matchesUnitTypes(filters.unitTypes, r.ut);
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

/**
 * PRODUCT.md: cost per 1 km (or mile) = cost ÷ distance in the fleet unit; null (shown '-') when the
 * distance is 0 or unknown.
 */
export function costPerDistance(cost: number, distanceKm: number | null, miles: boolean): number | null {
  if (distanceKm === null || !(distanceKm > 0)) return null;
  return cost / kmToDisplay(distanceKm, miles);
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
export function periodIndicators(s: StatisticsUnitWire, miles: boolean): PeriodIndicators {
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

/** The part of a service these pages read. */
export type ObjectService = Pick<
  ServiceWire,
  'id' | 'uid' | 't' | 'f' | 'n' | 'ivid' | 'limit_date' | 'start_date' | 'end_date' | 'total_cost'
>;

/** The services of one object. */
export function servicesOf<T extends { uid: number; t: ObjectType }>(
  services: readonly T[],
  t: ObjectType,
  id: number,
): T[] {
  return services.filter((s) => s.t === t && s.uid === id);
}

/** Sum of the costs of the closed services (PRODUCT.md "cost of services"; rejected ones cost nothing). */
export function closedCost(services: readonly ObjectService[]): number {
  const thousandths = services
    .filter((s) => (s.f & ServiceFlag.closed) !== 0)
    .reduce((sum, s) => sum + Math.round(s.total_cost * 1000), 0);
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

/** The part of an interval these pages read: name, assignments and rule fields (km and hours). */
export type ObjectInterval = Pick<IntervalWire, 'id' | 'n' | 'u' | keyof IntervalRule>;

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
  base: IntervalBaseWire,
  counters: { mileage: number | null; engineHours: number | null },
  miles: boolean,
  now: number,
  tz: number,
): Remaining[] {
  const ev = evaluate(interval, { lcnm: base.lcnm, lceh: base.lceh, ltm: base.ltm }, counters, now, tz);
  const out: Remaining[] = [];
  const { mileage, engineHours, days } = ev.remaining;
  if (mileage !== null)
    out.push({ kind: 'mileage', amount: Math.abs(kmToDisplay(mileage, miles)), overdue: mileage < 0 });
  if (engineHours !== null)
    out.push({ kind: 'engineHours', amount: Math.abs(engineHours), overdue: engineHours < 0 });
  if (days !== null) out.push({ kind: 'days', amount: Math.abs(days), overdue: days < 0 });
  return out;
}

/** The object's assignments joined with their intervals, in natural name order. */
export function assignedIntervals<I extends { id: number; n: string }>(
  intervals: readonly I[],
  bases: readonly IntervalBaseWire[],
): { interval: I; base: IntervalBaseWire }[] {
  const byId = new Map(intervals.map((iv) => [iv.id, iv]));
  const out: { interval: I; base: IntervalBaseWire }[] = [];
  for (const base of bases) {
    const interval = byId.get(base.ivid);
    if (interval) out.push({ interval, base });
  }
  return out.sort((a, b) => compareNames(a.interval.n, b.interval.n));
}
