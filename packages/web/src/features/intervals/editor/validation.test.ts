import {
  DECIMAL_MAX,
  INTERVAL_TIME_FREQUENCY_MAX,
  INTERVAL_TIME_UNITS,
  type IntervalTimeUnit,
  intervalRuleIssues,
  LINE_ITEMS_MAX,
} from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { emptyForm, formToBody, type IntervalForm, type KindForm, MAX_DIGITS } from './rules.ts';
import { validateForm } from './validation.ts';

/**
 * The editor's threshold checks are the core contract's (`intervalRuleIssues`, the rule the server
 * applies) and its limits: a form the editor lets through is one the server's rule accepts, and the
 * other way round.
 */

const NOW = Date.UTC(2026, 2, 15, 12) / 1000;
const ctx = (miles: boolean) => ({ miles, tz: 0, otherNames: [], now: NOW });
const THRESHOLD_FIELDS = [
  'kinds',
  'mileage.every',
  'mileage.notice',
  'engineHours.every',
  'engineHours.notice',
  'time.every',
  'time.notice',
];

function form(mileage: KindForm, engineHours: KindForm, time: KindForm & { unit: IntervalTimeUnit }) {
  return { ...emptyForm(), name: 'Check', mileage, engineHours, time } satisfies IntervalForm;
}

/** Every combination of on/off, frequency and notice over a few values, for both distance units. */
function* forms(): Generator<[IntervalForm, boolean]> {
  const kinds = (values: readonly [string, string][]) => [
    { on: false, every: '10', notice: '1' },
    ...values.map(([every, notice]) => ({ on: true, every, notice })),
  ];
  const counter = kinds([
    ['0', ''],
    ['1', '0'],
    ['100', '99'],
    ['100', '100'],
    ['100', '101'],
  ]);
  const time = kinds([
    ['0', ''],
    ['2', '13'],
    ['2', '14'],
    ['1', '29'],
    ['1', '30'],
  ]);
  for (const miles of [false, true])
    for (const m of counter)
      for (const h of counter)
        for (const t of time)
          for (const unit of INTERVAL_TIME_UNITS) yield [form(m, h, { ...t, unit }), miles];
}

describe('interval editor checks (core intervalRuleIssues)', () => {
  it('refuses exactly the thresholds the core rule refuses, in km and in miles', () => {
    let checked = 0;
    for (const [f, miles] of forms()) {
      const errors = validateForm(f, ctx(miles));
      const editor = THRESHOLD_FIELDS.filter((k) => errors[k] !== undefined);
      const body = formToBody(f, null, { miles, tz: 0 });
      const core = intervalRuleIssues(body, 'body');
      expect(editor.length > 0, JSON.stringify({ form: f, miles, editor, core })).toBe(core.length > 0);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('shows each core issue on its field with the editor message', () => {
    const off = { on: false, every: '', notice: '' };
    expect(validateForm(form(off, off, { ...off, unit: 'd' }), ctx(false)).kinds).toEqual({
      key: 'intervalEditor.errors.kindRequired',
    });
    const notice = validateForm(
      form({ on: true, every: '100', notice: '100' }, off, { on: true, every: '1', notice: '7', unit: 'w' }),
      ctx(false),
    );
    expect(notice['mileage.notice']).toEqual({ key: 'intervalEditor.errors.noticeTooBig' });
    expect(notice['time.notice']).toEqual({ key: 'intervalEditor.errors.noticeTooBig' });
    const zero = validateForm(
      form(off, { on: true, every: '0', notice: '' }, { on: true, every: '0', notice: '', unit: 'd' }),
      ctx(false),
    );
    expect(zero['engineHours.every']).toEqual({ key: 'intervalEditor.errors.positive' });
    expect(zero['time.every']).toEqual({ key: 'intervalEditor.errors.timeFrequency' });
  });

  it('keeps a notice that is not a number on its own message, not the rule', () => {
    const off = { on: false, every: '', notice: '' };
    const errors = validateForm(
      form({ on: true, every: '100', notice: 'x' }, off, { ...off, unit: 'd' }),
      ctx(false),
    );
    expect(errors['mileage.notice']).toEqual({ key: 'intervalEditor.errors.notice' });
  });
});

describe('interval editor limits (core contract)', () => {
  const off = { on: false, every: '', notice: '' };
  const timeForm = (every: string) => form(off, off, { on: true, every, notice: '', unit: 'd' });

  it('takes time frequencies up to INTERVAL_TIME_FREQUENCY_MAX, typed in as many digits', () => {
    expect(
      validateForm(timeForm(String(INTERVAL_TIME_FREQUENCY_MAX)), ctx(false))['time.every'],
    ).toBeUndefined();
    expect(validateForm(timeForm(String(INTERVAL_TIME_FREQUENCY_MAX + 1)), ctx(false))['time.every']).toEqual(
      {
        key: 'intervalEditor.errors.timeFrequency',
      },
    );
    expect(MAX_DIGITS.timeFrequency).toBe(String(INTERVAL_TIME_FREQUENCY_MAX).length);
  });

  it('takes line quantities and costs up to DECIMAL_MAX and at most LINE_ITEMS_MAX lines', () => {
    const base = timeForm('1');
    const line = (q: string, c: string) => ({ n: 'Oil', t: 2 as const, q, c });
    const max = String(DECIMAL_MAX);
    const above = String(DECIMAL_MAX + 0.001);
    expect(validateForm({ ...base, lines: [line(max, max)] }, ctx(false))).toEqual({});
    const errors = validateForm({ ...base, lines: [line(above, above)] }, ctx(false));
    expect(errors['li.0.q']).toEqual({ key: 'intervalEditor.errors.quantity' });
    expect(errors['li.0.c']).toEqual({ key: 'intervalEditor.errors.cost' });
    const many = Array.from({ length: LINE_ITEMS_MAX + 1 }, () => line('1', '1'));
    expect(validateForm({ ...base, lines: many }, ctx(false)).lines).toEqual({
      key: 'intervalEditor.errors.tooManyLines',
      values: { max: LINE_ITEMS_MAX },
    });
  });
});
