import { describe, expect, it } from 'vitest';
import { alarmOf } from './required.ts';

describe('alarmOf (spec §5 required input)', () => {
  it("shows 'Required field' only once touched and empty", () => {
    expect(alarmOf({ value: '', touched: false })).toBeNull();
    expect(alarmOf({ value: '', touched: true })).toEqual({ kind: 'required' });
    expect(alarmOf({ value: '   ', touched: true })).toEqual({ kind: 'required' });
    expect(alarmOf({ value: 'x', touched: true })).toBeNull();
  });
  it('shows the given alarm text, or the default, when showInvalid is set', () => {
    expect(alarmOf({ value: 'x', touched: false, showInvalid: true, alarmText: 'Too long' })).toEqual({
      kind: 'invalid',
      text: 'Too long',
    });
    expect(alarmOf({ value: 'x', touched: true, showInvalid: true })).toEqual({
      kind: 'invalid',
      text: null,
    });
    expect(alarmOf({ value: '', touched: true, showInvalid: true, alarmText: ' ' })).toEqual({
      kind: 'invalid',
      text: null,
    });
  });
});
