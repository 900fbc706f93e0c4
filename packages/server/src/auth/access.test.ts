import { describe, expect, it } from 'vitest';
import type { AccountRow } from '../db/schema.js';
import { accountTreeOf } from './access.js';

const account = (id: number, parent: number | null, active: number): AccountRow => ({
  id,
  name: `a${id}`,
  parent_id: parent,
  active,
  created_at: 0,
});

/** The account tree's activation rule: a suspended ancestor suspends what lies below. */
describe('accountTreeOf', () => {
  const tree = accountTreeOf([account(1, null, 1), account(2, 1, 0), account(3, 2, 1), account(4, 1, 1)]);

  it('an account is active only when it and every ancestor are', () => {
    expect(tree.isActive(1)).toBe(true);
    expect(tree.isActive(2)).toBe(false);
    expect(tree.isActive(3)).toBe(false);
    expect(tree.isActive(4)).toBe(true);
  });

  it('an unknown account is not active (the caller reads the tree again)', () => {
    expect(tree.isActive(99)).toBe(false);
  });

  it('knows what lies within an account', () => {
    expect(tree.isWithin(2, 3)).toBe(true);
    expect(tree.isWithin(1, 3)).toBe(true);
    expect(tree.isWithin(4, 3)).toBe(false);
    expect(tree.isWithin(3, 2)).toBe(false);
  });
});
