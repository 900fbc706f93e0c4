import { startOfDay, TZ_DST_EUROPE } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { CounterDays } from './counter-days.js';
import { DEMO_HISTORY_DAYS, demoCounterHistory } from './demo-history.js';
import { costPerKm, driven, parsePeriod } from './rules.js';

const utc = (text: string) => Date.parse(text) / 1000;
/** Central European time with the European daylight-saving rule (spec §5 "Time zone"). */
const CET = 60 | TZ_DST_EUROPE;

describe('parsePeriod', () => {
  it('reads whole fleet days, both ends, from YYYY-MM-DD or Unix seconds', () => {
    expect(parsePeriod(180, '2025-03-01', '2025-03-31')).toEqual({
      first: utc('2025-02-28T21:00:00Z'),
      last: utc('2025-03-30T21:00:00Z'),
    });
    expect(parsePeriod(180, String(utc('2025-03-01T22:30:00Z')), '2025-03-02')).toEqual({
      first: utc('2025-03-01T21:00:00Z'),
      last: utc('2025-03-01T21:00:00Z'),
    });
  });

  it('lists every bad field, refuses an inverted or longer than 366-day range', () => {
    expect(parsePeriod(0, '2025-02-30', 'soon')).toEqual([
      { field: 'querystring.from', message: 'Expected Unix seconds or YYYY-MM-DD' },
      { field: 'querystring.to', message: 'Expected Unix seconds or YYYY-MM-DD' },
    ]);
    expect(parsePeriod(0, '2025-03-02', '2025-03-01')).toEqual([
      { field: 'querystring.to', message: 'Must not be before from' },
    ]);
    expect(parsePeriod(0, '2024-01-01', '2025-01-01')).toEqual({
      first: utc('2024-01-01T00:00:00Z'),
      last: utc('2025-01-01T00:00:00Z'),
    });
    expect(parsePeriod(0, '2024-01-01', '2025-01-02')).toEqual([
      { field: 'querystring.to', message: 'The range spans at most 366 days' },
    ]);
  });
});

describe('driven and costPerKm', () => {
  it('is end − base, 0 without records, never negative', () => {
    expect(driven(100, 180)).toBe(80);
    expect(driven(null, null)).toBe(0);
    expect(driven(200, 100)).toBe(0);
  });

  it('divides costs in thousandths by km to 3 decimals; null without distance', () => {
    expect(costPerKm(180_520, 150)).toBe(1.203);
    expect(costPerKm(60_020, 80)).toBe(0.75);
    expect(costPerKm(0, 80)).toBe(0);
    expect(costPerKm(1_000_000, 0)).toBeNull();
  });
});

describe('CounterDays', () => {
  const c = (mileage: number, engineHours = mileage / 10) => ({ mileage, engineHours });
  const day = (text: string) => utc(text);

  it('writes nothing for readings on the unit’s current fleet day', () => {
    const days = new CounterDays();
    const unit = {
      id: 1,
      fleetId: null,
      counterDay: day('2025-02-28T21:00:00Z') as number | null,
      counterDayEnd: null as number | null,
      offset: c(0),
    };
    const unitTz = 180; // March 1 at UTC+3
    days.add(unit, unitTz, utc('2025-03-01T10:00:00Z'), c(10), c(12));
    days.add(unit, unitTz, utc('2025-03-01T20:59:00Z'), c(12), c(15)); // 23:59 local
    expect(days.list()).toEqual([]);
    expect(unit.counterDay).toBe(day('2025-02-28T21:00:00Z'));
  });

  it('finishes the day and opens the next at the first reading after fleet midnight', () => {
    const days = new CounterDays();
    const unit = {
      id: 1,
      fleetId: null,
      counterDay: day('2025-02-28T21:00:00Z') as number | null,
      counterDayEnd: null as number | null,
      offset: c(0),
    };
    const unitTz = 180;
    days.add(unit, unitTz, utc('2025-03-01T21:01:00Z'), c(15), c(16)); // 00:01 local, March 2
    days.add(unit, unitTz, utc('2025-03-02T12:00:00Z'), c(16), c(40));
    days.add(unit, unitTz, utc('2025-03-04T08:00:00Z'), c(40), c(41)); // March 4, after a silent day
    expect(days.list()).toEqual([
      {
        unit_id: 1,
        day: day('2025-02-28T21:00:00Z'),
        first_mileage: 15,
        last_mileage: 15,
        first_engine_hours: 1.5,
        last_engine_hours: 1.5,
      },
      // Opened at 00:01 and finished in the same batch: first of the day, last before March 4.
      {
        unit_id: 1,
        day: day('2025-03-01T21:00:00Z'),
        first_mileage: 16,
        last_mileage: 40,
        first_engine_hours: 1.6,
        last_engine_hours: 4,
      },
      {
        unit_id: 1,
        day: day('2025-03-03T21:00:00Z'),
        first_mileage: 41,
        last_mileage: 41,
        first_engine_hours: 4.1,
        last_engine_hours: 4.1,
      },
    ]);
    expect(unit.counterDay).toBe(day('2025-03-03T21:00:00Z'));
  });

  it('opens the first day of a unit without history, and ignores readings of days before its latest', () => {
    const days = new CounterDays();
    const fresh = {
      id: 2,
      fleetId: null,
      counterDay: null as number | null,
      counterDayEnd: null as number | null,
      offset: c(0),
    };
    const freshTz = 0;
    days.add(fresh, freshTz, utc('2025-03-01T10:00:00Z'), c(0), c(500));
    const corrected = {
      id: 3,
      fleetId: null,
      counterDay: day('2025-03-02T00:00:00Z') as number | null,
      counterDayEnd: null as number | null,
      offset: c(0),
    };
    const correctedTz = 0;
    days.add(corrected, correctedTz, utc('2025-03-01T23:00:00Z'), c(7), c(8));
    expect(days.list().map((r) => [r.unit_id, r.day, r.first_mileage])).toEqual([
      [2, day('2025-03-01T00:00:00Z'), 500],
    ]);
  });

  it('stores counters less the unit’s hand corrections', () => {
    const days = new CounterDays();
    const unit = {
      id: 4,
      fleetId: null,
      counterDay: day('2025-03-01T00:00:00Z') as number | null,
      counterDayEnd: null as number | null,
      offset: c(1000, 90),
    };
    const unitTz = 0;
    days.add(unit, unitTz, utc('2025-03-02T08:00:00Z'), c(6300, 400), c(6320, 401));
    expect(days.list()).toEqual([
      {
        unit_id: 4,
        day: day('2025-03-01T00:00:00Z'),
        first_mileage: 5300,
        last_mileage: 5300,
        first_engine_hours: 310,
        last_engine_hours: 310,
      },
      {
        unit_id: 4,
        day: day('2025-03-02T00:00:00Z'),
        first_mileage: 5320,
        last_mileage: 5320,
        first_engine_hours: 311,
        last_engine_hours: 311,
      },
    ]);
  });

  it('follows daylight-saving days of 23 and 25 hours', () => {
    const days = new CounterDays();
    const unit = {
      id: 7,
      fleetId: null,
      counterDay: null as number | null,
      counterDayEnd: null as number | null,
      offset: c(0),
    };
    const unitTz = CET;
    // 2025-03-30 is 23 hours long in CET/CEST, 2025-10-26 25 hours.
    const times = [
      '2025-03-29T23:30:00Z', // 00:30 CET, March 30
      '2025-03-30T21:30:00Z', // 23:30 CEST, March 30
      '2025-03-30T22:30:00Z', // 00:30 CEST, March 31
      '2025-10-25T22:30:00Z', // 00:30 CEST, October 26
      '2025-10-26T22:30:00Z', // 23:30 CET, October 26
      '2025-10-26T23:30:00Z', // 00:30 CET, October 27
    ].map(utc);
    times.forEach((t, i) => {
      days.add(unit, unitTz, t, c(i - 1), c(i));
    });
    expect(days.list().map((r) => [r.day, r.first_mileage, r.last_mileage])).toEqual([
      [utc('2025-03-29T23:00:00Z'), 0, 1],
      [utc('2025-03-30T22:00:00Z'), 2, 2],
      [utc('2025-10-25T22:00:00Z'), 3, 4],
      [utc('2025-10-26T23:00:00Z'), 5, 5],
    ]);
    for (const t of times) expect(days.list().some((r) => r.day === startOfDay(CET, t))).toBe(true);
  });
});

describe('demoCounterHistory', () => {
  it('builds continuous daily rows ending today at the current counters', () => {
    const at = utc('2025-06-15T09:00:00Z');
    const rows = demoCounterHistory(
      [
        { id: 1, mileage: 412_300, engineHours: 9_870 },
        { id: 2, mileage: 0, engineHours: 11_340 },
      ],
      180,
      at,
    );
    expect(rows).toHaveLength(2 * DEMO_HISTORY_DAYS);
    const truck = rows.filter((r) => r.unit_id === 1);
    expect(truck.at(-1)).toMatchObject({
      day: startOfDay(180, at),
      first_mileage: 412_300,
      last_mileage: 412_300,
      last_engine_hours: 9_870,
    });
    for (let i = 1; i < truck.length; i++) {
      const [prev, row] = [truck[i - 1]!, truck[i]!];
      expect(row.day - prev.day).toBe(86_400);
      expect(row.first_mileage).toBeCloseTo(prev.last_mileage, 6);
      expect(row.last_mileage).toBeGreaterThanOrEqual(row.first_mileage);
      expect(row.last_mileage - row.first_mileage).toBeLessThan(3000);
    }
    const km = truck.at(-1)!.last_mileage - truck[0]!.first_mileage;
    // About 280 km a working day for a truck that did 412,300 km in four years.
    expect(km).toBeGreaterThan(10_000);
    expect(km).toBeLessThan(40_000);
    expect(rows.filter((r) => r.unit_id === 2).every((r) => r.last_mileage === 0)).toBe(true);
  });
});
