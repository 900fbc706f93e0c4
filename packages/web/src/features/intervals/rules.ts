import { formatWhole, type IntervalTimeUnit, type IntervalWire } from '@fleetkeep/core';
import { wholeKmToDisplay } from '../../lib/distance.ts';
import {
  decodeUnitTypes,
  encodeUnitTypes,
  matchesUnitTypes,
  type UnitTypeFilter,
} from '../../lib/unitTypes.ts';

/**
 * Pure rules of the intervals list (spec §3 "Interval", §9 number display; PRODUCT.md "Intervals"). The
 * records are the core contract's `IntervalWire` (mileage in km).
 */

export const KINDS = ['mileage', 'engineHours', 'time'] as const;
export type Kind = (typeof KINDS)[number];

/** Labels the caller localises: distance and engine-hours units, and a time amount with its unit. */
export interface SummaryLabels {
  /** The user's language: grouping and decimal separator of the numbers (docs/product.md). */
  lang: string;
  distance: string;
  engineHours: string;
  time: (value: number, unit: IntervalTimeUnit) => string;
}

export function kindEnabled(interval: IntervalWire, kind: Kind): boolean {
  if (kind === 'mileage') return interval.cnme === 1;
  if (kind === 'engineHours') return interval.cnehe === 1;
  return interval.de === 1;
}

/** A distance in km in the fleet's unit (miles when `ms` is 1), rounded to whole units for miles. */
export const displayDistance = wholeKmToDisplay;

const SEPARATOR = ' · ';

/** "15,000 km · 500 e.h. · 1 y": each enabled kind's frequency; '' when none is enabled. */
export function frequencySummary(interval: IntervalWire, miles: boolean, labels: SummaryLabels): string {
  const parts: string[] = [];
  if (kindEnabled(interval, 'mileage'))
    parts.push(`${formatWhole(displayDistance(interval.cnmd, miles), labels.lang)} ${labels.distance}`);
  if (kindEnabled(interval, 'engineHours'))
    parts.push(`${formatWhole(interval.cnehd, labels.lang)} ${labels.engineHours}`);
  if (kindEnabled(interval, 'time')) parts.push(labels.time(interval.dd, interval.du));
  return parts.join(SEPARATOR);
}

/** The advance notice of each enabled kind in the same style; time notice is in days. */
export function noticeSummary(interval: IntervalWire, miles: boolean, labels: SummaryLabels): string {
  const parts: string[] = [];
  if (kindEnabled(interval, 'mileage'))
    parts.push(`${formatWhole(displayDistance(interval.cnmo, miles), labels.lang)} ${labels.distance}`);
  if (kindEnabled(interval, 'engineHours'))
    parts.push(`${formatWhole(interval.cneho, labels.lang)} ${labels.engineHours}`);
  if (kindEnabled(interval, 'time')) parts.push(labels.time(interval.do, 'd'));
  return parts.join(SEPARATOR);
}

export interface IntervalFilters {
  kind: Kind | null;
  /** Unit type ids; empty means any. */
  unitTypes: UnitTypeFilter[];
}

/** Reads the filters from the query string (`kind`, `ut` as a comma list); bad values are dropped. */
export function decodeFilters(params: URLSearchParams): IntervalFilters {
  const kind = params.get('kind');
  const unitTypes = decodeUnitTypes(params.get('ut'));
  return { kind: (KINDS as readonly string[]).includes(kind ?? '') ? (kind as Kind) : null, unitTypes };
}

/** Writes the filters into a copy of the query string, keeping the other parameters. */
export function encodeFilters(params: URLSearchParams, filters: IntervalFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  if (filters.kind) next.set('kind', filters.kind);
  else next.delete('kind');
  const types = encodeUnitTypes(filters.unitTypes);
  if (types) next.set('ut', types);
  else next.delete('ut');
  return next;
}

/**
 * The intervals passing the filters: with a kind, that kind must be enabled; with unit types, at least
 * one assigned unit (type 'u') must have one of them. `unitType` gives a unit's type id (null unknown).
 */
export function filterIntervals(
  intervals: readonly IntervalWire[],
  filters: IntervalFilters,
  unitType: (unitId: number) => number | null | undefined,
): IntervalWire[] {
  return intervals.filter((iv) => {
    if (filters.kind && !kindEnabled(iv, filters.kind)) return false;
    if (filters.unitTypes.length === 0) return true;
    return iv.u.some((a) => a.t === 'u' && matchesUnitTypes(filters.unitTypes, unitType(a.id)));
  });
}
