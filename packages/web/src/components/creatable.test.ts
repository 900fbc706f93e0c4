import { describe, expect, it } from 'vitest';
import { blurOutcome } from './creatable.ts';

const options = [
  { value: 'oil filter', label: 'Oil filter' },
  { value: 'tyres', label: 'Tyres' },
  { value: 'old', label: 'Old part', isDisabled: true },
];

describe('creatable select: leaving the field', () => {
  it('keeps new typed text as the new value', () => {
    expect(blurOutcome('  Engine oil 5W-30 ', options, null)).toEqual({
      kind: 'create',
      text: 'Engine oil 5W-30',
    });
    expect(blurOutcome('Engine oil', options, options[0] ?? null)).toEqual({
      kind: 'create',
      text: 'Engine oil',
    });
  });

  it('picks an option the text names, whatever its case', () => {
    expect(blurOutcome('tyres', options, null)).toEqual({ kind: 'pick', value: 'tyres', label: 'Tyres' });
    expect(blurOutcome('OIL FILTER ', options, options[1] ?? null)).toEqual({
      kind: 'pick',
      value: 'oil filter',
      label: 'Oil filter',
    });
  });

  it('changes nothing for the chosen text, and shows the choice again for empty text', () => {
    expect(blurOutcome('Tyres', options, options[1] ?? null)).toEqual({ kind: 'keep' });
    expect(blurOutcome('tyres', options, options[1] ?? null)).toEqual({ kind: 'revert' });
    expect(blurOutcome('   ', options, options[1] ?? null)).toEqual({ kind: 'revert' });
    expect(blurOutcome('', options, null)).toEqual({ kind: 'revert' });
  });

  it('never picks a disabled option', () => {
    expect(blurOutcome('old part', options, null)).toEqual({ kind: 'revert' });
  });
});
