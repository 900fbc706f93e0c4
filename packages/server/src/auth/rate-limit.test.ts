import { describe, expect, it } from 'vitest';
import { LOGIN_LIMITS, type LoginLimits, lockedUntil } from './rate-limit.js';

/** The lock rule of the login throttle (DESIGN §4; core contracts/session.ts `LOGIN_*`). */
describe('lockedUntil', () => {
  const limits: LoginLimits = {
    windowMs: 60_000,
    nameMax: 3,
    addressMax: 5,
    lockMs: 1_000,
    lockMaxMs: 8_000,
  };
  const newestFirst = (...times: number[]) => [...times].sort((a, b) => b - a);

  it('does not lock below the limit', () => {
    expect(lockedUntil([], 3, limits)).toBe(0);
    expect(lockedUntil(newestFirst(100, 200), 3, limits)).toBe(0);
  });

  it('locks from the newest failure once the limit is reached, doubling with each failure over it', () => {
    expect(lockedUntil(newestFirst(100, 200, 300), 3, limits)).toBe(1_300);
    expect(lockedUntil(newestFirst(100, 200, 300, 2_000), 3, limits)).toBe(4_000);
    expect(lockedUntil(newestFirst(100, 200, 300, 2_000, 5_000), 3, limits)).toBe(9_000);
  });

  it('never locks longer than the longest lock', () => {
    const many = Array.from({ length: 20 }, (_, i) => 10_000 - i);
    expect(lockedUntil(many, 3, limits)).toBe(10_000 + 8_000);
  });

  it('counts only the failures within the window before the newest one (sliding window)', () => {
    // Two old failures slid out of the window that ends at 70 000: one failure left, no lock.
    expect(lockedUntil(newestFirst(100, 200, 70_000), 3, limits)).toBe(0);
    expect(lockedUntil(newestFirst(100, 20_000, 30_000, 70_000), 3, limits)).toBe(71_000);
  });

  it('uses the product limits by default: 10 per name, 30 per address, 60 s first lock, 5 min window', () => {
    expect(LOGIN_LIMITS).toEqual({
      windowMs: 300_000,
      nameMax: 10,
      addressMax: 30,
      lockMs: 60_000,
      lockMaxMs: 300_000,
    });
    const ten = Array.from({ length: 10 }, (_, i) => 1_000 - i);
    expect(lockedUntil(ten, LOGIN_LIMITS.nameMax, LOGIN_LIMITS)).toBe(61_000);
    expect(lockedUntil(ten, LOGIN_LIMITS.addressMax, LOGIN_LIMITS)).toBe(0);
  });
});
