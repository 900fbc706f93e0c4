import { describe, expect, it } from 'vitest';
import { knownSettings, mergeSettings, patchedSettings, settingsWithDefaults } from './settings.js';

describe('user settings (spec §3)', () => {
  it('fills the spec defaults', () => {
    expect(settingsWithDefaults('{}')).toEqual({
      lang: 'en',
      notification: { enabled: 31 },
      dateFormat: 'DD.MM.YYYY',
      timeFormat: 'HH:mm',
      layer: 'osm',
    });
  });
  it('keeps what the user saved over the defaults and survives bad stored text', () => {
    expect(settingsWithDefaults('{"lang":"de","notification":{"enabled":4}}')).toMatchObject({
      lang: 'de',
      notification: { enabled: 4 },
      timeFormat: 'HH:mm',
    });
    expect(settingsWithDefaults('not json').lang).toBe('en');
    expect(settingsWithDefaults('[1,2]').lang).toBe('en');
  });
  it('merges nested objects one level deep and removes keys set to null', () => {
    const merged = mergeSettings(
      { help: { x: 1, y: 2 }, lang: 'ru', layer: 'osm' },
      { help: { y: 5 }, layer: null },
    );
    expect(merged).toEqual({ help: { x: 1, y: 5 }, lang: 'ru' });
  });
  it('replaces arrays instead of merging them', () => {
    expect(mergeSettings({ order: [1, 2, 3] }, { order: [3] })).toEqual({ order: [3] });
  });
  it('keeps only the known keys with values their contract takes', () => {
    const text = JSON.stringify({
      lang: 'de',
      layer: '',
      blob: 'x'.repeat(100),
      dashboard: { order: ['map'], hidden: [] },
      help: { x: 1, y: 2, w: 3, h: 4, extra: 5 },
      notification: null,
    });
    expect(knownSettings(text)).toEqual({ lang: 'de', dashboard: { order: ['map'], hidden: [] } });
    expect(settingsWithDefaults(text)).not.toHaveProperty('blob');
    expect(knownSettings('"text"')).toEqual({});
  });
  it('refuses a change whose result passes the total size', () => {
    const ids = Array.from({ length: 64 }, (_, i) => `section-${i}`.padEnd(60, 'x'));
    expect(() => patchedSettings('{}', { dashboard: { order: ids, hidden: ids } })).toThrow(
      'Settings too large',
    );
    expect(patchedSettings('{"lang":"de","junk":1}', { layer: 'osm' })).toEqual({ lang: 'de', layer: 'osm' });
  });
});
