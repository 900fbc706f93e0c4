import { describe, expect, it } from 'vitest';
import { fleetNameNeedsTooltip, unreadLabel, userNameNeedsTooltip } from './header.ts';

describe('header rules', () => {
  it('user names over 14 characters get a tooltip', () => {
    expect(userNameNeedsTooltip('a'.repeat(14))).toBe(false);
    expect(userNameNeedsTooltip('a'.repeat(15))).toBe(true);
  });
  it('fleet names of 15 characters or more get a tooltip', () => {
    expect(fleetNameNeedsTooltip('a'.repeat(14))).toBe(false);
    expect(fleetNameNeedsTooltip('a'.repeat(15))).toBe(true);
  });
  it('the unread count is capped as 99+', () => {
    expect(unreadLabel(0)).toBeNull();
    expect(unreadLabel(1)).toBe('1');
    expect(unreadLabel(99)).toBe('99');
    expect(unreadLabel(100)).toBe('99+');
  });
});
