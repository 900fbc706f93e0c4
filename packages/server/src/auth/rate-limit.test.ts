import { describe, expect, it } from 'vitest';
import { LOGIN_LIMITS, type LoginLimit, lockedUntil } from './rate-limit.js';

/** The lock rule of the login throttle (DESIGN §4; core contracts/session.ts `LOGIN_*`). */
describe('lockedUntil', () => {
  const three: LoginLimit = { windowMs: 60_000, max: 3 };
  const lock = { lockMs: 1_000, lockMaxMs: 8_000 };
  const newestFirst = (...times: number[]) => [...times].sort((a, b) => b - a);

  it('does not lock below the limit', () => {
    expect(lockedUntil([], three, lock)).toBe(0);
    expect(lockedUntil(newestFirst(100, 200), three, lock)).toBe(0);
  });

  it('locks from the newest failure once the limit is reached, doubling with each failure over it', () => {
    expect(lockedUntil(newestFirst(100, 200, 300), three, lock)).toBe(1_300);
    expect(lockedUntil(newestFirst(100, 200, 300, 2_000), three, lock)).toBe(4_000);
    expect(lockedUntil(newestFirst(100, 200, 300, 2_000, 5_000), three, lock)).toBe(9_000);
  });

  it('never locks longer than the longest lock', () => {
    const many = Array.from({ length: 20 }, (_, i) => 10_000 - i);
    expect(lockedUntil(many, three, lock)).toBe(10_000 + 8_000);
  });

  it('counts only the failures within the window before the newest one (sliding window)', () => {
    // Two old failures slid out of the window that ends at 70 000: one failure left, no lock.
    expect(lockedUntil(newestFirst(100, 200, 70_000), three, lock)).toBe(0);
    expect(lockedUntil(newestFirst(100, 20_000, 30_000, 70_000), three, lock)).toBe(71_000);
  });

  it('uses the product limits by default: 10 per name and address and 30 per address in 15 min, 100 per name in an hour', () => {
    expect(LOGIN_LIMITS).toEqual({
      pair: { windowMs: 900_000, max: 10 },
      address: { windowMs: 900_000, max: 30 },
      name: { windowMs: 3_600_000, max: 100 },
      lockMs: 60_000,
      lockMaxMs: 300_000,
    });
    const ten = Array.from({ length: 10 }, (_, i) => 1_000 - i);
    expect(lockedUntil(ten, LOGIN_LIMITS.pair, LOGIN_LIMITS)).toBe(61_000);
    expect(lockedUntil(ten, LOGIN_LIMITS.address, LOGIN_LIMITS)).toBe(0);
    expect(lockedUntil(ten, LOGIN_LIMITS.name, LOGIN_LIMITS)).toBe(0);
    // A hundred failures of one name within the hour, from anywhere, lock it.
    const hundred = Array.from({ length: 100 }, (_, i) => 3_600_000 - i * 30_000);
    expect(lockedUntil(hundred, LOGIN_LIMITS.name, LOGIN_LIMITS)).toBe(3_600_000 + 60_000);
    expect(lockedUntil(hundred.slice(0, 99), LOGIN_LIMITS.name, LOGIN_LIMITS)).toBe(0);
  });
});
