import { ServiceFlag, type ServiceWire } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { serviceWire } from '../testing.ts';
import {
  closeDateError,
  closePayload,
  closeTargets,
  counterInvalid,
  defaultDraft,
  displayToKm,
  draftEdited,
  earliestCloseDate,
  errorsByService,
  idsFromState,
  kmToDisplay,
} from './rules.ts';

const service = (patch: Partial<ServiceWire> = {}) => serviceWire(patch);

/** 2026-11-10 00:00 UTC. */
const NOV_10 = Date.UTC(2026, 10, 10) / 1000;

describe('selection from the navigation state', () => {
  it('reads `services` (the guard key), numbers only, once each', () => {
    expect(idsFromState({ services: [3, 1, 3, 'x', -2, 1.5] })).toEqual([3, 1]);
    expect(idsFromState({ ids: [7] })).toEqual([]);
    expect(idsFromState(null)).toEqual([]);
    expect(idsFromState({ services: 'nope' })).toEqual([]);
  });

  it('keeps only services that still exist and are open, in the selected order', () => {
    const open = [
      service({ id: 1 }),
      service({ id: 2, f: ServiceFlag.inProgress }),
      service({ id: 3, f: 8 }),
    ];
    expect(closeTargets([2, 9, 1, 3], open).map((s) => s.id)).toEqual([2, 1]);
    expect(closeTargets([9], open)).toEqual([]);
  });
});

describe('counter defaults and the payload', () => {
  it('defaults to the unit’s current counters, in miles for fleets in miles', () => {
    const d = defaultDraft(service({ current_mileage: 5 }), { cnm: 16093.44, cneh: 120.5 }, true);
    expect(d.mileage).toBe('10000');
    expect(d.engineHours).toBe('120.5');
    expect(d.hasCounters).toBe(true);
    const km = defaultDraft(service(), { cnm: 1234.5678, cneh: 0 }, false);
    expect(km.mileage).toBe('1234.568');
    expect(km.engineHours).toBe('0');
  });

  it('falls back to the service’s current counters; drivers and trailers have none', () => {
    expect(defaultDraft(service({ current_mileage: 42 }), undefined, false).mileage).toBe('42');
    const driver = defaultDraft(service({ t: 'd' }), undefined, false);
    expect(driver.hasCounters).toBe(false);
    expect(driver.mileage).toBe('');
  });

  it('converts between km and miles with 3 decimals', () => {
    expect(kmToDisplay(1.609344, true)).toBe(1);
    expect(kmToDisplay(100, false)).toBe(100);
    expect(displayToKm(10, true)).toBe(16.093);
    expect(displayToKm(10, false)).toBe(10);
  });

  it('sends untouched defaults exactly, edited miles as km, emptied fields as null', () => {
    const a = defaultDraft(service({ id: 1 }), { cnm: 12345.678, cneh: 99 }, true);
    const b = {
      ...defaultDraft(service({ id: 2 }), { cnm: 100, cneh: 5 }, true),
      mileage: '100',
      engineHours: '',
    };
    const c = defaultDraft(service({ id: 3, t: 't' }), undefined, true);
    expect(draftEdited(a)).toBe(false);
    expect(draftEdited(b)).toBe(true);
    expect(closePayload([a, b, c], '2026-11-10', true)).toEqual([
      { id: 1, f: 8, end_date: '2026-11-10', mileage: 12345.678, engine_hours: 99 },
      { id: 2, f: 8, end_date: '2026-11-10', mileage: 160.934, engine_hours: null },
      { id: 3, f: 8, end_date: '2026-11-10' },
    ]);
  });

  it('flags counters above the server maximum', () => {
    expect(counterInvalid('1000000000')).toBe(false);
    expect(counterInvalid('1000000001')).toBe(true);
    expect(counterInvalid('')).toBe(false);
  });
});

describe('the close date', () => {
  const started = service({ id: 4, n: 'Brakes', start_date: NOV_10, f: ServiceFlag.inProgress });

  it('is required and not in the future', () => {
    expect(closeDateError(null, '2026-11-21', [], 0)?.error).toBe('required');
    expect(closeDateError('2026-11-22', '2026-11-21', [], 0)?.error).toBe('future');
    expect(closeDateError('2026-11-21', '2026-11-21', [], 0)).toBeNull();
  });

  it('is not before any service’s start date, in the fleet zone', () => {
    const err = closeDateError('2026-11-09', '2026-11-21', [service(), started], 0);
    expect(err?.error).toBe('beforeStart');
    expect(err?.services.map((s) => s.id)).toEqual([4]);
    expect(closeDateError('2026-11-10', '2026-11-21', [started], 0)).toBeNull();
    // At UTC−1 the start (00:00 UTC) is still the 9th locally.
    expect(closeDateError('2026-11-09', '2026-11-21', [started], (-60 << 16) >>> 16)).toBeNull();
    expect(earliestCloseDate([service(), started], 0)).toBe('2026-11-10');
    expect(earliestCloseDate([service()], 0)).toBeNull();
  });
});

describe('server errors per service', () => {
  it('maps `row` indexes and refused ids to services and fields', () => {
    const invalid = errorsByService(
      [{ row: 1, field: 'body.services.1.mileage', message: 'Too big' }],
      [5, 6],
    );
    expect(invalid.get(6)).toEqual([{ field: 'mileage', message: 'Too big' }]);
    const errors = errorsByService(
      [
        { row: 0, reason: 'A closed service cannot become closed' },
        { id: 7, reason: 'Not found' },
      ],
      [5, 6],
    );
    expect(errors.get(5)).toEqual([{ field: '', message: 'A closed service cannot become closed' }]);
    expect(errors.get(7)).toEqual([{ field: '', message: 'Not found' }]);
    expect(errorsByService('nope', [1]).size).toBe(0);
  });
});
