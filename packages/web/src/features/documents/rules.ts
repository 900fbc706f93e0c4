import {
  type DocumentCreateInput,
  type DocumentExpiryState,
  type DocumentOwnerType,
  type DocumentRenewInput,
  type DocumentUpdateInput,
  localDate,
  startOfDay,
} from '@fleetkeep/core';

/** Pure rules of the documents screens: dates as the date picker holds them, drafts to bodies. */

const DAY = 86_400;

/** The fleet-local day `YYYY-MM-DD` to the Unix second it starts (or, with `end`, its last second). */
export function dayToUnix(tz: number, day: string | null, end = false): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '');
  if (!m) return null;
  const noon = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12) / 1000;
  const start = startOfDay(tz, noon);
  return end ? start + DAY - 1 : start;
}

/** A stored time to the fleet-local day the picker shows. */
export function unixToDay(tz: number, unix: number | null): string | null {
  return unix === null ? null : localDate(tz, unix);
}

export const STATE_COLOR: Record<DocumentExpiryState, string> = {
  valid: 'green',
  expiring: 'orange',
  expired: 'red',
};

/** The create and edit dialog's draft: the owner as `u:12`, the type as a built-in name or `c:3`. */
export interface DocumentDraft {
  owner: string | null;
  type: string | null;
  number: string;
  issuer: string;
  validFrom: string | null;
  validTo: string | null;
  cost: string;
}

export function ownerOf(value: string | null): { type: DocumentOwnerType; id: number } | null {
  const m = /^([utd]):(\d+)$/.exec(value ?? '');
  return m ? { type: m[1] as DocumentOwnerType, id: Number(m[2]) } : null;
}

function typeFields(value: string | null) {
  const custom = /^c:(\d+)$/.exec(value ?? '');
  if (custom) return { type: 'custom' as const, type_id: Number(custom[1]) };
  return { type: (value ?? '') as DocumentCreateInput['type'], type_id: null };
}

const costOf = (text: string) => (text.trim() === '' ? null : text.trim().replace(',', '.'));

/** The POST body of a draft (an unchosen owner sends id 0, an unset end -1: the contract refuses both). */
export function createBody(tz: number, draft: DocumentDraft): DocumentCreateInput {
  const owner = ownerOf(draft.owner);
  return {
    owner_type: owner?.type ?? 'u',
    owner_id: owner?.id ?? 0,
    ...typeFields(draft.type),
    number: draft.number.trim(),
    issuer: draft.issuer.trim(),
    valid_from: dayToUnix(tz, draft.validFrom),
    valid_to: dayToUnix(tz, draft.validTo, true) ?? -1,
    cost: costOf(draft.cost),
  };
}

/** The PUT body of a draft: every field but the owner. */
export function updateBody(tz: number, draft: DocumentDraft): DocumentUpdateInput {
  const { owner_type: _t, owner_id: _i, ...rest } = createBody(tz, draft);
  return rest as DocumentUpdateInput;
}

export interface RenewDraft {
  number: string;
  validFrom: string | null;
  validTo: string | null;
  cost: string;
}

export function renewBody(tz: number, draft: RenewDraft): DocumentRenewInput {
  return {
    ...(draft.number.trim() !== '' && { number: draft.number.trim() }),
    valid_from: dayToUnix(tz, draft.validFrom),
    valid_to: dayToUnix(tz, draft.validTo, true) ?? -1,
    cost: costOf(draft.cost),
  };
}
