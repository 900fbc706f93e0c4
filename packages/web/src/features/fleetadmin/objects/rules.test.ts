import { COUNTER_MAX, KM_PER_MILE, Limits, personCreateBody, UNIT_DEVICE_ID_MAX } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../../../lib/coreResolver.ts';
import {
  buildLists,
  type Draft,
  EMPTY_DRAFT,
  EMPTY_PERSON_FORM,
  EMPTY_UNIT_FORM,
  filterRows,
  fleetIdsAfter,
  isDirty,
  movable,
  moveIds,
  type ObjectRow,
  type PersonForm,
  personBodyOf,
  pruneDraft,
  selectAllState,
  toggleAll,
  toggleOne,
  type UnitForm,
  unitCheckedBody,
  unitCreateBodyOf,
  unitSchema,
} from './rules.ts';

const head = (path: readonly string[]) => path[0] ?? null;
/** A unit dialog's problems: its checked body under the core contract, by field. */
const unitFormProblems = (form: UnitForm, ms: number, create: boolean) =>
  schemaProblems(unitSchema(create), unitCheckedBody(form, ms, create), head).fields;
/** A driver or trailer dialog's problems under the core contract, by field. */
const personFormProblems = (form: PersonForm) =>
  schemaProblems(personCreateBody, personBodyOf(form), head).fields;

const FID = 7;
const row = (id: number, name: string, fid: number | null = FID, detail = ''): ObjectRow => ({
  id,
  name,
  detail,
  fid,
});
const ids = (rows: readonly ObjectRow[]) => rows.map((r) => r.id);

// The fleet holds 1, 2, 3; 4 and 5 are in no fleet (the bindable list repeats the fleet's own).
const fleetRows = [row(1, 'Truck 10'), row(2, 'Truck 2'), row(3, 'Van', FID, 'dev-abc')];
const bindable = [...fleetRows, row(4, 'Trailer Ø', null, 'TR-1'), row(5, 'crane', null)];
const saved = new Set([1, 2, 3]);

describe('two lists (PRODUCT.md "Administration")', () => {
  it('splits the saved state, sorted by name naturally and case-blind', () => {
    const lists = buildLists(fleetRows, bindable, EMPTY_DRAFT);
    expect(ids(lists.inFleet)).toEqual([2, 1, 3]);
    expect(ids(lists.available)).toEqual([5, 4]);
  });

  it('applies a draft: moved rows change sides, nothing is lost or doubled', () => {
    const draft = moveIds(moveIds(EMPTY_DRAFT, [1], false, saved), [4], true, saved);
    const lists = buildLists(fleetRows, bindable, draft);
    expect(ids(lists.inFleet)).toEqual([4, 2, 3]);
    expect(ids(lists.available)).toEqual([5, 1]);
  });

  it('moving back undoes a move, so the draft is clean again', () => {
    let draft: Draft = moveIds(EMPTY_DRAFT, [1, 4], false, saved);
    draft = moveIds(draft, [4], true, saved);
    expect(isDirty(draft)).toBe(true);
    expect([...draft.add]).toEqual([4]);
    draft = moveIds(draft, [1], true, saved);
    draft = moveIds(draft, [4], false, saved);
    expect(isDirty(draft)).toBe(false);
  });

  it('the save body is the full id list of the kind after the draft', () => {
    const draft = moveIds(moveIds(EMPTY_DRAFT, [2], false, saved), [5, 4], true, saved);
    expect(fleetIdsAfter([1, 2, 3], draft).sort()).toEqual([1, 3, 4, 5]);
    expect(fleetIdsAfter([1, 2, 3], EMPTY_DRAFT)).toEqual([1, 2, 3]);
    expect(fleetIdsAfter([1], moveIds(EMPTY_DRAFT, [1], false, new Set([1])))).toEqual([]);
  });

  it('drops moves made stale by changes from elsewhere (saved meanwhile, deleted)', () => {
    const draft = moveIds(moveIds(EMPTY_DRAFT, [4, 5], true, saved), [3], false, saved);
    // 4 joined the fleet elsewhere, 5 was deleted, 3 left the fleet elsewhere.
    const pruned = pruneDraft(draft, new Set([1, 2, 4]), new Set([1, 2, 3, 4]));
    expect(isDirty(pruned)).toBe(false);
    // An unchanged draft is returned as it is (no new render).
    expect(pruneDraft(draft, saved, new Set([1, 2, 3, 4, 5]))).toBe(draft);
  });
});

describe('filter and select all', () => {
  it('filters by name or second line, ignoring case and accents', () => {
    expect(ids(filterRows(bindable, 'truck'))).toEqual([1, 2]);
    expect(ids(filterRows(bindable, 'DEV-A'))).toEqual([3]);
    expect(ids(filterRows(bindable, 'trailer o'))).toEqual([4]);
    expect(ids(filterRows(bindable, '  '))).toEqual([1, 2, 3, 4, 5]);
  });

  it('select all works on the filtered rows only', () => {
    const visible = ids(filterRows(bindable, 'truck'));
    let selected = toggleAll(visible, new Set([5]));
    expect([...selected].sort()).toEqual([1, 2, 5]);
    expect(selectAllState(visible, selected)).toBe('all');
    selected = toggleAll(visible, selected);
    expect([...selected]).toEqual([5]);
    expect(selectAllState(visible, selected)).toBe('none');
    expect(selectAllState(visible, toggleOne(selected, 2, true))).toBe('some');
    expect(selectAllState([], new Set([1]))).toBe('none');
  });

  it('a move takes the selected rows the filter shows, not hidden ones', () => {
    const selected = new Set([1, 3, 4]);
    expect(movable(ids(filterRows(bindable, 'truck')), selected)).toEqual([1]);
    expect(movable([1, 3], toggleOne(selected, 3, false))).toEqual([1]);
  });
});

const unitForm = (patch: Partial<UnitForm>): UnitForm => ({
  ...EMPTY_UNIT_FORM,
  nm: 'Unit',
  uid: 'd-1',
  ...patch,
});

describe('the unit form checked with unitCreateBody', () => {
  it('reports required, too long and too large fields with the core limits', () => {
    expect(unitFormProblems(EMPTY_UNIT_FORM, 0, true)).toEqual({
      nm: { problem: 'required', limit: 1 },
      uid: { problem: 'required', limit: 1 },
    });
    const long = unitFormProblems(
      unitForm({ nm: 'x'.repeat(Limits.stringMax + 1), uid: 'y'.repeat(UNIT_DEVICE_ID_MAX + 1) }),
      0,
      true,
    );
    expect(long).toEqual({
      nm: { problem: 'tooLong', limit: Limits.stringMax },
      uid: { problem: 'tooLong', limit: UNIT_DEVICE_ID_MAX },
    });
    expect(unitFormProblems(unitForm({ cnm: String(COUNTER_MAX + 1), cneh: '1e12' }), 0, true).cnm).toEqual({
      problem: 'tooBig',
      limit: COUNTER_MAX,
    });
    // An edit checks the name and the device id (PUT .../device), not the starting counters.
    expect(unitFormProblems(unitForm({ uid: '' }), 0, false)).toEqual({
      uid: { problem: 'required', limit: 1 },
    });
    expect(unitFormProblems(unitForm({ uid: 'trk-2', cnm: String(COUNTER_MAX + 1) }), 0, false)).toEqual({});
  });

  it('a starting mileage in miles goes out in km; within the limit in miles can be over it in km', () => {
    expect(unitCreateBodyOf(unitForm({ cnm: '100', cneh: '12.5' }), 1)).toMatchObject({
      cnm: Math.round(100 * KM_PER_MILE * 1000) / 1000,
      cneh: 12.5,
    });
    expect(unitCreateBodyOf(unitForm({ cnm: '100' }), 0).cnm).toBe(100);
    expect(unitCreateBodyOf(unitForm({ nm: '  A  ', uid: ' z ' }), 0)).toEqual({
      nm: 'A',
      uid: 'z',
      ut: null,
    });
    const nearMax = String(Math.floor(COUNTER_MAX / 1.5));
    expect(unitFormProblems(unitForm({ cnm: nearMax }), 0, true)).toEqual({});
    expect(unitFormProblems(unitForm({ cnm: nearMax }), 1, true).cnm?.problem).toBe('tooBig');
  });
});

describe('the driver or trailer form checked with personCreateBody', () => {
  it('reports the name and the lengths with the core limits', () => {
    expect(personFormProblems(EMPTY_PERSON_FORM)).toEqual({ n: { problem: 'required', limit: 1 } });
    expect(
      personFormProblems({
        n: 'A',
        c: 'c'.repeat(Limits.stringMax + 1),
        ds: 'd'.repeat(Limits.descriptionMax + 1),
      }),
    ).toEqual({
      c: { problem: 'tooLong', limit: Limits.stringMax },
      ds: { problem: 'tooLong', limit: Limits.descriptionMax },
    });
  });
});
