import { ACL_ALL, Acl, type LineItemWire, lineItemBody } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { canWith } from '../../lib/permissions.ts';
import {
  checkedBody,
  costText,
  draftBody,
  draftOfItem,
  isDuplicate,
  itemFieldOf,
  itemsOfTab,
  itemVersion,
  KIND,
  missingPresets,
  saveErrorKey,
} from './rules.ts';

const items: LineItemWire[] = [
  { id: 1, n: 'Oil filter', t: KIND.part, c: 12.5 },
  { id: 2, n: 'Oil change', t: KIND.labour, c: 40 },
  { id: 3, n: 'diesel', t: KIND.fuel, c: 1.659 },
];

describe('line-items rules', () => {
  it('splits the library into the parts-and-labour and fuel tabs', () => {
    expect(itemsOfTab(items, 'parts').map((i) => i.id)).toEqual([1, 2]);
    expect(itemsOfTab(items, 'fuel').map((i) => i.id)).toEqual([3]);
  });

  it('offers the fuel presets not yet in the library, ignoring case and a part of the same name', () => {
    const presets = ['Diesel', 'LPG', 'Oil filter'].map((n) => ({ n, t: KIND.fuel, c: 0 }));
    expect(missingPresets(presets, items).map((p) => p.n)).toEqual(['LPG', 'Oil filter']);
    expect(missingPresets([], items)).toEqual([]);
  });

  it('checks a draft with the core contract: name required, cost a decimal (empty is 0)', () => {
    const ok = (n: string, c: string) => lineItemBody.safeParse(checkedBody({ n, t: KIND.part, c })).success;
    expect(ok('  ', '1')).toBe(false);
    expect(ok('Belt', '.')).toBe(false);
    expect(ok('Belt', '')).toBe(true);
    // A dangling point as NumericInput leaves it while typing is the number before it.
    expect(checkedBody({ n: ' Belt ', t: KIND.part, c: '12.' })).toEqual({
      n: 'Belt',
      t: KIND.part,
      c: '12',
    });
    expect(ok('Belt', '12.')).toBe(true);
    expect(ok('Belt', '1000000000.001')).toBe(false);
  });

  it('finds a duplicate name and kind in other case, never the edited item itself', () => {
    expect(isDuplicate({ n: ' OIL FILTER ', t: KIND.part, c: '3' }, items)).toBe(true);
    expect(isDuplicate({ n: 'Oil filter', t: KIND.labour, c: '3' }, items)).toBe(false);
    expect(isDuplicate({ n: 'Oil filter', t: KIND.part, c: '3' }, items, 1)).toBe(false);
    expect(isDuplicate({ n: '  ', t: KIND.part, c: '' }, items)).toBe(false);
  });

  it("reads an item into a row's draft, versions it by its values and maps body paths to fields", () => {
    expect(draftOfItem(items[0] as LineItemWire)).toEqual({ n: 'Oil filter', t: KIND.part, c: '12.5' });
    expect(itemVersion(items[0] as LineItemWire)).not.toBe(
      itemVersion({ ...(items[0] as LineItemWire), c: 13 }),
    );
    expect(itemFieldOf(['n'])).toBe('n');
    expect(itemFieldOf(['c'])).toBe('c');
    expect(itemFieldOf(['fid'])).toBeNull();
  });

  it('builds the request body and the edit text of a cost', () => {
    expect(draftBody({ n: ' Belt ', t: KIND.part, c: '' })).toEqual({ n: 'Belt', t: 2, c: 0 });
    expect(draftBody({ n: 'Belt', t: KIND.labour, c: '12.345' })).toEqual({ n: 'Belt', t: 1, c: 12.345 });
    expect(costText(12.5)).toBe('12.5');
    expect(costText(0.1 + 0.2)).toBe('0.3');
  });

  it('maps error 10 to the duplicate message', () => {
    expect(saveErrorKey(10)).toBe('lineitems.duplicate');
    expect(saveErrorKey(4)).toBe('lineitems.failed');
    expect(saveErrorKey(undefined)).toBe('lineitems.failed');
  });

  it('writes with lineitem.manage: manageService or manageInterval, never as a super user outside the fleet', () => {
    const user = { su: false, admin: false };
    expect(canWith(user, Acl.viewService | Acl.viewInterval)('lineitem.manage')).toBe(false);
    expect(canWith(user, Acl.viewInterval | Acl.viewService | Acl.manageService)('lineitem.manage')).toBe(
      true,
    );
    expect(canWith(user, Acl.viewInterval | Acl.manageInterval)('lineitem.manage')).toBe(true);
    expect(canWith({ su: true, admin: false }, Acl.admin)('lineitem.manage')).toBe(false);
    // A super user who is a member works as one (docs/product.md "Working alone").
    expect(canWith({ su: true, admin: false }, ACL_ALL)('lineitem.manage')).toBe(true);
  });
});
