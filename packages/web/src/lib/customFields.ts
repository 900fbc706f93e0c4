import {
  CUSTOM_VALUE_MAX,
  type CustomFieldOwnerType,
  CustomFieldType,
  type CustomFieldValue,
  type CustomFieldWire,
} from '@fleetkeep/core';
import { naturalCollator } from './naturalSort.ts';
import { serverIssues } from './refusal.ts';

/**
 * Custom fields on the client (spec §3 "Custom field": id, n, tp 1 text / 2 list, s.options, t owner
 * type; PRODUCT.md "Administration"). Values live on their owners as `cf: [{id, v}]`. Pure.
 *
 * The definitions, owner types, field types and the value limit are the core contract's
 * (`contracts/customfields.ts`): `CustomFieldWire`, `CustomFieldOwnerType`, `CustomFieldType`,
 * `CustomFieldValue`, `CUSTOM_VALUE_MAX`.
 */

/** The fields of one owner type, by name: natural and case-insensitive (spec §3 "Name sorting"). */
export function fieldsOf(
  fields: readonly CustomFieldWire[],
  ownerType: CustomFieldOwnerType,
): CustomFieldWire[] {
  return fields
    .filter((f) => f.t === ownerType)
    .sort((a, b) => naturalCollator.compare(a.n, b.n) || a.id - b.id);
}

export const optionsOf = (field: CustomFieldWire): string[] =>
  field.tp === CustomFieldType.list ? (field.s.options ?? []) : [];

export const fieldValue = (values: readonly CustomFieldValue[], id: number): string =>
  values.find((x) => x.id === id)?.v ?? '';

/**
 * The values after one field changed: only fields of this owner type are kept (values of deleted or
 * foreign fields would be refused by the server), and an empty value is left out, which clears it.
 */
export function withValue(
  fields: readonly CustomFieldWire[],
  values: readonly CustomFieldValue[],
  id: number,
  v: string,
): CustomFieldValue[] {
  const known = new Set(fields.map((f) => f.id));
  const out = values.filter((x) => x.id !== id && known.has(x.id) && x.v !== '');
  if (v !== '') out.push({ id, v });
  return out.sort((a, b) => a.id - b.id);
}

/** Compares value lists regardless of order and of empty entries. */
export function valuesSignature(values: readonly CustomFieldValue[]): string {
  return JSON.stringify(
    values
      .filter((x) => x.v !== '')
      .map((x) => [x.id, x.v])
      .sort((a, b) => (a[0] as number) - (b[0] as number)),
  );
}

export const sameValues = (a: readonly CustomFieldValue[], b: readonly CustomFieldValue[]) =>
  valuesSignature(a) === valuesSignature(b);

/** A text value too long for the server, checked before sending. */
export function valueProblem(field: CustomFieldWire, v: string): 'tooLong' | 'notAnOption' | null {
  if (v === '') return null;
  if (field.tp === CustomFieldType.list) return optionsOf(field).includes(v) ? null : 'notAnOption';
  return [...v].length > CUSTOM_VALUE_MAX ? 'tooLong' : null;
}

/**
 * Server field errors about values (`body.cf.2.v`, `body.services.0.cf.1.id`; lib/fieldErrors.ts) onto
 * the field ids of the values that were sent. Other details are left out.
 */
export function errorsById(sent: readonly CustomFieldValue[], details: unknown): Record<number, string> {
  const out: Record<number, string> = {};
  for (const issue of serverIssues(details, 'services')) {
    const value = issue.path[0] === 'cf' ? sent[Number(issue.path[1])] : undefined;
    if (value && !(value.id in out)) out[value.id] = issue.message;
  }
  return out;
}
