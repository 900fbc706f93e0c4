import {
  COUNTER_MAX,
  formatNumber,
  localDate,
  type ServiceBatchUpdateRow,
  type ServiceWire,
  statusOf,
  type UnitWire,
} from '@fleetkeep/core';
import { numericValue } from '../../../components/numeric.ts';
import { serverIssues } from '../../../lib/refusal.ts';

/**
 * Pure rules of /services/close (spec §2; PRODUCT.md "The status engine": closing takes an end date and
 * the service's mileage/engine hours, defaulting to the object's current counters).
 */

/** The selected ids of the navigation state `{ services: number[] }` (what the route guard reads). */
export function idsFromState(state: unknown): number[] {
  if (typeof state !== 'object' || state === null) return [];
  const { services } = state as { services?: unknown };
  const list = Array.isArray(services) ? services : [];
  return [...new Set(list.filter((v): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0))];
}

/** Spec §2: only the selected services that still exist and can be closed (Due or In progress). */
export function closeTargets(ids: readonly number[], open: readonly ServiceWire[]): ServiceWire[] {
  const byId = new Map(open.map((s) => [s.id, s]));
  return ids.flatMap((id) => {
    const s = byId.get(id);
    return s && (statusOf(s.f) === 'due' || statusOf(s.f) === 'inProgress') ? [s] : [];
  });
}

/** A unit's current counters as the units list sends them (km, hours); absent while unknown. */
export type UnitCounters = Partial<Pick<UnitWire, 'cnm' | 'cneh'>>;

/** One service's editable counters: the text shown and the km/h value it started from. */
export interface CounterDraft {
  id: number;
  /** Drivers and trailers have no counters (PRODUCT.md "Service objects and counters"). */
  hasCounters: boolean;
  mileage: string;
  engineHours: string;
  /** The defaults in km and hours and as first shown; sent unchanged when not edited (no rounding drift). */
  defaults: { km: number | null; hours: number | null; mileage: string; engineHours: string };
}

import { displayToKm, kmToDisplay } from '../../../lib/distance.ts';

export { displayToKm, kmToDisplay };

/** Plain text for a numeric input (no group separators, at most 3 decimals). */
function inputText(value: number | null): string {
  return value === null ? '' : formatNumber(value).replace(/ /g, '');
}

/**
 * The defaults of one service: the object's CURRENT counters from the units list, else the current
 * counters the service carries; none for drivers and trailers.
 */
export function defaultDraft(
  service: ServiceWire,
  unit: UnitCounters | undefined,
  miles: boolean,
): CounterDraft {
  const km = service.t === 'u' ? (unit?.cnm ?? service.current_mileage ?? null) : null;
  const hours = service.t === 'u' ? (unit?.cneh ?? service.current_engine_hours ?? null) : null;
  const mileage = inputText(km === null ? null : kmToDisplay(km, miles));
  const engineHours = inputText(hours);
  return {
    id: service.id,
    hasCounters: service.t === 'u',
    mileage,
    engineHours,
    defaults: { km, hours, mileage, engineHours },
  };
}

export type DateError = 'required' | 'future' | 'beforeStart';

/**
 * The close date (YYYY-MM-DD): required, not after today (fleet zone), not before any selected
 * service's start date (spec §5 "End date must not be earlier than start date"). Returns the services
 * it is earlier than for the message.
 */
export function closeDateError(
  date: string | null,
  today: string,
  services: readonly ServiceWire[],
  tz: number,
): { error: DateError; services: ServiceWire[] } | null {
  if (date === null || date === '') return { error: 'required', services: [] };
  if (date > today) return { error: 'future', services: [] };
  const early = services.filter((s) => s.start_date !== null && localDate(tz, s.start_date) > date);
  return early.length ? { error: 'beforeStart', services: early } : null;
}

/** The latest start date (YYYY-MM-DD) among the services, the earliest allowed close date. */
export function earliestCloseDate(services: readonly ServiceWire[], tz: number): string | null {
  let out: string | null = null;
  for (const s of services) {
    if (s.start_date === null) continue;
    const day = localDate(tz, s.start_date);
    if (out === null || day > out) out = day;
  }
  return out;
}

/** A counter text that cannot be sent: above the contract's COUNTER_MAX (the input admits digits only). */
export function counterInvalid(text: string): boolean {
  const v = numericValue(text);
  return v !== null && v > COUNTER_MAX;
}

/** A counter to send: the untouched default as it came, an emptied field null, else the typed value. */
function counterOut(text: string, shown: string, original: number | null, convert: (v: number) => number) {
  if (text === shown) return original;
  const value = numericValue(text);
  return value === null ? null : convert(value);
}

/**
 * The PUT .../services/batch rows closing every service (f 8) on one date with its own counters, in km
 * (converted from miles for fleets in miles) and hours.
 */
export function closePayload(
  drafts: readonly CounterDraft[],
  date: string,
  miles: boolean,
): ServiceBatchUpdateRow[] {
  return drafts.map((d) => {
    const row: ServiceBatchUpdateRow = { id: d.id, f: 8, end_date: date };
    if (!d.hasCounters) return row;
    row.mileage = counterOut(d.mileage, d.defaults.mileage, d.defaults.km, (v) => displayToKm(v, miles));
    row.engine_hours = counterOut(d.engineHours, d.defaults.engineHours, d.defaults.hours, (v) => v);
    return row;
  });
}

/** Whether a draft differs from its defaults (for the leave-page warning). */
export function draftEdited(draft: CounterDraft): boolean {
  return draft.mileage !== draft.defaults.mileage || draft.engineHours !== draft.defaults.engineHours;
}

/**
 * The server's per-row errors of PUT .../services/batch (DESIGN §5: `row` is the index in the request)
 * mapped to service ids, each with its field ('mileage', 'engine_hours', 'end_date' or '' for the row).
 */
export function errorsByService(
  details: unknown,
  ids: readonly number[],
): Map<number, { field: string; message: string }[]> {
  const out = new Map<number, { field: string; message: string }[]>();
  for (const { id: named, row, path, message } of serverIssues(details, 'services')) {
    const id = named ?? (row !== null ? ids[row] : undefined);
    if (id === undefined) continue;
    const field = path.at(-1) ?? '';
    out.set(id, [...(out.get(id) ?? []), { field: /^\d+$/.test(field) ? '' : field, message }]);
  }
  return out;
}
