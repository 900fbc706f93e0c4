import { describe, expect, it } from 'vitest';
import { createBody, dayToUnix, ownerOf, renewBody, unixToDay } from './rules.ts';

describe('document drafts', () => {
  it('turns picker days into the fleet-local start and end of the day', () => {
    expect(dayToUnix(0, '2026-03-01')).toBe(Date.UTC(2026, 2, 1) / 1000);
    expect(dayToUnix(0, '2026-03-01', true)).toBe(Date.UTC(2026, 2, 2) / 1000 - 1);
    expect(dayToUnix(0, null)).toBeNull();
    expect(unixToDay(0, Date.UTC(2026, 2, 1, 23) / 1000)).toBe('2026-03-01');
  });
  it('reads owners and types of the selects', () => {
    expect(ownerOf('d:7')).toEqual({ type: 'd', id: 7 });
    expect(ownerOf('x')).toBeNull();
    const body = createBody(0, {
      owner: 't:3',
      type: 'c:9',
      number: ' A1 ',
      issuer: '',
      validFrom: null,
      validTo: '2026-12-31',
      cost: '12,5',
    });
    expect(body).toMatchObject({
      owner_type: 't',
      owner_id: 3,
      type: 'custom',
      type_id: 9,
      number: 'A1',
      cost: '12.5',
    });
    expect(renewBody(0, { number: '', validFrom: null, validTo: null, cost: '' })).toEqual({
      valid_from: null,
      valid_to: -1,
      cost: null,
    });
  });
});
