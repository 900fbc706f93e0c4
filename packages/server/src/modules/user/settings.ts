import {
  DEFAULT_SETTINGS,
  SETTINGS_KEYS,
  SETTINGS_TOTAL_MAX,
  type SettingsKey,
  settingSchema,
  type UserSettings,
} from '@fleetkeep/core';
import type { AppContext } from '../../context.js';
import { invalidInput } from '../../http/errors.js';

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
 * The stored settings a user keeps: the known keys of core `SETTINGS_KEYS` whose value its contract
 * accepts. Keys stored before the list was enforced, or a value a later contract no
 * longer takes, are dropped: they are neither answered nor written back.
 */
export function knownSettings(text: string): Settings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text || '{}');
  } catch {
    return {};
  }
  if (!isPlainObject(parsed)) return {};
  const out: Settings = {};
  for (const key of SETTINGS_KEYS) {
    const value = parsed[key];
    if (value === undefined || value === null) continue;
    const checked = settingSchema(key as SettingsKey).safeParse(value);
    if (checked.success && checked.data !== null && checked.data !== undefined) out[key] = checked.data;
  }
  return out;
}

/**
 * The settings after a change, as they will be stored, or 400 error 4 on `body` when their JSON text
 * would pass core `SETTINGS_TOTAL_MAX` (the patch itself was validated key by key by its contract).
 */
export function patchedSettings(storedText: string, patch: Settings): Settings {
  const merged = mergeSettings(knownSettings(storedText), patch);
  if (Buffer.byteLength(JSON.stringify(merged), 'utf8') > SETTINGS_TOTAL_MAX) {
    throw invalidInput(
      [{ field: 'body', message: `Settings may take at most ${SETTINGS_TOTAL_MAX} bytes` }],
      'Settings too large',
    );
  }
  return merged;
}

/**
 * The settings a client sees (core `userSettings`): the spec's defaults under what the user saved, which
 * `PATCH /api/user/settings` validated on the way in.
 */
export function settingsWithDefaults(text: string): UserSettings {
  return mergeSettings(structuredClone(DEFAULT_SETTINGS) as Settings, knownSettings(text)) as UserSettings;
}

/** A user's settings with the defaults, read from the database (the language and formats of what they read). */
export async function storedSettings(ctx: AppContext, userId: number): Promise<UserSettings> {
  const user = await ctx.db.kysely
    .selectFrom('users')
    .select('settings')
    .where('id', '=', userId)
    .executeTakeFirst();
  return settingsWithDefaults(user?.settings ?? '{}');
}
