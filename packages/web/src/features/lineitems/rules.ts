import {
  type LineItemBody,
  type LineItemFuelPresetWire,
  LineItemKind,
  type LineItemWire,
} from '@fleetkeep/core';
import { numericValue } from '../../components/numeric.ts';

/**
 * Spec §3 "Line item": the kinds of the library and the rules of its forms. Pure, unit-tested. The
 * records are the core contract's `LineItemWire` and `LineItemFuelPresetWire`.
 */

/** The kinds of the library by the screen's names (core `LineItemKind`: task is labour). */
export const KIND = { labour: LineItemKind.task, part: LineItemKind.part, fuel: LineItemKind.fuel } as const;
export type LibraryKind = (typeof KIND)[keyof typeof KIND];

export type LibraryTab = 'parts' | 'fuel';

/** The items one tab shows: parts and labour, or fuel. */
export function itemsOfTab(items: readonly LineItemWire[], tab: LibraryTab): LineItemWire[] {
  return items.filter((i) => (tab === 'fuel' ? i.t === KIND.fuel : i.t === KIND.part || i.t === KIND.labour));
}

/** The server's identity of an item: kind plus trimmed, case-insensitive name. */
export const itemKey = (kind: number, name: string) => `${kind}:${name.trim().toLowerCase()}`;

/** Fuel presets whose name is not yet a fuel item of the library (names compared without case). */
export function missingPresets(
  presets: readonly LineItemFuelPresetWire[],
  items: readonly LineItemWire[],
): LineItemFuelPresetWire[] {
  const have = new Set(items.map((i) => itemKey(i.t, i.n)));
  return presets.filter((p) => !have.has(itemKey(KIND.fuel, p.n)));
}

export interface ItemDraft {
  n: string;
  t: LibraryKind;
  /** Sanitized NumericInput text. */
  c: string;
}

/** The form fields of an item: name, kind, cost. */
export type ItemField = 'n' | 't' | 'c';

/** A draft's empty form (the add row of a tab): a part on the parts tab, fuel on the fuel tab. */
export const emptyDraft = (tab: LibraryTab): ItemDraft => ({
  n: '',
  t: tab === 'fuel' ? KIND.fuel : KIND.part,
  c: '',
});

/** The draft of a stored item (the inline edit of a row). */
export const draftOfItem = (item: LineItemWire): ItemDraft => ({
  n: item.n,
  t: item.t as LibraryKind,
  c: costText(item.c),
});

/** What a row's inline edit reloads on: the item as the library reads it now. */
export const itemVersion = (item: LineItemWire): string => `${item.t}|${item.n}|${item.c}`;

/**
 * The body a draft is checked with, against core `lineItemBody` (name 1..stringMax after trimming; cost
 * a non-negative decimal with at most 3 fraction digits up to DECIMAL_MAX): the cost as typed (a
 * dangling point dropped), 0 when empty, so that text that is no number is refused by the contract.
 */
export function checkedBody(draft: ItemDraft): { n: string; t: number; c: number | string } {
  const c = draft.c.trim().replace(/\.$/, '');
  return { n: draft.n.trim(), t: draft.t, c: draft.c.trim() === '' ? 0 : c };
}

/**
 * The form's own rule, which the contract cannot say (it needs the library): a name and kind another
 * item already has, names compared trimmed and without case (the server answers 409 error 10 as well).
 */
export function isDuplicate(draft: ItemDraft, items: readonly LineItemWire[], exceptId?: number): boolean {
  const key = itemKey(draft.t, draft.n);
  return draft.n.trim() !== '' && items.some((i) => i.id !== exceptId && itemKey(i.t, i.n) === key);
}

/** The body path of a refused save or of a contract issue → the form field (`n`, `t`, `c`). */
export const itemFieldOf = (path: readonly string[]): ItemField | null =>
  path[0] === 'n' || path[0] === 't' || path[0] === 'c' ? path[0] : null;

/** The request body of a draft: trimmed name, cost as a number (0 when empty). */
export function draftBody(draft: ItemDraft): LineItemBody {
  return { n: draft.n.trim(), t: draft.t, c: numericValue(draft.c) ?? 0 };
}

/** The NumericInput text of a stored cost. */
export function costText(cost: number): string {
  return Number.isFinite(cost) ? String(Number(cost.toFixed(3))) : '';
}

/** Translation key of a failed save: error 10 is the duplicate of spec §8. */
export function saveErrorKey(code: number | undefined): string {
  return code === 10 ? 'lineitems.duplicate' : 'lineitems.failed';
}
