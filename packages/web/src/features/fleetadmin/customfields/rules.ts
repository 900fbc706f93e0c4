import {
  CUSTOM_FIELD_OWNER_TYPES,
  type CustomFieldBody,
  type CustomFieldOwnerType,
  CustomFieldType,
  type CustomFieldUpdateBody,
  type CustomFieldWire,
  customFieldBody,
  customFieldUpdateBody,
  Limits,
} from '@fleetkeep/core';
import type { CoreSchema } from '../../../lib/coreResolver.ts';
import { serverIssues } from '../../../lib/refusal.ts';

/**
 * Custom-field definitions as the fleet administration edits them (spec §3 "Custom field": n, tp 1 text /
 * 2 list, s.options, t owner type; spec §7 "Custom fields"; PRODUCT.md "Administration"). The dialog
 * checks a draft with the core contract (`customFieldBody`: name trimmed, 1–128 characters, at most 100
 * options) and with the server's option rules the contract does not state (a list needs distinct,
 * non-empty options of at most 128 characters, compared case-insensitively after trimming), so it says
 * what is wrong before it sends. Pure.
 */

export const OWNER_TYPES = CUSTOM_FIELD_OWNER_TYPES;
/** The translation key naming each owner type (the record kinds' own names). */
export const OWNER_LABEL: Record<CustomFieldOwnerType, string> = {
  u: 'screen.unit',
  d: 'screen.driver',
  t: 'screen.trailer',
  s: 'screen.service',
  f: 'screen.fuelfilling',
};
export type FieldType = (typeof CustomFieldType)[keyof typeof CustomFieldType];

/** One option row of the editor; `key` keeps React's rows apart while texts change. */
export interface OptionRow {
  key: number;
  text: string;
}

export interface FieldDraft {
  n: string;
  tp: FieldType;
  t: CustomFieldOwnerType;
  options: OptionRow[];
}

let nextKey = 1;
/** A new option row with a key no other row of this page has. */
export const optionRow = (text = ''): OptionRow => ({ key: nextKey++, text });

/** The draft of a new field (a list starts with one empty option row) or of an existing one. */
export function draftOf(field: CustomFieldWire | null, ownerType: CustomFieldOwnerType = 'u'): FieldDraft {
  if (!field) return { n: '', tp: CustomFieldType.text, t: ownerType, options: [optionRow()] };
  const options = field.tp === CustomFieldType.list ? (field.s.options ?? []) : [];
  return {
    n: field.n,
    tp: field.tp === CustomFieldType.list ? CustomFieldType.list : CustomFieldType.text,
    t: field.t,
    options: options.length > 0 ? options.map((o) => optionRow(o)) : [optionRow()],
  };
}

/** The options a list field sends: trimmed, in the order given. A text field sends none. */
export const sentOptions = (draft: FieldDraft): string[] =>
  draft.tp === CustomFieldType.list ? draft.options.map((o) => o.text.trim()) : [];

/** Whether the draft differs from where it started (a dirty dialog asks before closing). */
export function draftChanged(draft: FieldDraft, start: FieldDraft): boolean {
  return (
    draft.n.trim() !== start.n.trim() ||
    draft.tp !== start.tp ||
    draft.t !== start.t ||
    JSON.stringify(sentOptions(draft)) !== JSON.stringify(sentOptions(start))
  );
}

export type OptionProblem = 'empty' | 'tooLong' | 'duplicate';

/** The rules the core contract does not state (it checks the name's length and the options' count). */
export interface OwnProblems {
  n?: 'duplicate';
  options?: 'needOne';
  /** Per option row index. */
  option: Record<number, OptionProblem>;
}

/** Name identity as the server keeps it: per owner type, trimmed, case-insensitive. */
const nameKey = (name: string) => name.trim().toLowerCase();

/** The core contract a save is checked with: the POST body of a new field, the PUT body of a saved one. */
export const fieldSchema = (editing: boolean): CoreSchema =>
  editing ? customFieldUpdateBody : customFieldBody;

/**
 * What the server refuses beyond the core contract, checked before sending: a name taken by another
 * field of the same owner type (the server answers error 10; `fields` are the fleet's definitions,
 * `editingId` the field being edited), a list without options, and each option empty, too long once
 * trimmed, or a repeat (trimmed, case-insensitive).
 */
export function ownProblems(
  draft: FieldDraft,
  fields: readonly CustomFieldWire[],
  editingId: number | null,
): OwnProblems {
  const out: OwnProblems = { option: {} };
  const name = draft.n.trim();
  if (fields.some((f) => f.id !== editingId && f.t === draft.t && nameKey(f.n) === nameKey(name)))
    out.n = 'duplicate';
  if (draft.tp !== CustomFieldType.list) return out;
  const options = sentOptions(draft);
  if (options.length === 0) out.options = 'needOne';
  const seen = new Set<string>();
  options.forEach((o, i) => {
    const key = o.toLowerCase();
    if (o === '') out.option[i] = 'empty';
    else if ([...o].length > Limits.stringMax) out.option[i] = 'tooLong';
    else if (seen.has(key)) out.option[i] = 'duplicate';
    seen.add(key);
  });
  return out;
}

/** `POST /fleets/{fid}/custom-fields` body. */
export function createBody(draft: FieldDraft): CustomFieldBody {
  const body: CustomFieldBody = { n: draft.n.trim(), tp: draft.tp, t: draft.t };
  if (draft.tp === CustomFieldType.list) body.s = { options: sentOptions(draft) };
  return body;
}

/** `PUT /custom-fields/{id}` body: name, type and options; the owner type cannot change (server rule). */
export function updateBody(draft: FieldDraft): CustomFieldUpdateBody {
  const body: CustomFieldUpdateBody = { n: draft.n.trim(), tp: draft.tp };
  body.s = { options: sentOptions(draft) };
  return body;
}

/** The options as the table shows them: "A, B, C"; a text field has none. */
export const optionsSummary = (field: CustomFieldWire): string =>
  field.tp === CustomFieldType.list ? (field.s.options ?? []).join(', ') : '';

/**
 * The number of values a refused safe delete names: the server answers error 10 with the field's
 * refusal `[{id, reason, values: N}]` (server modules/customfields `deleteField`). Null for any other
 * reply.
 */
export function valuesOfRefusal(code: number, details: unknown): number | null {
  if (code !== 10) return null;
  const held = serverIssues(details).find((i) => i.value === null && i.values !== null && i.values > 0);
  return held?.values ?? null;
}

/**
 * Values held outside the new options, from a refused update (error 10, one refusal per value
 * `{field: 'body.s.options', reason, value, values: count}`): "value (count)" entries, empty for any
 * other reply.
 */
export function valuesOutside(code: number, details: unknown): { value: string; count: number }[] {
  if (code !== 10) return [];
  return serverIssues(details).flatMap(({ source, path, value, values }) =>
    source === 'body' && path.join('.') === 's.options' && value !== null && values !== null
      ? [{ value, count: values }]
      : [],
  );
}

/**
 * Server field errors of a create or update (error 4 `body.n`, `body.s.options.3`; a 409 names
 * `body.n`) onto the dialog: the name, the options as a whole, or one option row.
 */
export function serverFieldOf(path: readonly string[]): 'n' | 'options' | `option.${number}` | null {
  if (path[0] === 'n') return 'n';
  if (path[0] === 's' && path[1] === 'options')
    return path[2] !== undefined && /^\d+$/.test(path[2]) ? `option.${Number(path[2])}` : 'options';
  return null;
}
