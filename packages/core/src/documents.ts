/**
 * Documents and renewals (docs/product.md "Documents"): registrations, insurance, roadworthiness
 * certificates, driver licences, tachograph calibrations and fleet-defined types, each with its periods.
 * Pure rules: the built-in types, the expiry state of a period and when its reminder is due.
 */

/** Built-in document types; `custom` names a fleet-defined type (`type_id`). */
export const DOCUMENT_TYPES = [
  'registration',
  'insurance',
  'roadworthiness',
  'licence',
  'tachograph',
  'custom',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Who a document belongs to: a unit, a trailer or a driver. */
export const DOCUMENT_OWNER_TYPES = ['u', 't', 'd'] as const;
export type DocumentOwnerType = (typeof DOCUMENT_OWNER_TYPES)[number];

/** Days before the end of a period its reminder is due, unless the fleet-defined type says otherwise. */
export const DEFAULT_REMINDER_DAYS = 30;
export const REMINDER_DAYS_MAX = 365;

export const DOCUMENT_EXPIRY_STATES = ['valid', 'expiring', 'expired'] as const;
export type DocumentExpiryState = (typeof DOCUMENT_EXPIRY_STATES)[number];

const DAY = 86_400;

/** The moment a period enters its reminder window: `reminderDays` days before its end. */
export function reminderStart(validTo: number, reminderDays: number): number {
  return Math.max(0, validTo - reminderDays * DAY);
}

/**
 * The state of a period at `now`: expired once its end has passed, expiring from its reminder start
 * (N days before the end) until the end, valid before.
 */
export function documentExpiry(validTo: number, reminderDays: number, now: number): DocumentExpiryState {
  if (now > validTo) return 'expired';
  if (now >= reminderStart(validTo, reminderDays)) return 'expiring';
  return 'valid';
}

/** Whole days left until the end of a period (negative once expired). */
export function daysLeft(validTo: number, now: number): number {
  return Math.floor((validTo - now) / DAY);
}

/** A reminder is due for a period when it is in its window, not expired, and not reminded yet. */
export function reminderDue(
  period: { validTo: number; remindedAt: number | null },
  reminderDays: number,
  now: number,
): boolean {
  return period.remindedAt === null && documentExpiry(period.validTo, reminderDays, now) === 'expiring';
}
