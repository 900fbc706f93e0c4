import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearPhraseCache, helpUrl, loadPhrases, lookupPhrase, paragraphs } from './phrases.ts';

afterEach(() => {
  clearPhraseCache();
  vi.restoreAllMocks();
});

describe('help phrases (spec §7, §8)', () => {
  it('looks up the language, then English, else shows and logs the key', () => {
    const missing: string[] = [];
    const log = (k: string) => missing.push(k);
    expect(lookupPhrase('a', { a: 'Hilfe' }, { a: 'Help' }, log)).toBe('Hilfe');
    expect(lookupPhrase('b', { a: 'Hilfe' }, { b: 'Only English' }, log)).toBe('Only English');
    expect(lookupPhrase('c', { a: 'Hilfe' }, { b: 'x' }, log)).toBe('c');
    expect(lookupPhrase('d', null, null, log)).toBe('d');
    expect(missing).toEqual(['c', 'd']);
  });

  it('logs a missing phrase to the console by default', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(lookupPhrase('x.y', {}, {})).toBe('x.y');
    expect(warn).toHaveBeenCalledWith(expect.any(String), 'x.y');
  });

  it('reads pt-br from br with the release as version', () => {
    expect(helpUrl('pt-br')).toBe('/helpi18n/br.json?v=4.4.34');
    expect(helpUrl('de')).toBe('/helpi18n/de.json?v=4.4.34');
  });

  it('fetches a language once and caches it', async () => {
    const fetcher = vi.fn(async () => new Response(JSON.stringify({ k: 'v' })));
    const a = await loadPhrases('de', fetcher as unknown as typeof fetch);
    const b = await loadPhrases('de', fetcher as unknown as typeof fetch);
    expect(a).toEqual({ k: 'v' });
    expect(b).toBe(a);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it("logs only 'Phrases were not found' when the file fails", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetcher = vi.fn(async () => new Response('nope', { status: 404 }));
    expect(await loadPhrases('fi', fetcher as unknown as typeof fetch)).toBeNull();
    expect(error).toHaveBeenCalledWith('Phrases were not found');
  });

  it('splits a text into paragraphs at blank lines', () => {
    expect(paragraphs('One.\n\nTwo\nlines.\n\n\nThree.')).toEqual(['One.', 'Two\nlines.', 'Three.']);
  });
});
