import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Baseline,
  evaluate,
  forecastDate,
  INTERVAL_RULES_OFF,
  type IntervalRule,
  OVERDUE_MASK,
} from './status.js';
import { addCalendar, startOfDay } from './timezone.js';

const utc = (iso: string) => Date.parse(`${iso}Z`) / 1000;
const DAY = 86400;
const OFF: IntervalRule = INTERVAL_RULES_OFF;
const T0 = utc('2026-03-01T00:00:00');
const base: Baseline = { lcnm: 1000, lceh: 100, ltm: T0 };
const unit = (mileage: number, engineHours = 100) => ({ mileage, engineHours });
const noCounters = { mileage: null, engineHours: null };

describe('evaluate by mileage', () => {
  const rule = { ...OFF, cnme: 1, cnmd: 10000, cnmo: 500 };
  it('is quiet before the advance notice', () => {
    const e = evaluate(rule, base, unit(10499), T0, 0);
    expect(e.remaining.mileage).toBe(501);
    expect(e.notice).toEqual([]);
    expect(e.plannedDate).toBeNull();
  });
  it('is due at the notice, planned today', () => {
    const e = evaluate(rule, base, unit(10500), T0 + 5 * DAY + 3600, 0);
    expect(e.notice).toEqual(['mileage']);
    expect(e.overdueFlags).toBe(0);
    expect(e.plannedDate).toBe(T0 + 5 * DAY);
  });
  it('is not overdue exactly at the threshold (strict), overdue past it', () => {
    expect(evaluate(rule, base, unit(11000), T0, 0).overdueFlags).toBe(0);
    expect(evaluate(rule, base, unit(11000.5), T0, 0).overdueFlags).toBe(4 | 256);
  });
  it('with notice 0 is due only at the threshold', () => {
    const r = { ...rule, cnmo: 0 };
    expect(evaluate(r, base, unit(10999.9), T0, 0).notice).toEqual([]);
    expect(evaluate(r, base, unit(11000), T0, 0).notice).toEqual(['mileage']);
  });
  it('ignores counters of objects that have none', () => {
    expect(evaluate(rule, base, noCounters, T0, 0).remaining.mileage).toBeNull();
  });
});

describe('evaluate by engine hours', () => {
  const rule = { ...OFF, cnehe: 1, cnehd: 250, cneho: 10 };
  it('is due at the notice and overdue past the frequency', () => {
    expect(evaluate(rule, base, unit(0, 339.9), T0, 0).notice).toEqual([]);
    expect(evaluate(rule, base, unit(0, 340), T0, 0).notice).toEqual(['engineHours']);
    expect(evaluate(rule, base, unit(0, 350.5), T0, 0).overdueFlags).toBe(4 | 512);
  });
});

describe('evaluate by time', () => {
  const rule = { ...OFF, de: 1, dd: 1, du: 'm', do: 7 };
  it('counts days to the due date, planned on the due date', () => {
    const due = utc('2026-04-01T00:00:00');
    const e = evaluate(rule, base, noCounters, utc('2026-03-24T12:00:00'), 0);
    expect(e.dueDate).toBe(due);
    expect(e.remaining.days).toBe(8);
    expect(e.notice).toEqual([]);
    const d = evaluate(rule, base, noCounters, utc('2026-03-25T00:00:00'), 0);
    expect(d.notice).toEqual(['days']);
    expect(d.plannedDate).toBe(due);
  });
  it('is overdue only the day after the due date', () => {
    expect(evaluate(rule, base, noCounters, utc('2026-04-01T23:59:59'), 0).overdueFlags).toBe(0);
    expect(evaluate(rule, base, noCounters, utc('2026-04-02T00:00:00'), 0).overdueFlags).toBe(4 | 1024);
  });
  it('uses the fleet zone for the day boundary', () => {
    const plus3 = 180;
    // 2026-04-01 21:00 UTC is already April 2 at UTC+3.
    expect(evaluate(rule, base, noCounters, utc('2026-04-01T21:00:00'), plus3).overdueFlags).toBe(4 | 1024);
    expect(evaluate(rule, base, noCounters, utc('2026-04-01T21:00:00'), 0).overdueFlags).toBe(0);
  });
  it('weeks, years and days units', () => {
    expect(evaluate({ ...rule, dd: 2, du: 'w' }, base, noCounters, T0, 0).dueDate).toBe(T0 + 14 * DAY);
    expect(evaluate({ ...rule, dd: 1, du: 'y' }, base, noCounters, T0, 0).dueDate).toBe(
      utc('2027-03-01T00:00:00'),
    );
    expect(evaluate({ ...rule, dd: 30, du: 'd' }, base, noCounters, T0, 0).dueDate).toBe(T0 + 30 * DAY);
  });
});

describe('several kinds', () => {
  it('the first reached wins the planned date and flags name every passed kind', () => {
    const rule = { ...OFF, cnme: 1, cnmd: 1000, cnmo: 0, de: 1, dd: 10, du: 'd', do: 5 };
    const at = T0 + 6 * DAY;
    const onlyTime = evaluate(rule, base, unit(1500), at, 0);
    expect(onlyTime.notice).toEqual(['days']);
    expect(onlyTime.plannedDate).toBe(T0 + 10 * DAY);
    const both = evaluate(rule, base, unit(2001), T0 + 11 * DAY, 0);
    expect(both.plannedDate).toBe(T0 + 10 * DAY);
    expect(both.overdueFlags).toBe(4 | 256 | 1024);
  });
});

describe('forecastDate', () => {
  it('adds the days the remaining distance takes, rounded up', () => {
    expect(forecastDate(250, 100, T0)).toBe(T0 + 3 * DAY);
    expect(forecastDate(0, 100, T0)).toBe(T0);
    expect(forecastDate(-5, 100, T0)).toBe(T0);
    expect(forecastDate(100, null, T0)).toBeNull();
    expect(forecastDate(100, 0, T0)).toBeNull();
    expect(forecastDate(null, 10, T0)).toBeNull();
  });
});

describe('properties', () => {
  const rules = fc.record({
    cnme: fc.constantFrom(0, 1),
    cnmd: fc.integer({ min: 1, max: 50000 }),
    cnmo: fc.integer({ min: 0, max: 5000 }),
    cnehe: fc.constantFrom(0, 1),
    cnehd: fc.integer({ min: 1, max: 2000 }),
    cneho: fc.integer({ min: 0, max: 200 }),
    de: fc.constantFrom(0, 1),
    dd: fc.integer({ min: 1, max: 999 }),
    du: fc.constantFrom('d', 'w', 'm', 'y'),
    do: fc.integer({ min: 0, max: 60 }),
  });
  const zones = fc.integer({ min: -720, max: 840 }).map((m) => (m & 0xffff) | (m % 2 ? 0x08000000 : 0));
  const input = fc.record({
    rule: rules,
    lcnm: fc.integer({ min: 0, max: 500000 }),
    lceh: fc.integer({ min: 0, max: 20000 }),
    ltm: fc.integer({ min: utc('2020-01-01T00:00:00'), max: utc('2030-01-01T00:00:00') }),
    driven: fc.integer({ min: 0, max: 100000 }),
    hours: fc.integer({ min: 0, max: 5000 }),
    elapsed: fc.integer({ min: 0, max: 4000 * DAY }),
    tz: zones,
  });

  it('overdue (strict: counter > baseline + frequency, today after the due date) implies due', () => {
    fc.assert(
      fc.property(input, (x) => {
        const b = { lcnm: x.lcnm, lceh: x.lceh, ltm: x.ltm };
        const c = { mileage: x.lcnm + x.driven, engineHours: x.lceh + x.hours };
        const at = x.ltm + x.elapsed;
        const e = evaluate(x.rule, b, c, at, x.tz);
        for (const kind of e.overdue) expect(e.notice).toContain(kind);
        expect((e.overdueFlags & 256) !== 0).toBe(x.rule.cnme === 1 && x.driven > x.rule.cnmd);
        expect((e.overdueFlags & 512) !== 0).toBe(x.rule.cnehe === 1 && x.hours > x.rule.cnehd);
        const due = x.rule.de
          ? startOfDay(x.tz, addCalendar(x.tz, x.ltm, x.rule.dd, x.rule.du as 'd'))
          : null;
        expect((e.overdueFlags & 1024) !== 0).toBe(due !== null && startOfDay(x.tz, at) > due);
        expect(e.overdueFlags === 0 || (e.overdueFlags & 4) !== 0).toBe(true);
        expect(e.overdueFlags & ~OVERDUE_MASK).toBe(0);
        expect(e.plannedDate === null).toBe(e.notice.length === 0);
      }),
    );
  });

  it('due and overdue only grow as counters and time move forward', () => {
    fc.assert(
      fc.property(input, fc.nat(5000), fc.nat(500), fc.nat(100 * DAY), (x, dm, dh, dt) => {
        const b = { lcnm: x.lcnm, lceh: x.lceh, ltm: x.ltm };
        const at = x.ltm + x.elapsed;
        const a = evaluate(
          x.rule,
          b,
          { mileage: x.lcnm + x.driven, engineHours: x.lceh + x.hours },
          at,
          x.tz,
        );
        const later = evaluate(
          x.rule,
          b,
          { mileage: x.lcnm + x.driven + dm, engineHours: x.lceh + x.hours + dh },
          at + dt,
          x.tz,
        );
        for (const k of a.notice) expect(later.notice).toContain(k);
        expect(later.overdueFlags & a.overdueFlags).toBe(a.overdueFlags);
      }),
    );
  });
});
