import { DEFAULT_SETTINGS, type UserSettings } from '@fleetkeep/core';

export type Settings = Record<string, unknown>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Merges a settings patch into the stored settings, one level deep for nested objects; null removes. */
export function mergeSettings(stored: Settings, patch: Settings): Settings {
  const out: Settings = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isPlainObject(value) && isPlainObject(out[key]))
      out[key] = { ...(out[key] as Settings), ...value };
    else out[key] = value;
  }
  return out;
}

/**
 * The settings a client sees (core `userSettings`): the spec's defaults under what the user saved, which
 * `PATCH /api/user/settings` validated on the way in.
 */
export function settingsWithDefaults(text: string): UserSettings {
  let stored: Settings = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed)) stored = parsed;
  } catch {
    stored = {};
  }
  return mergeSettings(structuredClone(DEFAULT_SETTINGS) as Settings, stored) as UserSettings;
}
