import { FIXED_FIELDS, type FieldIssue, type FixedValues } from '@fleetkeep/core';
import { invalidInput } from './errors.js';

/** Message of a detail on a stored field that no update changes. */
export const CANNOT_CHANGE = 'Cannot be changed';

/** Equal as JSON values: numbers, texts, null, and arrays and objects member by member. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/**
 * The fixed fields (core `acceptingReadOnly`) a body sent with a value other than the stored record's
 * (PRODUCT.md "Written-back records": the record as read is the same change as the fields that
 * differ, so an equal value is no change; a different one is refused, never silently dropped).
 * `stored` is the record as its GET sends it (the module's mapper of the loaded row).
 */
export function changedFixedFields<F extends string>(
  body: FixedValues<F>,
  stored: Record<F, unknown>,
  prefix = 'body.',
  row?: number,
): FieldIssue[] {
  const sent = body[FIXED_FIELDS];
  if (!sent) return [];
  return (Object.keys(sent) as F[])
    .filter((k) => !sameValue(sent[k], stored[k]))
    .map((k) => ({ field: `${prefix}${k}`, message: CANNOT_CHANGE, ...(row !== undefined && { row }) }));
}

/** Throws 400 `{error: 4}` naming each fixed field whose value differs from the stored record's. */
export function refuseChangedFixed<F extends string>(body: FixedValues<F>, stored: Record<F, unknown>): void {
  const issues = changedFixedFields(body, stored);
  if (issues.length) throw invalidInput(issues);
}
