import { describe, expect, it } from 'vitest';
import { MENU_MAX_HEIGHT, menuProps, searchFilter, toItems } from './Select.tsx';

describe('Select options (spec §3, §5, §9)', () => {
  it('maps {label, value, isDisabled} onto menu items', () => {
    expect(
      toItems([
        { label: 'A', value: 'a', isDisabled: true },
        { label: 'B', value: 'b' },
      ]),
    ).toEqual([
      { label: 'A', value: 'a', disabled: true },
      { label: 'B', value: 'b', disabled: false },
    ]);
  });
  it('filters case- and accent-blind anywhere, inside groups too', () => {
    const options = [
      { label: 'Éclair', value: 'e' },
      {
        group: 'G',
        items: [
          { label: 'Crème brûlée', value: 'c' },
          { label: 'Tart', value: 't' },
        ],
      },
      { group: 'Empty', items: [{ label: 'Pie', value: 'p' }] },
    ];
    const out = searchFilter({ options, search: 'RE', limit: Number.POSITIVE_INFINITY });
    expect(out).toEqual([{ group: 'G', items: [{ label: 'Crème brûlée', value: 'c' }] }]);
    expect(searchFilter({ options, search: 'ECL', limit: Number.POSITIVE_INFINITY })).toEqual([
      { label: 'Éclair', value: 'e' },
    ]);
  });
  it('caps the menu at 300 px', () => {
    expect(MENU_MAX_HEIGHT).toBe(300);
    expect(menuProps.maxDropdownHeight).toBe(300);
  });
});
