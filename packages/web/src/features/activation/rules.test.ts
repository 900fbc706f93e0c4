import type { AdminAccountWire } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { accountState, ancestorIds, buildTree, filterTree, parentIds, visibleRows } from './rules.ts';

const acc = (id: number, n: string, parent: number | null, s = 1, active = 1): AdminAccountWire => ({
  id,
  n,
  parent,
  s,
  active: active as 0 | 1,
  fleets: [],
});

const ACCOUNTS = [
  acc(1, 'Fleetkeep', null),
  acc(3, 'Northwind', 1),
  acc(2, 'Demo', 1),
  acc(4, 'Depot East', 2),
  acc(5, 'Depot West', 2, 0, 0),
  acc(6, 'Yard', 5, 1, 0),
];

const names = (rows: { account: AdminAccountWire; depth: number }[]) =>
  rows.map((r) => `${r.depth}:${r.account.n}`);

describe('buildTree', () => {
  it('nests by parent and sorts siblings by name', () => {
    const tree = buildTree(ACCOUNTS);
    expect(names(visibleRows(tree, new Set([1, 2, 5]), false))).toEqual([
      '0:Fleetkeep',
      '1:Demo',
      '2:Depot East',
      '2:Depot West',
      '3:Yard',
      '1:Northwind',
    ]);
  });

  it('makes an account whose parent is not listed a root', () => {
    const tree = buildTree([acc(2, 'Demo', 1), acc(4, 'Depot', 2)]);
    expect(tree.map((n) => n.account.id)).toEqual([2]);
    expect(tree[0]?.children.map((n) => n.account.id)).toEqual([4]);
  });

  it('lists parents for expand-all', () => {
    expect(parentIds(buildTree(ACCOUNTS)).sort()).toEqual([1, 2, 5]);
  });
});

describe('visibleRows', () => {
  it('hides the children of collapsed accounts', () => {
    expect(names(visibleRows(buildTree(ACCOUNTS), new Set([1]), false))).toEqual([
      '0:Fleetkeep',
      '1:Demo',
      '1:Northwind',
    ]);
  });
});

describe('filterTree', () => {
  it('keeps matches with their ancestors and opens them', () => {
    const tree = filterTree(buildTree(ACCOUNTS), ' yARD ');
    expect(names(visibleRows(tree, new Set(), true))).toEqual([
      '0:Fleetkeep',
      '1:Demo',
      '2:Depot West',
      '3:Yard',
    ]);
  });

  it('keeps the whole tree for an empty filter and nothing for no match', () => {
    const tree = buildTree(ACCOUNTS);
    expect(filterTree(tree, '  ')).toEqual(tree);
    expect(filterTree(tree, 'nothing')).toEqual([]);
  });
});

describe('accountState', () => {
  it('tells own suspension from a suspension above', () => {
    expect(accountState({ s: 1, active: 1 })).toBe('active');
    expect(accountState({ s: 0, active: 0 })).toBe('suspended');
    expect(accountState({ s: 1, active: 0 })).toBe('suspendedByParent');
  });
});

describe('ancestorIds', () => {
  it('walks up to the top, nearest first', () => {
    expect(ancestorIds(ACCOUNTS, 6)).toEqual([5, 2, 1]);
    expect(ancestorIds(ACCOUNTS, 1)).toEqual([]);
  });
});
