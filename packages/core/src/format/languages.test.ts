import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../constants.js';
import { isLanguage, languageFile, resolveLanguage } from './languages.js';

describe('languages (spec §1)', () => {
  it('stores Brazilian Portuguese as br and every other language under its code', () => {
    expect(languageFile('pt-br')).toBe('br');
    expect(languageFile('ru')).toBe('ru');
    expect(new Set(LANGUAGES.map(languageFile)).size).toBe(23);
  });
  it('resolves stored codes, any case, and falls back to English', () => {
    expect(resolveLanguage('ru')).toBe('ru');
    expect(resolveLanguage('PT-BR')).toBe('pt-br');
    expect(resolveLanguage('br')).toBe('pt-br');
    expect(resolveLanguage('ja')).toBe('en');
    expect(resolveLanguage('constructor')).toBe('en');
    expect(resolveLanguage(undefined)).toBe('en');
    expect(isLanguage('de')).toBe(true);
    expect(isLanguage('pt')).toBe(false);
  });
});
