import {
  CUSTOM_FIELD_OPTIONS_MAX,
  type CustomFieldOwnerType,
  CustomFieldType,
  type CustomFieldValue,
  type CustomFieldWire,
  Limits,
} from '@fleetkeep/core';
import type { CustomFieldRow } from '../../db/schema.js';
import type { Issue } from '../lineitems/library.js';

/**
 * Custom fields (spec §3 "Custom field": id, n, tp, s.options, t; PRODUCT.md "Administration"): pure
 * rules shared by the definitions API and every write of values (`cf: [{id, v}]`). Owner types, field
 * types and the wire shapes are core's (contracts/customfields.ts).
 */

export function optionsOf(row: Pick<CustomFieldRow, 'options'>): string[] {
  try {
    const parsed: unknown = JSON.parse(row.options);
    return Array.isArray(parsed) ? parsed.filter((o): o is string => typeof o === 'string') : [];
  } catch {
    return [];
  }
}

export function customFieldToWire(row: CustomFieldRow): CustomFieldWire {
  return {
    id: row.id,
    n: row.name,
    tp: row.type,
    t: row.owner_type as CustomFieldOwnerType,
    s: row.type === CustomFieldType.list ? { options: optionsOf(row) } : {},
  };
}

/** Name identity: case-insensitive, per owner type (PRODUCT.md "Administration"). */
export const fieldKey = (ownerType: string, name: string) => `${ownerType}:${name.trim().toLowerCase()}`;

/**
 * The options of a field of type `tp` (trimmed): a list field needs a non-empty list of distinct
 * (case-insensitively) non-empty strings of at most 128 characters (spec §9 string maximum); a text
 * field has none.
 */
export function checkOptions(tp: number, options: string[] | undefined, field = 'body.s.options') {
  const issues: Issue[] = [];
  const list = (options ?? []).map((o) => o.trim());
  if (tp !== CustomFieldType.list) {
    if (list.length) issues.push({ field, message: 'Only list fields have options' });
    return { issues, options: [] as string[] };
  }
  if (list.length === 0) issues.push({ field, message: 'A list field needs at least one option' });
  if (list.length > CUSTOM_FIELD_OPTIONS_MAX)
    issues.push({ field, message: `At most ${CUSTOM_FIELD_OPTIONS_MAX} options` });
  const seen = new Set<string>();
  list.forEach((o, i) => {
    if (o === '') issues.push({ field: `${field}.${i}`, message: 'Must not be empty' });
    else if ([...o].length > Limits.stringMax)
      issues.push({ field: `${field}.${i}`, message: `At most ${Limits.stringMax} characters` });
    else if (seen.has(o.toLowerCase())) issues.push({ field: `${field}.${i}`, message: 'Duplicate option' });
    seen.add(o.toLowerCase());
  });
  return { issues, options: list };
}

export const UNKNOWN_FIELD = 'Unknown custom field for this object';

/**
 * Checks values against the fleet's fields of one owner type: every id names such a field (an id of
 * another fleet or owner type is as unknown as a made-up one), once; a list field takes one of its
 * options, a text at most 512 characters; the empty string clears a value of either type.
 */
export function checkValues(
  fields: ReadonlyMap<number, CustomFieldRow>,
  ownerType: CustomFieldOwnerType,
  values: readonly CustomFieldValue[] | undefined,
  prefix = 'body.',
): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<number>();
  (values ?? []).forEach((value, i) => {
    const at = `${prefix}cf.${i}`;
    const field = fields.get(value.id);
    if (!field || field.owner_type !== ownerType) {
      issues.push({ field: `${at}.id`, message: UNKNOWN_FIELD });
      return;
    }
    if (seen.has(value.id)) issues.push({ field: `${at}.id`, message: 'Duplicate custom field' });
    seen.add(value.id);
    if (value.v === '') return;
    if (field.type === CustomFieldType.list) {
      if (!optionsOf(field).includes(value.v))
        issues.push({ field: `${at}.v`, message: 'Not one of the options of this field' });
    } else if ([...value.v].length > Limits.descriptionMax) {
      issues.push({ field: `${at}.v`, message: `At most ${Limits.descriptionMax} characters` });
    }
  });
  return issues;
}

/** Parses a stored `cf` column; anything unreadable counts as no values. */
export function parseValues(text: string): CustomFieldValue[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed)
      ? parsed.filter(
          (x): x is CustomFieldValue =>
            typeof x === 'object' && x !== null && typeof x.id === 'number' && typeof x.v === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

/** True when the stored values hold a non-empty value of the field. */
export const holdsValue = (values: readonly CustomFieldValue[], fieldId: number) =>
  values.some((x) => x.id === fieldId && x.v !== '');

/** The values without any entry of the field, or undefined when there was none. */
export function withoutField(
  values: readonly CustomFieldValue[],
  fieldId: number,
): CustomFieldValue[] | undefined {
  const kept = values.filter((x) => x.id !== fieldId);
  return kept.length === values.length ? undefined : kept;
}

/**
 * Values that a change of a list field's options (or a text field becoming a list) would leave
 * outside the options: `option → count` of the held values no longer allowed.
 */
export function valuesOutside(held: readonly string[], options: readonly string[]): Map<string, number> {
  const allowed = new Set(options);
  const out = new Map<string, number>();
  for (const v of held) if (v !== '' && !allowed.has(v)) out.set(v, (out.get(v) ?? 0) + 1);
  return out;
}
