import { describe, expect, it } from 'vitest';
import { LoginLimiter } from './rate-limit.js';

describe('LoginLimiter (DESIGN §4)', () => {
  it('allows the limit of failures, then asks to wait until the window has passed', () => {
    const limiter = new LoginLimiter(3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfter('Manager', '1.2.3.4', t0 + i)).toBe(0);
      limiter.fail('Manager', '1.2.3.4', t0 + i);
    }
    expect(limiter.retryAfter('manager', '1.2.3.4', t0 + 10)).toBe(60);
    expect(limiter.retryAfter('manager', '1.2.3.4', t0 + 60_001)).toBe(0);
  });
  it('counts per user name and address separately', () => {
    const limiter = new LoginLimiter(1, 60_000);
    limiter.fail('a', 'x', 0);
    expect(limiter.retryAfter('a', 'x', 1)).toBeGreaterThan(0);
    expect(limiter.retryAfter('a', 'y', 1)).toBe(0);
    expect(limiter.retryAfter('b', 'x', 1)).toBe(0);
  });
  it('forgets failures after a successful login', () => {
    const limiter = new LoginLimiter(2, 60_000);
    limiter.fail('a', 'x', 0);
    limiter.succeed('a', 'x');
    limiter.fail('a', 'x', 1);
    expect(limiter.retryAfter('a', 'x', 2)).toBe(0);
  });
});
