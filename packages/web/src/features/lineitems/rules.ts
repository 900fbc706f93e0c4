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

export type DraftProblem = 'nameRequired' | 'costInvalid' | 'duplicate';

/**
 * What stops a draft from being saved: an empty name, a cost that is not a number (empty counts as 0),
 * or a name and kind another item already has (the server answers 409 as well).
 */
export function draftProblem(
  draft: ItemDraft,
  items: readonly LineItemWire[],
  exceptId?: number,
): DraftProblem | null {
  if (!draft.n.trim()) return 'nameRequired';
  if (draft.c.trim() !== '' && numericValue(draft.c) === null) return 'costInvalid';
  const key = itemKey(draft.t, draft.n);
  if (items.some((i) => i.id !== exceptId && itemKey(i.t, i.n) === key)) return 'duplicate';
  return null;
}

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
