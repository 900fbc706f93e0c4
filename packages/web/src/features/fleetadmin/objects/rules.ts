import {
  type Collection,
  fleetDistanceToKm,
  type PersonCreateBody,
  type UnitCreateBody,
  unitCreateBody,
} from '@fleetkeep/core';
import { numericValue } from '../../../components/numeric.ts';
import { matchesSearch } from '../../../components/search.ts';
import type { CoreSchema } from '../../../lib/coreResolver.ts';
import { naturalCollator } from '../../../lib/naturalSort.ts';

/**
 * Pure rules of the fleet's service objects tab (PRODUCT.md "Service objects and counters"; "Administration":
 * two lists, in the fleet / available to add, with filter, select all and save). The unsaved membership of
 * one kind is a draft of ids to add and ids to remove against the saved state, so objects created,
 * deleted or moved by someone else meanwhile show up as they are and never make a stale list to save.
 */

export type ObjectKind = 'units' | 'drivers' | 'trailers';
export const OBJECT_KINDS: readonly ObjectKind[] = ['units', 'drivers', 'trailers'];

/** The app's query collection of each kind (lib/queryKeys.ts), which the rest of the app reads. */
export const KIND_COLLECTION: Record<ObjectKind, Collection> = {
  units: 'avl_unit',
  drivers: 'driver',
  trailers: 'trailer',
};

/** One row of either list. `fid` is the fleet the object is saved in (null: none). */
export interface ObjectRow {
  id: number;
  name: string;
  /** Second line: the device id of a unit, the code of a driver or trailer. */
  detail: string;
  fid: number | null;
}

/** Unsaved moves of one kind, against the saved membership. */
export interface Draft {
  add: ReadonlySet<number>;
  remove: ReadonlySet<number>;
}
export const EMPTY_DRAFT: Draft = { add: new Set(), remove: new Set() };

export interface Lists {
  inFleet: ObjectRow[];
  available: ObjectRow[];
}

const byName = (a: ObjectRow, b: ObjectRow) => naturalCollator.compare(a.name, b.name) || a.id - b.id;

/**
 * The two lists: `fleetRows` are the fleet's objects as saved (`GET /fleets/{id}/{kind}`), `bindableRows`
 * those the admin may bind (`GET /fleets/{id}/user/{kind}`: of the account, in this fleet or in none).
 */
export function buildLists(
  fleetRows: readonly ObjectRow[],
  bindableRows: readonly ObjectRow[],
  draft: Draft,
): Lists {
  const all = new Map<number, ObjectRow>();
  for (const row of bindableRows) all.set(row.id, row);
  for (const row of fleetRows) all.set(row.id, row);
  const saved = new Set(fleetRows.map((r) => r.id));
  const out: Lists = { inFleet: [], available: [] };
  for (const row of all.values()) {
    const member = saved.has(row.id) ? !draft.remove.has(row.id) : draft.add.has(row.id);
    (member ? out.inFleet : out.available).push(row);
  }
  out.inFleet.sort(byName);
  out.available.sort(byName);
  return out;
}

/** The draft after moving `ids` into the fleet (`toFleet`) or out of it; moving back undoes a move. */
export function moveIds(
  draft: Draft,
  ids: readonly number[],
  toFleet: boolean,
  saved: ReadonlySet<number>,
): Draft {
  const add = new Set(draft.add);
  const remove = new Set(draft.remove);
  for (const id of ids) {
    if (saved.has(id)) {
      if (toFleet) remove.delete(id);
      else remove.add(id);
    } else if (toFleet) add.add(id);
    else add.delete(id);
  }
  return { add, remove };
}

/**
 * Drops moves that no longer change anything: an added object that is saved in the fleet now, a removed
 * one that is no longer in it, and objects neither list knows (deleted meanwhile).
 */
export function pruneDraft(draft: Draft, saved: ReadonlySet<number>, known: ReadonlySet<number>): Draft {
  const add = [...draft.add].filter((id) => !saved.has(id) && known.has(id));
  const remove = [...draft.remove].filter((id) => saved.has(id));
  if (add.length === draft.add.size && remove.length === draft.remove.size) return draft;
  return { add: new Set(add), remove: new Set(remove) };
}

export const isDirty = (draft: Draft): boolean => draft.add.size > 0 || draft.remove.size > 0;

/** The full id list of the kind for `PUT /fleets/{id}/entities` (the saved ones with the draft applied). */
export function fleetIdsAfter(saved: readonly number[], draft: Draft): number[] {
  return [
    ...saved.filter((id) => !draft.remove.has(id)),
    ...[...draft.add].filter((id) => !saved.includes(id)),
  ];
}

/** Rows whose name or second line contains the filter text (case- and accent-blind, spec §5). */
export function filterRows(rows: readonly ObjectRow[], query: string): ObjectRow[] {
  if (query.trim() === '') return [...rows];
  return rows.filter((r) => matchesSearch(r.name, query) || matchesSearch(r.detail, query));
}

export type SelectAllState = 'all' | 'some' | 'none';

/** The select-all box of a list: over the rows the filter shows. */
export function selectAllState(visible: readonly number[], selected: ReadonlySet<number>): SelectAllState {
  const count = visible.filter((id) => selected.has(id)).length;
  if (count === 0) return 'none';
  return count === visible.length ? 'all' : 'some';
}

/** Clicking select-all: clears the shown rows when all are selected, else selects every shown row. */
export function toggleAll(visible: readonly number[], selected: ReadonlySet<number>): Set<number> {
  const next = new Set(selected);
  if (selectAllState(visible, selected) === 'all') for (const id of visible) next.delete(id);
  else for (const id of visible) next.add(id);
  return next;
}

export function toggleOne(selected: ReadonlySet<number>, id: number, on: boolean): Set<number> {
  const next = new Set(selected);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/** What a move button moves: the selected rows the filter shows (hidden ones are not moved unseen). */
export function movable(visible: readonly number[], selected: ReadonlySet<number>): number[] {
  return visible.filter((id) => selected.has(id));
}

// --- forms: checked with core contracts/fleets.ts (unitCreateBody, personCreateBody) ---

export interface UnitForm {
  nm: string;
  uid: string;
  ut: number | null;
  /** Starting mileage as typed, in the fleet's distance unit ('' for none). */
  cnm: string;
  /** Starting engine hours as typed ('' for none). */
  cneh: string;
}
export const EMPTY_UNIT_FORM: UnitForm = { nm: '', uid: '', ut: null, cnm: '', cneh: '' };

/** `ms` of the fleet: 1 miles, else km (spec §3 "Fleet"); the wire is in km (DESIGN §3). */
function mileageKm(text: string, ms: number): number | null {
  const value = numericValue(text);
  return value === null ? null : fleetDistanceToKm(value, ms);
}

/**
 * The core contract a unit's save is checked with: a new unit's POST body; an edit sends name and type
 * (PUT) and a changed device id (PUT .../device), whose rules are the new unit's without the counters.
 */
export const unitSchema = (create: boolean): CoreSchema =>
  create ? unitCreateBody : unitCreateBody.pick({ nm: true, uid: true, ut: true });

/** The body checked with `unitSchema`: a new unit's POST body, or an edit's name, device id and type. */
export function unitCheckedBody(form: UnitForm, ms: number, create: boolean): unknown {
  return create ? unitCreateBodyOf(form, ms) : { nm: form.nm.trim(), uid: form.uid.trim(), ut: form.ut };
}

/** `POST /fleets/{id}/units`: the starting mileage converted to km when the fleet measures miles. */
export function unitCreateBodyOf(form: UnitForm, ms: number): UnitCreateBody {
  const km = mileageKm(form.cnm, ms);
  const hours = numericValue(form.cneh);
  return {
    nm: form.nm.trim(),
    uid: form.uid.trim(),
    ut: form.ut,
    ...(km === null ? {} : { cnm: km }),
    ...(hours === null ? {} : { cneh: hours }),
  };
}

export interface PersonForm {
  n: string;
  c: string;
  ds: string;
}
export const EMPTY_PERSON_FORM: PersonForm = { n: '', c: '', ds: '' };

export function personBodyOf(form: PersonForm): PersonCreateBody {
  return { n: form.n.trim(), c: form.c, ds: form.ds };
}
