import type { CustomFieldWire } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import {
  errorsById,
  fieldsOf,
  fieldValue,
  optionsOf,
  sameValues,
  valueProblem,
  withValue,
} from './customFields.ts';

const fields: CustomFieldWire[] = [
  { id: 1, n: 'Zone 10', tp: 1, t: 's', s: {} },
  { id: 2, n: 'zone 9', tp: 2, t: 's', s: { options: ['Low', 'High'] } },
  { id: 3, n: 'Axle', tp: 1, t: 'u', s: {} },
  { id: 4, n: 'axle load', tp: 1, t: 's', s: {} },
];

describe('custom field rules', () => {
  it('keeps one owner type, sorted by name naturally and case-insensitively', () => {
    expect(fieldsOf(fields, 's').map((f) => f.id)).toEqual([4, 2, 1]);
    expect(fieldsOf(fields, 'u').map((f) => f.n)).toEqual(['Axle']);
    expect(fieldsOf(fields, 'd')).toEqual([]);
  });

  it('reads options of list fields only', () => {
    expect(optionsOf(fields[1]!)).toEqual(['Low', 'High']);
    expect(optionsOf(fields[0]!)).toEqual([]);
    expect(optionsOf({ id: 5, n: 'x', tp: 2, t: 's', s: {} })).toEqual([]);
  });

  it('sets a value: unknown and empty entries go, the empty string clears, ids stay sorted', () => {
    const own = fieldsOf(fields, 's');
    const values = [
      { id: 2, v: 'Low' },
      { id: 99, v: 'orphan' },
      { id: 3, v: 'unit field' },
    ];
    expect(withValue(own, values, 1, 'abc')).toEqual([
      { id: 1, v: 'abc' },
      { id: 2, v: 'Low' },
    ]);
    expect(withValue(own, values, 2, '')).toEqual([]);
    expect(fieldValue(values, 2)).toBe('Low');
    expect(fieldValue(values, 7)).toBe('');
  });

  it('compares value lists regardless of order and empty entries', () => {
    expect(
      sameValues(
        [
          { id: 1, v: 'a' },
          { id: 2, v: 'b' },
        ],
        [
          { id: 2, v: 'b' },
          { id: 1, v: 'a' },
        ],
      ),
    ).toBe(true);
    expect(
      sameValues(
        [
          { id: 1, v: 'a' },
          { id: 3, v: '' },
        ],
        [{ id: 1, v: 'a' }],
      ),
    ).toBe(true);
    expect(sameValues([{ id: 1, v: 'a' }], [{ id: 1, v: 'A' }])).toBe(false);
  });

  it('checks a value before sending', () => {
    expect(valueProblem(fields[1]!, 'High')).toBeNull();
    expect(valueProblem(fields[1]!, 'high')).toBe('notAnOption');
    expect(valueProblem(fields[0]!, 'x'.repeat(512))).toBeNull();
    expect(valueProblem(fields[0]!, 'x'.repeat(513))).toBe('tooLong');
    expect(valueProblem(fields[1]!, '')).toBeNull();
  });

  it('maps server details onto the field ids of the values sent', () => {
    const sent = [
      { id: 4, v: 'a' },
      { id: 2, v: 'Urgent' },
    ];
    expect(
      errorsById(sent, [
        { field: 'body.cf.1.v', message: 'Not one of the options of this field' },
        { field: 'body.services.0.cf.0.id', message: 'Unknown custom field for this object' },
        { field: 'body.n', message: 'other' },
        { field: 'body.cf.7.v', message: 'beyond the list' },
      ]),
    ).toEqual({ 2: 'Not one of the options of this field', 4: 'Unknown custom field for this object' });
    expect(errorsById(sent, undefined)).toEqual({});
  });
});
