import { describe, expect, it } from 'vitest';
import { INTERVAL_RULES_OFF } from '../status.js';
import {
  type IntervalRules,
  intervalCreateBody,
  intervalRuleIssues,
  intervalUpdateBody,
} from './intervals.js';

const off: IntervalRules = INTERVAL_RULES_OFF;
const fieldsOf = (v: Partial<IntervalRules>) =>
  intervalRuleIssues({ ...off, ...v }, 'body').map((i) => i.field);

describe('interval threshold rules (PRODUCT.md "Intervals")', () => {
  it('needs at least one kind enabled', () => {
    expect(fieldsOf({})).toEqual(['body.cnme']);
    expect(fieldsOf({ cnmd: 100, dd: 3 })).toEqual(['body.cnme']);
    expect(fieldsOf({ cnme: 1, cnmd: 100 })).toEqual([]);
    expect(fieldsOf({ cnehe: 1, cnehd: 100 })).toEqual([]);
    expect(fieldsOf({ de: 1, dd: 1 })).toEqual([]);
  });

  it('needs positive frequencies only for enabled kinds', () => {
    expect(fieldsOf({ cnme: 1, cnmd: 0, cnehe: 1, cnehd: 0, de: 1, dd: 0 })).toEqual([
      'body.cnmd',
      'body.cnehd',
      'body.dd',
    ]);
    expect(fieldsOf({ cnme: 1, cnmd: 10, cnehd: 0, cneho: 50 })).toEqual([]);
  });

  it('keeps counter advance notices below the frequency, 0 allowed', () => {
    expect(fieldsOf({ cnme: 1, cnmd: 100, cnmo: 99 })).toEqual([]);
    expect(fieldsOf({ cnme: 1, cnmd: 100, cnmo: 100 })).toEqual(['body.cnmo']);
    expect(fieldsOf({ cnehe: 1, cnehd: 100, cneho: 0 })).toEqual([]);
    expect(fieldsOf({ cnehe: 1, cnehd: 100, cneho: 101 })).toEqual(['body.cneho']);
  });

  it('compares the time notice in days against the frequency in days (week 7, month 30, year 365)', () => {
    expect(fieldsOf({ de: 1, dd: 10, du: 'd', do: 9 })).toEqual([]);
    expect(fieldsOf({ de: 1, dd: 10, du: 'd', do: 10 })).toEqual(['body.do']);
    expect(fieldsOf({ de: 1, dd: 2, du: 'w', do: 13 })).toEqual([]);
    expect(fieldsOf({ de: 1, dd: 2, du: 'w', do: 14 })).toEqual(['body.do']);
    expect(fieldsOf({ de: 1, dd: 1, du: 'm', do: 29 })).toEqual([]);
    expect(fieldsOf({ de: 1, dd: 1, du: 'm', do: 30 })).toEqual(['body.do']);
    expect(fieldsOf({ de: 1, dd: 1, du: 'y', do: 364 })).toEqual([]);
    expect(fieldsOf({ de: 1, dd: 1, du: 'y', do: 365 })).toEqual(['body.do']);
  });

  it('prefixes fields for batch rows', () => {
    expect(intervalRuleIssues(off, 'body.intervals.3')[0]?.field).toBe('body.intervals.3.cnme');
  });
});

describe('interval request contracts', () => {
  const record = {
    id: 7,
    n: 'Oil',
    description: '',
    cnme: 1,
    cnmd: 10000,
    cnmo: 500,
    cnehe: 0,
    cnehd: 0,
    cneho: 0,
    de: 0,
    dd: 0,
    du: 'd',
    do: 0,
    u: [{ id: 3, t: 'u', lcnm: 1200.5, lceh: 10, ltm: 1700000000, cnt: 2 }],
    li: [{ n: 'Filter', t: 2, q: 1, c: 9.5 }],
    c: 4,
    tm: 1700000000,
  };

  it('takes an interval as read for an update and drops its read-only fields', () => {
    const parsed = intervalUpdateBody.parse(record);
    expect(parsed).not.toHaveProperty('id');
    expect(parsed).not.toHaveProperty('c');
    expect(parsed).not.toHaveProperty('tm');
    expect(parsed).toMatchObject({ n: 'Oil', cnmd: 10000, u: record.u, li: record.li });
  });

  it('limits the time frequency to three digits and names the units', () => {
    expect(intervalCreateBody.safeParse({ n: 'x', dd: 999 }).success).toBe(true);
    const big = intervalCreateBody.safeParse({ n: 'x', dd: 1000 });
    expect(big.error?.issues.map((i) => i.message)).toEqual(['Time frequency has at most three digits']);
    expect(intervalCreateBody.safeParse({ n: 'x', du: 'h' }).success).toBe(false);
  });
});
