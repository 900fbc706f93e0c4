import { evaluate } from '@fleetkeep/core';
import { numericValue } from '../../../components/numeric.ts';
import {
  type AssignmentForm,
  baselineToDisplay,
  baselineToKm,
  dayStart,
  displayToKm,
  type FleetUnits,
  flag,
  type IntervalForm,
  type KindForm,
  type ObjectCounters,
  whole,
} from './rules.ts';

/** Remaining values of an interval's assignments as the editor's form stands (spec §9). */

export interface Remaining {
  /** In the fleet's distance unit; null when the kind is off or the object has no such counter. */
  mileage: number | null;
  engineHours: number | null;
  /** Days to the due date (negative: overdue). */
  days: number | null;
}

/**
 * Remaining value per kind of one assignment as the form stands: baseline + frequency − current
 * (core `evaluate`, the engine's own rule). Invalid texts count as a kind switched off.
 */
export function remainingOf(
  form: IntervalForm,
  a: AssignmentForm,
  counters: ObjectCounters,
  units: FleetUnits,
  now: number,
): Remaining {
  const int = (k: KindForm) => (k.on ? (whole(k.every) ?? 0) : 0);
  const rule = {
    cnme: flag(form.mileage.on),
    cnmd: displayToKm(int(form.mileage), units.miles),
    cnmo: 0,
    cnehe: flag(form.engineHours.on),
    cnehd: int(form.engineHours),
    cneho: 0,
    de: flag(form.time.on),
    dd: int(form.time),
    du: form.time.unit,
    do: 0,
  };
  const lcnm =
    a.lcnm === a.shown.lcnm ? a.lcnmKm : baselineToKm(numericValue(a.lcnm) ?? Number.NaN, units.miles);
  const lceh = numericValue(a.lceh) ?? Number.NaN;
  const ltm = dayStart(a.ltm, units.tz);
  const e = evaluate(rule, { lcnm, lceh, ltm: ltm ?? 0 }, counters, now, units.tz);
  const finite = (v: number | null) => (v === null || !Number.isFinite(v) ? null : v);
  const mileage = finite(e.remaining.mileage);
  return {
    mileage: mileage === null ? null : baselineToDisplay(mileage, units.miles),
    engineHours: finite(e.remaining.engineHours),
    days: ltm === null ? null : finite(e.remaining.days),
  };
}

/** 'In: X' or 'Overdue: X' (spec §9): overdue once the threshold has passed (remaining below 0). */
export function remainingLabel(value: number): { key: 'in' | 'overdue'; amount: number } {
  return value < 0 ? { key: 'overdue', amount: -value } : { key: 'in', amount: value };
}
