import { describe, expect, it } from 'vitest';
import { mergeSettings, settingsWithDefaults } from './settings.js';

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
});
