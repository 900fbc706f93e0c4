import { describe, expect, it } from 'vitest';
import { WARN_INTERVAL_MS, WarnLimiter } from './warn-limit.js';

describe('rate-limited ingestion warnings', () => {
  it('warns once per device and interval, then says how many it left out', () => {
    let clock = 1_000_000;
    const limiter = new WarnLimiter(WARN_INTERVAL_MS, () => clock);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBeNull();
    expect(limiter.take('a')).toBeNull();
    // Another device warns on its own.
    expect(limiter.take('b')).toBe(0);
    clock += WARN_INTERVAL_MS - 1;
    expect(limiter.take('a')).toBeNull();
    clock += 1;
    expect(limiter.take('a')).toBe(3);
    expect(limiter.take('a')).toBeNull();
  });
});
