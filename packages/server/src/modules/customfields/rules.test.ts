import { describe, expect, it } from 'vitest';
import type { CustomFieldRow } from '../../db/schema.js';
import {
  checkOptions,
  checkValues,
  customFieldToWire,
  holdsValue,
  parseValues,
  valuesOutside,
  withoutField,
} from './rules.js';

const row = (over: Partial<CustomFieldRow>): CustomFieldRow => ({
  id: 1,
  fleet_id: 1,
  name: 'F',
  type: 1,
  options: '[]',
  owner_type: 's',
  created_at: 0,
  updated_at: 0,
  ...over,
});

describe('custom field rules', () => {
  const text = row({ id: 1 });
  const list = row({ id: 2, type: 2, options: JSON.stringify(['Low', 'High']) });
  const unit = row({ id: 3, owner_type: 'u' });
  const fields = new Map([text, list, unit].map((f) => [f.id, f]));

  it('accepts known fields of the owner type, options, empty strings and texts up to 512', () => {
    expect(
      checkValues(fields, 's', [
        { id: 1, v: 'x'.repeat(512) },
        { id: 2, v: 'High' },
      ]),
    ).toEqual([]);
    expect(checkValues(fields, 's', [{ id: 2, v: '' }])).toEqual([]);
    expect(checkValues(fields, 's', undefined)).toEqual([]);
  });

  it('lists each bad value under its index', () => {
    const issues = checkValues(
      fields,
      's',
      [
        { id: 3, v: 'x' },
        { id: 9, v: 'x' },
        { id: 2, v: 'high' },
        { id: 1, v: 'x'.repeat(513) },
        { id: 1, v: 'again' },
      ],
      'body.services.4.',
    );
    expect(issues.map((i) => i.field)).toEqual([
      'body.services.4.cf.0.id',
      'body.services.4.cf.1.id',
      'body.services.4.cf.2.v',
      'body.services.4.cf.3.v',
      'body.services.4.cf.4.id',
    ]);
  });

  it('checks options of list fields and refuses options on text fields', () => {
    expect(checkOptions(2, [' a ', 'b'])).toEqual({ issues: [], options: ['a', 'b'] });
    expect(checkOptions(2, []).issues).toHaveLength(1);
    expect(checkOptions(2, ['A', 'a']).issues.map((i) => i.field)).toEqual(['body.s.options.1']);
    expect(checkOptions(2, ['', 'x'.repeat(129)]).issues.map((i) => i.field)).toEqual([
      'body.s.options.0',
      'body.s.options.1',
    ]);
    expect(checkOptions(1, ['a']).issues).toHaveLength(1);
    expect(checkOptions(1, undefined)).toEqual({ issues: [], options: [] });
  });

  it('maps rows to the wire with options only for lists', () => {
    expect(customFieldToWire(list)).toEqual({
      id: 2,
      n: 'F',
      tp: 2,
      t: 's',
      s: { options: ['Low', 'High'] },
    });
    expect(customFieldToWire(text).s).toEqual({});
  });

  it('parses, finds and strips stored values', () => {
    const values = parseValues('[{"id":1,"v":"a"},{"id":2,"v":""},{"bad":1}]');
    expect(values).toEqual([
      { id: 1, v: 'a' },
      { id: 2, v: '' },
    ]);
    expect(parseValues('nonsense')).toEqual([]);
    expect(holdsValue(values, 1)).toBe(true);
    expect(holdsValue(values, 2)).toBe(false);
    expect(withoutField(values, 1)).toEqual([{ id: 2, v: '' }]);
    expect(withoutField(values, 7)).toBeUndefined();
    expect([...valuesOutside(['a', 'b', 'b', ''], ['a'])]).toEqual([['b', 2]]);
  });
});
