import {
  COUNTER_MAX,
  DECIMAL_MAX,
  FUEL_TEXT_MAX,
  type FuelFillingWire,
  fuelFillingCreateBody,
  fuelFillingUpdateBody,
  KM_PER_MILE,
  Limits,
} from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { draftErrors } from '../../lib/editorForm.ts';
import { fuelTotals } from '../../lib/fuel.ts';
import {
  checkedBody,
  computedTotal,
  createBody,
  decodeTag,
  decodeUnit,
  emptyForm,
  type FuelForm,
  fieldOfPath,
  filterByTag,
  filterByUnit,
  fleetClock,
  formFromFilling,
  formTotal,
  mileageKm,
  mileageText,
  ownProblems,
  problemOfCore,
  tankExceeded,
  updateBody,
  withFuelType,
  withUnit,
} from './rules.ts';

const NOW = { date: '2026-03-10', time: '08:30:00' };
const ctx = { today: '2026-03-10', miles: false };

/** The editor's problems of a form: the core contract's, then the form's own (as useEditorForm finds them). */
const validate = (f: FuelForm, c: { today: string; miles: boolean }) =>
  draftErrors<FuelForm, string>(f, {
    schema: fuelFillingCreateBody,
    body: (d) => checkedBody(d, c.miles),
    fieldOf: fieldOfPath,
    text: (problem) => problemOfCore(problem),
    check: (d) => ownProblems(d, c.today),
  });

function form(patch: Partial<FuelForm> = {}): FuelForm {
  return { ...emptyForm(NOW, { id: 7, cnm: 1234.5 }), volume: '40', price: '1.5', ...patch };
}

function wire(patch: Partial<FuelFillingWire> = {}): FuelFillingWire {
  return {
    id: 3,
    uid: 7,
    date: Date.UTC(2026, 2, 9, 5, 15) / 1000,
    fuel_type: 'Diesel',
    volume: 40.5,
    price: 1.799,
    manual_cost: null,
    total_cost: 72.86,
    mileage: 160934.4,
    full: 1,
    station: 'Shell',
    description: '',
    consumption: null,
    fm: 1,
    ats: 0,
    cid: 1,
    tm: 0,
    updated: 0,
    cf: [],
    ...patch,
  };
}

describe('totals of the list (exact, no float drift)', () => {
  it('sums volume and cost in thousandths', () => {
    const rows = Array.from({ length: 10 }, () => ({ volume: 0.1, total_cost: 0.2 }));
    expect(fuelTotals(rows)).toEqual({ volume: 1, cost: 2, count: 10 });
    expect(
      fuelTotals([
        { volume: 12.345, total_cost: 1000.001 },
        { volume: 0.005, total_cost: 0.999 },
      ]),
    ).toEqual({
      volume: 12.35,
      cost: 1001,
      count: 2,
    });
    expect(fuelTotals([])).toEqual({ volume: 0, cost: 0, count: 0 });
  });
});

describe('the computed total (volume × price unless entered)', () => {
  it('multiplies exactly and rounds half away from zero to 3 decimals', () => {
    expect(computedTotal('40.5', '1.799')).toBe(72_860); // 72.8595 → 72.86
    expect(computedTotal('0.1', '0.3')).toBe(30);
    expect(computedTotal('', '1.5')).toBeUndefined();
    expect(computedTotal('3', '')).toBeUndefined();
  });
  it('takes the total entered by hand before the computed one; clearing it returns to computed', () => {
    expect(formTotal({ volume: '40', price: '1.5', manualCost: '55.5' })).toBe(55_500);
    expect(formTotal({ volume: '40', price: '1.5', manualCost: '' })).toBe(60_000);
  });
});

describe('mileage in the fleet unit, km on the wire', () => {
  it('converts miles both ways to 3 decimals, km as they are', () => {
    expect(mileageText(160934.4, true)).toBe('100000');
    expect(mileageKm('100000', true)).toBe(160934.4);
    expect(mileageKm('1', true)).toBe(Math.round(KM_PER_MILE * 1000) / 1000);
    expect(mileageText(1234.5, false)).toBe('1234.5');
    expect(mileageKm('1234.5', false)).toBe(1234.5);
    expect(mileageKm('', true)).toBeNull();
    expect(mileageText(null, true)).toBe('');
  });
});

describe('the form', () => {
  it('a new filling is a full tank now, of the unit named, at its counter', () => {
    const f = emptyForm(NOW, { id: 7, cnm: 1609.344 }, true);
    expect(f).toMatchObject({ uid: '7', date: '2026-03-10', time: '08:30:00', full: true, mileage: '1000' });
    expect(emptyForm(NOW).uid).toBeNull();
  });
  it('reads a filling in the fleet zone (UTC+3) and units', () => {
    const f = formFromFilling(wire(), 180, true);
    expect(f).toMatchObject({
      uid: '7',
      date: '2026-03-09',
      time: '08:15:00',
      volume: '40.5',
      price: '1.799',
      manualCost: '',
      mileage: '100000',
      fuelType: 'Diesel',
    });
    expect(formFromFilling(wire(), 180, true)).toEqual(f);
  });
  it('the fleet clock crosses midnight with the zone', () => {
    expect(fleetClock(180, Date.UTC(2026, 0, 1, 22, 0) / 1000)).toEqual({
      date: '2026-01-02',
      time: '01:00:00',
    });
    expect(fleetClock(0, Date.UTC(2026, 0, 1, 2, 7, 45) / 1000)).toEqual({
      date: '2026-01-01',
      time: '02:07:00',
    });
  });
  it('picking a library fuel type prefills its price; a typed one keeps the price', () => {
    const f = form({ price: '' });
    expect(withFuelType(f, { n: 'Diesel', c: 1.659 }, 'diesel')).toMatchObject({
      fuelType: 'Diesel',
      price: '1.659',
    });
    expect(withFuelType(form({ price: '2' }), { n: 'AdBlue', c: 0 }, 'adblue').price).toBe('2');
    expect(withFuelType(form({ price: '2' }), undefined, 'LPG')).toMatchObject({
      fuelType: 'LPG',
      price: '2',
    });
  });
  it('a fuel type chosen never replaces a price the user typed, only the untouched price of the type before', () => {
    const diesel = { n: 'Diesel', c: 1.55 };
    const petrol = { n: 'Petrol', c: 1.8 };
    expect(withFuelType(form({ price: '1.66' }), diesel, 'diesel')).toMatchObject({
      fuelType: 'Diesel',
      price: '1.66',
    });
    expect(withFuelType(form({ fuelType: 'Diesel', price: '1.66' }), petrol, 'petrol', diesel).price).toBe(
      '1.66',
    );
    expect(withFuelType(form({ fuelType: 'Diesel', price: '1.55' }), petrol, 'petrol', diesel).price).toBe(
      '1.8',
    );
  });
  it("a new filling's unit brings its counter into an empty or untouched mileage, never over a typed one", () => {
    const a = { cnm: 1000 };
    const b = { cnm: 2000.5 };
    expect(withUnit(form({ uid: null, mileage: '' }), '8', b, undefined, false)).toMatchObject({
      uid: '8',
      mileage: '2000.5',
    });
    expect(withUnit(form({ mileage: '1000' }), '8', b, a, false).mileage).toBe('2000.5');
    expect(withUnit(form({ mileage: '1500' }), '8', b, a, false)).toMatchObject({
      uid: '8',
      mileage: '1500',
    });
    // Miles fleet: the counter in miles, compared in the unit shown.
    expect(withUnit(form({ mileage: mileageText(1000, true) }), '8', b, a, true).mileage).toBe(
      mileageText(2000.5, true),
    );
    expect(withUnit(form({ mileage: '5' }), '9', undefined, a, false)).toMatchObject({
      uid: '9',
      mileage: '5',
    });
  });
});

describe("checks before a save: the core contract, then the form's own rules", () => {
  it('a complete form passes', () => {
    expect(validate(form(), ctx)).toEqual({});
  });
  it('needs a unit, a date, a time and a positive volume', () => {
    expect(validate(form({ uid: null, date: null, time: null, volume: '' }), ctx)).toMatchObject({
      uid: 'required',
      date: 'required',
      time: 'required',
      volume: 'required',
    });
    expect(validate(form({ volume: '0' }), ctx).volume).toBe('positive');
    // A dangling point is the number before it; a date that is no day is refused.
    expect(validate(form({ volume: '12.' }), ctx)).toEqual({});
    expect(validate(form({ date: '2026-02-31' }), ctx).date).toBe('invalidNumber');
  });
  it('needs a price or a total, and refuses a day after today', () => {
    expect(validate(form({ price: '', manualCost: '' }), ctx).price).toBe('priceOrTotal');
    expect(validate(form({ price: '', manualCost: '80' }), ctx)).toEqual({});
    expect(validate(form({ date: '2026-03-11' }), ctx).date).toBe('notAfterToday');
  });
  it('applies the limits of the contract (DECIMAL_MAX, COUNTER_MAX in the fleet unit, text lengths)', () => {
    expect(validate(form({ volume: String(DECIMAL_MAX + 1) }), ctx).volume).toBe('tooLarge');
    expect(validate(form({ price: String(DECIMAL_MAX + 1) }), ctx).price).toBe('tooLarge');
    expect(validate(form({ volume: '100000', price: '100000' }), ctx).price).toBe('tooLarge');
    expect(validate(form({ mileage: String(COUNTER_MAX) }), ctx).mileage).toBeUndefined();
    expect(validate(form({ mileage: String(COUNTER_MAX) }), { ...ctx, miles: true }).mileage).toBe(
      'tooLarge',
    );
    expect(validate(form({ station: 'x'.repeat(FUEL_TEXT_MAX + 1) }), ctx).station).toBe('tooLong');
    expect(validate(form({ fuelType: 'x'.repeat(FUEL_TEXT_MAX + 1) }), ctx).fuelType).toBe('tooLong');
    expect(validate(form({ description: 'x'.repeat(Limits.descriptionMax + 1) }), ctx).description).toBe(
      'tooLong',
    );
  });
});

describe('bodies', () => {
  it('a create body the contract accepts: fleet-zone text time, exact decimals, km', () => {
    const body = createBody(form({ fuelType: ' Diesel ', mileage: '100', manualCost: '' }), true);
    expect(body).toMatchObject({
      uid: 7,
      date: '2026-03-10 08:30:00',
      fuel_type: 'Diesel',
      volume: '40',
      price: '1.5',
      manual_cost: null,
      mileage: 160.934,
      full: 1,
    });
    expect(fuelFillingCreateBody.safeParse(body).success).toBe(true);
    // Left empty, the server takes the unit's counter.
    expect('mileage' in createBody(form({ mileage: '' }), false)).toBe(false);
  });
  it('an update sends only what changed; clearing the total sends null (back to computed)', () => {
    const initial = formFromFilling(wire({ manual_cost: 70 }), 0, false);
    expect(updateBody(initial, initial, false)).toEqual({});
    const body = updateBody({ ...initial, manualCost: '', full: false, time: '06:00:00' }, initial, false);
    expect(body).toEqual({ manual_cost: null, full: 0, date: '2026-03-09 06:00:00' });
    expect(fuelFillingUpdateBody.safeParse(body).success).toBe(true);
    expect(updateBody({ ...initial, manualCost: '80.125' }, initial, false)).toEqual({
      manual_cost: '80.125',
    });
  });
  it('server error paths land on the form fields', () => {
    expect(fieldOfPath(['manual_cost'])).toBe('manualCost');
    expect(fieldOfPath(['fuel_type'])).toBe('fuelType');
    expect(fieldOfPath(['cf', '2', 'v'])).toBe('cf.2');
    expect(fieldOfPath(['nope'])).toBeNull();
  });
});

describe('the unit filter', () => {
  it('reads a unit id and keeps its fillings', () => {
    expect(decodeUnit(new URLSearchParams('unit=12'))).toBe(12);
    expect(decodeUnit(new URLSearchParams('unit=x'))).toBeNull();
    const rows = [{ uid: 1 }, { uid: 2 }, { uid: 1 }];
    expect(filterByUnit(rows, 1)).toHaveLength(2);
    expect(filterByUnit(rows, null)).toHaveLength(3);
  });
  it('reads a unit tag and keeps the fillings of units with it, without case', () => {
    expect(decodeTag(new URLSearchParams('tag=%20North%20'))).toBe('North');
    expect(decodeTag(new URLSearchParams('tag='))).toBeNull();
    const rows = [{ uid: 1 }, { uid: 2 }, { uid: 3 }];
    const tags = new Map([
      [1, ['north', 'rental']],
      [2, ['South']],
    ]);
    expect(filterByTag(rows, 'North', tags)).toEqual([{ uid: 1 }]);
    expect(filterByTag(rows, 'east', tags)).toEqual([]);
    expect(filterByTag(rows, null, tags)).toHaveLength(3);
  });
});

describe('tank capacity (docs/product.md "The vehicle profile")', () => {
  const vp = { tc: 60, tu: 1 as const };
  it('flags a typed volume larger than the tank, converting gallons to the tank unit', () => {
    expect(tankExceeded('60.001', 1, vp)).toEqual({ capacity: 60, unit: 1 });
    expect(tankExceeded('60', 1, vp)).toBeNull();
    expect(tankExceeded('16', 2, vp)).toEqual({ capacity: 60, unit: 1 });
    expect(tankExceeded('15', 2, vp)).toBeNull();
  });
  it('says nothing without a number or a capacity', () => {
    expect(tankExceeded('', 1, vp)).toBeNull();
    expect(tankExceeded('80', 1, { tc: null, tu: null })).toBeNull();
    expect(tankExceeded('80', 1, undefined)).toBeNull();
  });
});
