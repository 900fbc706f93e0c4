import { describe, expect, it } from 'vitest';
import { fillDefaults } from './defaults.ts';

describe('the defaults of a choice fill a form', () => {
  it('into an empty field', () => {
    expect(fillDefaults({ fuel: 'Diesel', price: '' }, { price: '1.55' })).toEqual({
      fuel: 'Diesel',
      price: '1.55',
    });
    expect(fillDefaults({ price: '  ' }, { price: '1.55' })).toEqual({ price: '1.55' });
  });

  it('never over a value the user typed', () => {
    expect(fillDefaults({ price: '1.66' }, { price: '1.55' })).toEqual({ price: '1.66' });
    expect(fillDefaults({ price: '1.66' }, { price: '1.55' }, { price: '1.62' })).toEqual({ price: '1.66' });
    // The same number written otherwise is still what the user typed.
    expect(fillDefaults({ price: '1.620' }, { price: '1.55' }, { price: '1.62' })).toEqual({
      price: '1.620',
    });
  });

  it('over the default of the choice it replaces, untouched', () => {
    expect(fillDefaults({ price: '1.62' }, { price: '1.55' }, { price: '1.62' })).toEqual({ price: '1.55' });
  });

  it('field by field', () => {
    expect(fillDefaults({ c: '', q: '3', m: '100' }, { c: '12.5', q: '1', m: '200' }, { m: '100' })).toEqual({
      c: '12.5',
      q: '3',
      m: '200',
    });
  });

  it('a choice without a default leaves the field, and the form itself is not changed', () => {
    const form = { price: '1.62' };
    expect(fillDefaults(form, { price: '' }, { price: '1.62' })).toBe(form);
    expect(fillDefaults(form, {}, { price: '1.62' })).toBe(form);
    const empty = { price: '' };
    expect(fillDefaults(empty, { price: '1.55' })).not.toBe(empty);
    expect(empty.price).toBe('');
  });
});
