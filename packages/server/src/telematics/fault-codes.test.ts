import { describe, expect, it } from 'vitest';
import { sight } from './fault-codes.js';

describe('fault code sightings', () => {
  it('opens a code seen for the first time', () => {
    expect(sight(undefined, 100)).toEqual({
      next: { firstSeen: 100, lastSeen: 100, count: 1, clearedAt: null, clearedBy: null },
      opened: 'new',
    });
  });

  it('counts an active code seen again, keeping first and last seen in order', () => {
    const state = { firstSeen: 100, lastSeen: 200, count: 2, clearedAt: null, clearedBy: null };
    expect(sight(state, 300)).toEqual({ next: { ...state, lastSeen: 300, count: 3 }, opened: null });
    expect(sight(state, 50).next).toMatchObject({ firstSeen: 50, lastSeen: 200, count: 3 });
  });

  it('reopens a cleared code seen in a reading taken after the clear; the count goes on', () => {
    const state = { firstSeen: 100, lastSeen: 200, count: 2, clearedAt: 250, clearedBy: 7 };
    expect(sight(state, 260)).toEqual({
      next: { firstSeen: 100, lastSeen: 260, count: 3, clearedAt: null, clearedBy: null },
      opened: 'reopened',
    });
  });

  it('counts a reading from before the clear (a late buffer) without reopening', () => {
    const state = { firstSeen: 100, lastSeen: 200, count: 2, clearedAt: 250, clearedBy: 7 };
    expect(sight(state, 240)).toEqual({
      next: { firstSeen: 100, lastSeen: 240, count: 3, clearedAt: 250, clearedBy: 7 },
      opened: null,
    });
    expect(sight(state, 250).opened).toBeNull();
  });
});
