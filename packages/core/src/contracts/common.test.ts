import { describe, expect, it } from 'vitest';
import { DECIMAL_MAX, decimal3 } from './common.js';

const issueOf = (schema: ReturnType<typeof decimal3>, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? null : { code: r.error.issues[0]?.code, message: r.error.issues[0]?.message };
};

describe('decimal3 (spec §5, §9: at most 3 decimals, up to DECIMAL_MAX)', () => {
  it('names each way to fail as its own issue kind, with the one message', () => {
    const cost = decimal3();
    const message = 'Must be a non-negative number with at most 3 decimals';
    expect(issueOf(cost, '12.345')).toBeNull();
    expect(issueOf(cost, '1.2345')).toEqual({ code: 'custom', message });
    expect(issueOf(cost, 'abc')).toEqual({ code: 'custom', message });
    expect(issueOf(cost, -1)).toEqual({ code: 'too_small', message });
    expect(issueOf(cost, DECIMAL_MAX)).toBeNull();
    expect(issueOf(cost, `${DECIMAL_MAX}.001`)).toEqual({ code: 'too_big', message });
  });

  it('refuses 0 when positive, as below its least value', () => {
    const quantity = decimal3({ positive: true });
    expect(issueOf(quantity, '0')).toEqual({
      code: 'too_small',
      message: 'Must be a positive number with at most 3 decimals',
    });
    expect(issueOf(quantity, '0.001')).toBeNull();
    expect(issueOf(decimal3(), 0)).toBeNull();
  });
});
