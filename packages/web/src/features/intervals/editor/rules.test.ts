import type { IntervalWire } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api.ts';
import { refusalView } from '../../../lib/editorForm.ts';
import { libraryMatch, lineFromLibrary, lineLibrary, linesTotal, lineTotal } from './lines.ts';
import { remainingLabel, remainingOf } from './remaining.ts';
import {
  type AssignmentForm,
  assignmentBody,
  assignRefsOf,
  dayStart,
  dayText,
  emptyForm,
  formFromWire,
  formToBody,
  type IntervalForm,
  LINE_KIND,
  newAssignment,
} from './rules.ts';
import { intervalFieldOf, rewordRefusal, tabOfField, validateForm } from './validation.ts';

const KM = { miles: false, tz: 0 };
const MILES = { miles: true, tz: 0 };
/** 2026-03-15 12:00 UTC. */
const NOW = Date.UTC(2026, 2, 15, 12) / 1000;
const day = (text: string) => dayStart(text, 0) as number;

function wire(patch: Partial<IntervalWire> = {}): IntervalWire {
  return {
    id: 7,
    n: 'Oil change',
    description: 'Engine oil',
    cnme: 1,
    cnmd: 15000,
    cnmo: 1000,
    cnehe: 0,
    cnehd: 0,
    cneho: 0,
    de: 1,
    dd: 1,
    du: 'y',
    do: 30,
    u: [{ id: 3, t: 'u', lcnm: 120000.5, lceh: 800.25, ltm: day('2026-01-10'), cnt: 2 }],
    li: [{ n: 'Oil filter', t: 2, q: 1, c: 12.5 }],
    c: 1,
    tm: 100,
    ...patch,
  };
}

function form(patch: Partial<IntervalForm> = {}): IntervalForm {
  return {
    ...emptyForm(),
    name: 'Tyres',
    mileage: { on: true, every: '10000', notice: '500' },
    ...patch,
  };
}

const ctx = { ...KM, otherNames: ['Oil change'], now: NOW };

describe('form from the wire', () => {
  it('shows km as stored and miles rounded to whole miles', () => {
    const km = formFromWire(wire(), KM);
    expect(km.mileage).toEqual({ on: true, every: '15000', notice: '1000' });
    expect(km.time).toEqual({ on: true, every: '1', notice: '30', unit: 'y' });
    expect(km.engineHours.on).toBe(false);
    const mi = formFromWire(wire(), MILES);
    expect(mi.mileage).toEqual({ on: true, every: '9321', notice: '621' });
  });

  it('shows baselines in the fleet units with the date in the fleet zone', () => {
    const [a] = formFromWire(wire(), KM).assignments;
    expect(a).toMatchObject({ lcnm: '120000.5', lceh: '800.25', ltm: '2026-01-10', cnt: '2', isNew: false });
    const [m] = formFromWire(wire(), MILES).assignments;
    expect(m?.lcnm).toBe('74564.854');
    // UTC+3: the stored start of day is still that local day.
    const tz = 180;
    const start = dayStart('2026-01-10', tz) as number;
    expect(start).toBe(Date.UTC(2026, 0, 9, 21) / 1000);
    expect(dayText(start, tz)).toBe('2026-01-10');
  });

  it('maps line items with their kind', () => {
    expect(formFromWire(wire(), KM).lines).toEqual([{ n: 'Oil filter', t: 2, q: '1', c: '12.5' }]);
  });
});

describe('form to the wire', () => {
  it('converts miles to whole km, and keeps the stored km when the miles text is untouched', () => {
    const stored = wire({ cnmd: 8000 });
    const f = formFromWire(stored, MILES);
    expect(f.mileage.every).toBe('4971');
    expect(formToBody(f, stored, MILES).cnmd).toBe(8000);
    f.mileage.every = '5000';
    expect(formToBody(f, stored, MILES).cnmd).toBe(8047);
    expect(formToBody(form({ mileage: { on: true, every: '100', notice: '' } }), null, MILES)).toMatchObject({
      cnme: 1,
      cnmd: 161,
      cnmo: 0,
    });
  });

  it('sends every threshold, blank numbers as 0, flags as 0/1', () => {
    const body = formToBody(
      form({ description: 'x', time: { on: false, every: '', notice: '', unit: 'w' } }),
      null,
      KM,
    );
    expect(body).toEqual({
      n: 'Tyres',
      description: 'x',
      cnme: 1,
      cnmd: 10000,
      cnmo: 500,
      cnehe: 0,
      cnehd: 0,
      cneho: 0,
      de: 0,
      dd: 0,
      du: 'w',
      do: 0,
      u: [],
      li: [],
    });
  });

  it('sends only the baseline fields the user changed', () => {
    const a = newAssignment({ id: 5, t: 'u' }, { mileage: 1000.4, engineHours: 10 }, KM, NOW);
    expect(a).toMatchObject({ lcnm: '1000.4', lceh: '10', ltm: '2026-03-15', cnt: '0' });
    expect(assignmentBody(a, KM)).toEqual({ id: 5, t: 'u' });
    const edited: AssignmentForm = { ...a, lcnm: '900', ltm: '2026-03-01', cnt: '3' };
    expect(assignmentBody(edited, KM)).toEqual({ id: 5, t: 'u', lcnm: 900, ltm: day('2026-03-01'), cnt: 3 });
    expect(assignmentBody({ ...a, lcnm: '100' }, MILES).lcnm).toBe(160.934);
  });

  it('sends line decimals exactly, trimmed names', () => {
    const body = formToBody(form({ lines: [{ n: ' Oil ', t: 2, q: '1.5', c: '' }] }), null, KM);
    expect(body.li).toEqual([{ n: 'Oil', t: 2, q: 1.5, c: 0 }]);
  });
});

describe('validation (mirrors the server)', () => {
  it('accepts a complete form', () => {
    expect(validateForm(form(), ctx)).toEqual({});
  });

  it('needs a unique name of at most 128 characters and a description of at most 512', () => {
    expect(validateForm(form({ name: '  ' }), ctx).name).toEqual({ key: 'intervalEditor.errors.required' });
    expect(validateForm(form({ name: 'x'.repeat(129) }), ctx).name).toMatchObject({
      key: 'intervalEditor.errors.tooLong',
    });
    expect(validateForm(form({ name: 'OIL CHANGE' }), ctx).name).toEqual({
      key: 'intervalEditor.errors.duplicate',
    });
    expect(validateForm(form({ description: 'x'.repeat(513) }), ctx).description).toBeDefined();
  });

  it('needs at least one kind, positive frequencies and notices below them', () => {
    expect(validateForm(form({ mileage: { on: false, every: '', notice: '' } }), ctx).kinds).toBeDefined();
    expect(
      validateForm(form({ mileage: { on: true, every: '0', notice: '' } }), ctx)['mileage.every'],
    ).toBeDefined();
    expect(
      validateForm(form({ mileage: { on: true, every: '', notice: '' } }), ctx)['mileage.every'],
    ).toBeDefined();
    expect(
      validateForm(form({ mileage: { on: true, every: '100', notice: '100' } }), ctx)['mileage.notice'],
    ).toEqual({ key: 'intervalEditor.errors.noticeTooBig' });
    // A disabled kind is not checked.
    expect(validateForm(form({ engineHours: { on: false, every: '0', notice: '9' } }), ctx)).toEqual({});
  });

  it('limits time frequencies to three digits and the notice in days to the period', () => {
    const time = (every: string, notice: string, unit: 'd' | 'w' | 'm' | 'y' = 'w') =>
      validateForm(form({ time: { on: true, every, notice, unit } }), ctx);
    expect(time('1000', '')['time.every']).toBeDefined();
    expect(time('999', '')['time.every']).toBeUndefined();
    expect(time('2', '14')['time.notice']).toEqual({ key: 'intervalEditor.errors.noticeTooBig' });
    expect(time('2', '13')['time.notice']).toBeUndefined();
    expect(time('1', '364', 'y')['time.notice']).toBeUndefined();
  });

  it('checks baselines: numbers in range, a real date not after today, whole executions', () => {
    const a = newAssignment({ id: 1, t: 'u' }, { mileage: 0, engineHours: 0 }, KM, NOW);
    const errs = validateForm(
      form({
        assignments: [
          { ...a, lcnm: '', ltm: '2026-03-16', cnt: '1.5' },
          { ...a, id: 2, ltm: '2026-02-30' },
        ],
      }),
      ctx,
    );
    expect(errs['u.0.lcnm']).toEqual({ key: 'intervalEditor.errors.baseline' });
    expect(errs['u.0.ltm']).toEqual({ key: 'intervalEditor.errors.futureDate' });
    expect(errs['u.0.cnt']).toBeDefined();
    expect(errs['u.1.ltm']).toEqual({ key: 'intervalEditor.errors.date' });
    expect(
      validateForm(form({ assignments: [{ ...a, lcnm: '1000000001' }] }), ctx)['u.0.lcnm'],
    ).toBeDefined();
    expect(validateForm(form({ assignments: [a] }), ctx)).toEqual({});
  });

  it('checks line items: name, positive quantity, cost not negative', () => {
    const errs = validateForm(
      form({
        lines: [
          { n: '', t: 2, q: '0', c: '1' },
          { n: 'Labour', t: 1, q: '', c: '' },
          { n: 'Ok', t: 1, q: '0.001', c: '' },
        ],
      }),
      ctx,
    );
    expect(Object.keys(errs).sort()).toEqual(['li.0.n', 'li.0.q', 'li.1.q']);
  });

  it('knows the tab of every field', () => {
    expect(tabOfField('u.2.ltm')).toBe('units');
    expect(tabOfField('li.0.q')).toBe('lines');
    expect(tabOfField('time.notice')).toBe('general');
  });
});

describe('server errors on the fields', () => {
  const shown = (code: number, reason: string, details: unknown) => {
    const view = refusalView(new ApiError(code, reason, code === 10 ? 409 : 400, details), intervalFieldOf);
    return view && rewordRefusal(code, view, 'duplicate');
  };
  it('maps field details, the duplicate name (error 10) and unknown fields', () => {
    expect(
      shown(10, 'An interval with this name exists', [
        { field: 'body.n', message: 'An interval with this name exists' },
      ]),
    ).toEqual({ fields: { name: 'duplicate' }, failure: null });
    expect(
      shown(4, 'Invalid input', [
        { field: 'body.u.1.ltm', message: 'Last service date must not be later than today' },
        { field: 'body.u.0.id', message: 'No such object in this fleet' },
        { field: 'body.li.2.q', message: 'Must be a positive number' },
        { field: 'body.cnmo', message: 'Advance notice must be smaller than the frequency' },
        { field: 'body.zzz', message: 'odd' },
      ]),
    ).toEqual({
      fields: {
        'u.1.ltm': 'Last service date must not be later than today',
        'u.0.id': 'No such object in this fleet',
        'li.2.q': 'Must be a positive number',
        'mileage.notice': 'Advance notice must be smaller than the frequency',
      },
      failure: 'odd',
    });
    expect(shown(6, 'Internal error', undefined)).toEqual({ fields: {}, failure: 'Internal error' });
    expect(intervalFieldOf(['units', '3', 'cnt'])).toBe('u.3.cnt');
    expect(intervalFieldOf(['li'])).toBe('lines');
  });
});

describe('navigation state', () => {
  it('reads valid, distinct object references only', () => {
    expect(assignRefsOf(null)).toEqual([]);
    expect(assignRefsOf({ assign: 'x' })).toEqual([]);
    expect(
      assignRefsOf({
        assign: [
          { id: 1, t: 'u' },
          { id: 1, t: 'u' },
          { id: 1, t: 'd' },
          { id: '2', t: 'u' },
          { id: 3, t: 'x' },
          null,
        ],
      }),
    ).toEqual([
      { id: 1, t: 'u' },
      { id: 1, t: 'd' },
    ]);
  });
});

describe('remaining values (spec §9)', () => {
  const base = form({
    mileage: { on: true, every: '10000', notice: '' },
    engineHours: { on: true, every: '500', notice: '' },
    time: { on: true, every: '1', notice: '', unit: 'm' },
  });
  const a = newAssignment({ id: 1, t: 'u' }, { mileage: 50000, engineHours: 100 }, KM, NOW);

  it('is baseline + frequency − current per kind, days to the due date for time', () => {
    const r = remainingOf(base, { ...a, ltm: '2026-03-01' }, { mileage: 52500, engineHours: 700 }, KM, NOW);
    expect(r).toEqual({ mileage: 7500, engineHours: -100, days: 17 });
    expect(remainingLabel(r.mileage as number)).toEqual({ key: 'in', amount: 7500 });
    expect(remainingLabel(r.engineHours as number)).toEqual({ key: 'overdue', amount: 100 });
    expect(remainingLabel(0)).toEqual({ key: 'in', amount: 0 });
  });

  it('uses the stored km while the mileage text is untouched and converts to miles', () => {
    const miles = newAssignment({ id: 1, t: 'u' }, { mileage: 50000, engineHours: 0 }, MILES, NOW);
    const f = form({ mileage: { on: true, every: '1000', notice: '' } });
    const r = remainingOf(f, miles, { mileage: 50000, engineHours: 0 }, MILES, NOW);
    // 1000 mi → 1609 km → 999.786 mi (the wire keeps whole km).
    expect(r.mileage).toBe(999.786);
  });

  it('has no counter values for drivers and trailers and none for switched-off kinds', () => {
    const r = remainingOf(
      form({ time: { on: true, every: '2', notice: '', unit: 'w' } }),
      { ...a, t: 'd' },
      { mileage: null, engineHours: null },
      KM,
      NOW,
    );
    expect(r).toEqual({ mileage: null, engineHours: null, days: 14 });
    const off = remainingOf(
      form({ mileage: { on: false, every: '5', notice: '' } }),
      a,
      { mileage: 1, engineHours: 1 },
      KM,
      NOW,
    );
    expect(off).toEqual({ mileage: null, engineHours: null, days: null });
  });
});

describe('line items', () => {
  it('totals lines exactly in thousandths', () => {
    expect(lineTotal({ q: '3', c: '0.1' })).toBe(0.3);
    expect(lineTotal({ q: '1.5', c: '' })).toBe(0);
    expect(lineTotal({ q: '', c: '5' })).toBeNull();
    expect(lineTotal({ q: '0.333', c: '0.333' })).toBe(0.111);
    expect(
      linesTotal([
        { q: '0.1', c: '1' },
        { q: '0.2', c: '1' },
        { q: 'x', c: '1' },
      ]),
    ).toBe(0.3);
  });

  it('offers parts and labour of the library and matches names without case', () => {
    const items = [
      { id: 1, n: 'Oil filter', t: 2, c: 12.5 },
      { id: 2, n: 'Diesel', t: 4, c: 1.7 },
      { id: 3, n: 'Fitting', t: 1, c: 30 },
    ];
    expect(lineLibrary(items).map((i) => i.id)).toEqual([1, 3]);
    expect(libraryMatch(items, { n: ' oil FILTER', t: 2 })?.id).toBe(1);
    expect(libraryMatch(items, { n: 'Oil filter', t: 1 })).toBeUndefined();
    expect(lineFromLibrary(items[0] as (typeof items)[0])).toEqual({
      n: 'Oil filter',
      t: LINE_KIND.part,
      q: '1',
      c: '12.5',
    });
  });
});
