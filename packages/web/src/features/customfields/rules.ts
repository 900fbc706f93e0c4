import { naturalCollator } from '../../components/DataTable/rules.ts';

/**
 * Custom fields on the client (spec §3 "Custom field": id, n, tp 1 text / 2 list, s.options, t owner
 * type; PRODUCT.md "Administration"). Values live on their owners as `cf: [{id, v}]`. Pure.
 *
 * Owner types on the wire: `u` unit, `d` driver, `t` trailer (the codes of spec §3 "Service"), `s`
 * service, `f` fuel filling (server `modules/customfields/rules.ts`).
 */

export type OwnerType = 'u' | 'd' | 't' | 's' | 'f';

export const FIELD_TYPE = { text: 1, list: 2 } as const;

/** Longest text value the server takes (spec §9 limits; server `Limits.descriptionMax`). */
export const TEXT_MAX = 512;

export interface CustomField {
  id: number;
  n: string;
  tp: number;
  t: OwnerType;
  s?: { options?: string[] };
}

export interface CustomValue {
  id: number;
  v: string;
}

/** The fields of one owner type, by name: natural and case-insensitive (spec §3 "Name sorting"). */
export function fieldsOf(fields: readonly CustomField[], ownerType: OwnerType): CustomField[] {
  return fields
    .filter((f) => f.t === ownerType)
    .sort((a, b) => naturalCollator.compare(a.n, b.n) || a.id - b.id);
}

export const optionsOf = (field: CustomField): string[] =>
  field.tp === FIELD_TYPE.list ? (field.s?.options ?? []) : [];

export const fieldValue = (values: readonly CustomValue[], id: number): string =>
  values.find((x) => x.id === id)?.v ?? '';

/**
 * The values after one field changed: only fields of this owner type are kept (values of deleted or
 * foreign fields would be refused by the server), and an empty value is left out, which clears it.
 */
export function withValue(
  fields: readonly CustomField[],
  values: readonly CustomValue[],
  id: number,
  v: string,
): CustomValue[] {
  const known = new Set(fields.map((f) => f.id));
  const out = values.filter((x) => x.id !== id && known.has(x.id) && x.v !== '');
  if (v !== '') out.push({ id, v });
  return out.sort((a, b) => a.id - b.id);
}

/** Compares value lists regardless of order and of empty entries. */
export function valuesSignature(values: readonly CustomValue[]): string {
  return JSON.stringify(
    values
      .filter((x) => x.v !== '')
      .map((x) => [x.id, x.v])
      .sort((a, b) => (a[0] as number) - (b[0] as number)),
  );
}

export const sameValues = (a: readonly CustomValue[], b: readonly CustomValue[]) =>
  valuesSignature(a) === valuesSignature(b);

/** A text value too long for the server, checked before sending. */
export function valueProblem(field: CustomField, v: string): 'tooLong' | 'notAnOption' | null {
  if (v === '') return null;
  if (field.tp === FIELD_TYPE.list) return optionsOf(field).includes(v) ? null : 'notAnOption';
  return [...v].length > TEXT_MAX ? 'tooLong' : null;
}

/**
 * Server field errors about values (`body.cf.2.v`, `body.services.0.cf.1.id`; spec §5 style details)
 * onto the field ids of the values that were sent. Other details are left out.
 */
export function errorsById(sent: readonly CustomValue[], details: unknown): Record<number, string> {
  const out: Record<number, string> = {};
  if (!Array.isArray(details)) return out;
  for (const d of details) {
    if (typeof d !== 'object' || d === null) continue;
    const { field, message } = d as { field?: unknown; message?: unknown };
    const match = /(?:^|\.)cf\.(\d+)(?:\.|$)/.exec(String(field ?? ''));
    const value = match ? sent[Number(match[1])] : undefined;
    if (value) out[value.id] = String(message ?? '');
  }
  return out;
}
