import { describe, expect, it } from 'vitest';
import { isEmail, isFloat, isInteger, isUrl, isValidString, numberArrayError } from './validators.js';

describe('isInteger (spec §5)', () => {
  it('accepts an optional sign then digits', () => {
    expect(isInteger('42')).toBe(true);
    expect(isInteger('+42')).toBe(true);
    expect(isInteger('-42')).toBe(true);
    expect(isInteger(0)).toBe(true);
  });
  it('refuses decimals, blanks and other types', () => {
    expect(isInteger('4.2')).toBe(false);
    expect(isInteger(4.2)).toBe(false);
    expect(isInteger('')).toBe(false);
    expect(isInteger(' 4')).toBe(false);
    expect(isInteger('1e3')).toBe(false);
    expect(isInteger(null)).toBe(false);
    expect(isInteger(undefined)).toBe(false);
  });
  it('holds the signed range at 2147483647', () => {
    expect(isInteger('2147483647')).toBe(true);
    expect(isInteger('2147483648')).toBe(false);
    expect(isInteger('-2147483647')).toBe(true);
    expect(isInteger('-2147483648')).toBe(false);
  });
  it('holds the unsigned range at 4294967295 and forbids negatives there', () => {
    expect(isInteger('4294967295', { unsigned: true })).toBe(true);
    expect(isInteger('4294967296', { unsigned: true })).toBe(false);
    expect(isInteger('-1', { unsigned: true })).toBe(false);
  });
  it('applies the non-negative variant and min/max', () => {
    expect(isInteger(-1, { nonNegative: true })).toBe(false);
    expect(isInteger(0, { nonNegative: true })).toBe(true);
    expect(isInteger(5, { min: 1, max: 5 })).toBe(true);
    expect(isInteger(6, { min: 1, max: 5 })).toBe(false);
    expect(isInteger(0, { min: 1, max: 5 })).toBe(false);
  });
});

describe('isFloat (spec §5)', () => {
  it('accepts finite numbers and numeric text', () => {
    expect(isFloat(1.5)).toBe(true);
    expect(isFloat('1.5')).toBe(true);
    expect(isFloat('-0.001')).toBe(true);
  });
  it('refuses non-finite values and values beyond 1e21', () => {
    expect(isFloat(Number.NaN)).toBe(false);
    expect(isFloat(Number.POSITIVE_INFINITY)).toBe(false);
    expect(isFloat(1e21)).toBe(true);
    expect(isFloat(1.0000001e21)).toBe(false);
    expect(isFloat(-2e21)).toBe(false);
    expect(isFloat('abc')).toBe(false);
    expect(isFloat('')).toBe(false);
    expect(isFloat({})).toBe(false);
  });
  it('applies min/max', () => {
    expect(isFloat(0.5, { min: 1 })).toBe(false);
    expect(isFloat(10.5, { max: 10 })).toBe(false);
    expect(isFloat(10, { min: 0, max: 10 })).toBe(true);
  });
});

describe('isValidString (spec §5)', () => {
  it('accepts up to 128 characters and refuses 129', () => {
    expect(isValidString('a'.repeat(128))).toBe(true);
    expect(isValidString('a'.repeat(129))).toBe(false);
  });
  it('counts characters, not UTF-16 units', () => {
    expect(isValidString('🚚'.repeat(128))).toBe(true);
  });
  it('refuses empty strings unless allowed, and non-strings', () => {
    expect(isValidString('')).toBe(false);
    expect(isValidString('', { allowEmpty: true })).toBe(true);
    expect(isValidString(5)).toBe(false);
  });
  it('honours a custom maximum', () => {
    expect(isValidString('abcd', { max: 3 })).toBe(false);
  });
});

describe('isUrl (spec §5)', () => {
  it.each([
    'http://example.com',
    'https://example.com/path?q=1#x',
    'https://user:pass@fleet.example.org:8443/hook',
    'http://8.8.8.8/api',
    'https://sub.domain.co.uk',
  ])('accepts %s', (url) => expect(isUrl(url)).toBe(true));
  it.each([
    'ftp://example.com',
    'example.com',
    'http://localhost',
    'http://10.0.0.1',
    'http://192.168.1.1',
    'http://127.0.0.1:8080',
    'http://172.16.0.1',
    'http://256.1.1.1',
    'http://exa mple.com',
    'http://-bad.example.com',
    'http://example.com:70000',
    '',
  ])('refuses %s', (url) => expect(isUrl(url)).toBe(false));
});

describe('isEmail (spec §5)', () => {
  it.each(['a@b.co', "o'brien+fleet@mail.example.com", 'x.y_z@sub.domain.org'])('accepts %s', (e) =>
    expect(isEmail(e)).toBe(true),
  );
  it.each(['plain', 'a@b', '@b.com', 'a@.com', 'a b@c.com', 'a@b.c', 'a..b@c.com'])('refuses %s', (e) =>
    expect(isEmail(e)).toBe(false),
  );
});

describe('numberArrayError (spec §5 rejectServices)', () => {
  it('gives the spec texts', () => {
    expect(numberArrayError('1,2')).toBe('items should be array');
    expect(numberArrayError([1, '2'])).toBe('items should be array [number...]');
    expect(numberArrayError([1, Number.NaN])).toBe('items should be array [number...]');
    expect(numberArrayError([1, 2])).toBeUndefined();
    expect(numberArrayError([])).toBeUndefined();
  });
});
