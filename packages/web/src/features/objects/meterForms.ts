import type { MeterReadingBody, MeterVoidBody } from '@fleetkeep/core';
import { numericValue } from '../../components/numeric.ts';
import { displayToKm, round3 } from '../../lib/distance.ts';

/**
 * Pure rules of the meter tab's forms (docs/product.md "Meter integrity"; core contracts/meter.ts): the
 * drafts the "Record a reading" and "Void" dialogs edit and the bodies they send.
 */

export interface RecordForm {
  /** In the fleet's distance unit, as typed. */
  mileage: string;
  hours: string;
}
export type RecordField = keyof RecordForm;

export const recordDraft = (): RecordForm => ({ mileage: '', hours: '' });

/** What is typed goes in km; an empty field is left out (the contract wants one of the two). */
export function recordBody(form: RecordForm, miles: boolean): MeterReadingBody {
  const m = form.mileage.trim() === '' ? undefined : numericValue(form.mileage.trim());
  const h = form.hours.trim() === '' ? undefined : numericValue(form.hours.trim());
  return {
    ...(m !== undefined && { cnm: m === null ? Number.NaN : round3(displayToKm(m, miles)) }),
    ...(h !== undefined && { cneh: h === null ? Number.NaN : h }),
  } as MeterReadingBody;
}

/** The form field of a body path (core issues and the server's `body.cnm` alike); the time goes on mileage. */
export function recordFieldOf(path: readonly string[]): RecordField | null {
  const key = path[0] === 'body' ? path[1] : path[0];
  if (key === 'cneh') return 'hours';
  if (key === 'cnm' || key === 'tm') return 'mileage';
  return null;
}

export interface VoidForm {
  reason: string;
}
export const voidBody = (form: VoidForm): MeterVoidBody => ({ reason: form.reason.trim() });
export function voidFieldOf(path: readonly string[]): 'reason' | null {
  const key = path[0] === 'body' ? path[1] : path[0];
  return key === 'reason' ? 'reason' : null;
}

/** The state filter of the history: valid entries, voided ones, or all. */
export type MeterValidity = 'valid' | 'voided';
export const passesValidity = (entry: { voided: unknown }, filter: MeterValidity | null) =>
  filter === null || (filter === 'voided') === (entry.voided !== null);
