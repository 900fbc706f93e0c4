import { z } from 'zod';
import { ALL_NOTIFICATION_KINDS, LANGUAGES } from '../constants.js';
import type { TokenRights } from '../permissions.js';
import { id, unixTime } from './common.js';
import { unitListReply } from './fleets.js';
import { importMappingSetting } from './imports.js';

/**
 * Wire contracts of the user API (spec §3 "User settings", §7 "User"; PRODUCT.md "API tokens"): personal
 * API tokens, the current fleet, settings and the user's units. See common.ts.
 */

// --- API tokens ---

export const TOKEN_DESCRIPTION_MAX = 128;

export const userTokenRight = z.enum(['none', 'view', 'manage']);
/** A token's rights per area; the acl they leave is core `tokenAclMask`. */
export const userTokenRights = z.object({
  intervals: userTokenRight,
  services: userTokenRight,
  archive: userTokenRight,
}) satisfies z.ZodType<TokenRights>;

export const userTokenWire = z.object({
  id,
  description: z.string(),
  rights: userTokenRights,
  created: unixTime.describe('Unix seconds'),
  last_used: unixTime.nullable().describe('Unix seconds of the last use; null while unused'),
  requests: z.number().int().min(0).describe('Calls made with the token'),
  expires: unixTime.nullable().describe('Unix seconds; each use extends it (10 days)'),
});
export type UserTokenWire = z.infer<typeof userTokenWire>;

export const userTokensReply = z.object({ tokens: z.array(userTokenWire) });
export type UserTokensReply = z.infer<typeof userTokensReply>;

/** `POST /api/user/tokens`. */
export const userTokenCreateBody = z.object({
  description: z.string().min(1).max(TOKEN_DESCRIPTION_MAX),
  rights: userTokenRights,
});
/** The token and its value, shown this once (only a hash is kept). */
export const userTokenCreateReply = z.object({
  token: userTokenWire,
  value: z.string().describe('The token; send as `Authorization: Bearer` or as access_token of /api/auth'),
});
export type UserTokenCreateReply = z.infer<typeof userTokenCreateReply>;

// --- current fleet ---

/** `PUT /api/user/fleet` (error 3 when the fleet is unknown, not the user's, or already current). */
export const userFleetBody = z.object({ fid: id });
export const userFleetReply = z.object({ fid: id });

// --- settings ---

/** The date formats of spec §5 and the time formats of the settings screen. */
export const SETTINGS_DATE_FORMATS = [
  'DD.MM.YYYY',
  'DD MMM YYYY',
  'YYYY-MM-DD',
  'MM-DD-YYYY',
  'DD-MM-YYYY',
] as const;
export const SETTINGS_TIME_FORMATS = ['HH:mm', 'hh:mm A', 'HH:mm:ss', 'hh:mm:ss A'] as const;
export type SettingsDateFormat = (typeof SETTINGS_DATE_FORMATS)[number];
export type SettingsTimeFormat = (typeof SETTINGS_TIME_FORMATS)[number];
/** Longest base-map layer name. */
export const SETTINGS_LAYER_MAX = 128;
/** Longest help-window state text. */
export const SETTINGS_HELP_STATE_MAX = 16;
/** Most section ids in each list of the dashboard layout. */
export const SETTINGS_LAYOUT_ITEMS_MAX = 64;
/** Longest section id of the dashboard layout. */
export const SETTINGS_LAYOUT_ID_MAX = 64;
/**
 * Largest size of a user's settings, as the JSON text stored after a change (settings
 * went into every /api/auth reply, so megabytes of them slowed every sign-in). A change that would
 * pass it answers 400 error 4 with a detail on `body`; the known keys below stay far under it.
 */
export const SETTINGS_TOTAL_MAX = 4096;

/** Position and size of the floating help window (spec §3 "help window position"). */
export const settingsHelpWindow = z.strictObject({
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  state: z.string().max(SETTINGS_HELP_STATE_MAX).optional(),
});

const layoutIds = z.array(z.string().min(1).max(SETTINGS_LAYOUT_ID_MAX)).max(SETTINGS_LAYOUT_ITEMS_MAX);
/**
 * The dashboard's layout (PRODUCT.md "Dashboard": sections shown, hidden and reordered, kept per user):
 * the section ids in their order and the hidden ones. The web app drops ids it does not know.
 */
export const settingsDashboardLayout = z.strictObject({ order: layoutIds, hidden: layoutIds });
export type SettingsDashboardLayout = z.infer<typeof settingsDashboardLayout>;

/**
 * `PATCH /api/user/settings`: the keys to change (null removes `help` or `dashboard`); nested objects
 * merge one level deep. Only the keys of spec §3 "User settings" and the dashboard layout: any other is
 * 400 error 4 with a detail on `body.<key>`, and the merged result may not pass `SETTINGS_TOTAL_MAX`.
 * Add a key here (and to `userSettings`) before a screen writes it.
 */
const settingsPatchFields = z.object({
  lang: z.enum(LANGUAGES).optional(),
  dateFormat: z.enum(SETTINGS_DATE_FORMATS).optional(),
  timeFormat: z.enum(SETTINGS_TIME_FORMATS).optional(),
  notification: z.strictObject({ enabled: z.number().int().min(0).max(ALL_NOTIFICATION_KINDS) }).optional(),
  layer: z.string().min(1).max(SETTINGS_LAYER_MAX).optional(),
  help: settingsHelpWindow.nullable().optional(),
  dashboard: settingsDashboardLayout.nullable().optional(),
  imports: importMappingSetting.nullable().optional(),
});
/** Any other key is refused (400 error 4, a detail on `body.<key>`). */
export const userSettingsPatchBody = settingsPatchFields.strict();
export type UserSettingsPatch = z.infer<typeof userSettingsPatchBody>;
export type SettingsKey = keyof UserSettingsPatch;
/** The settings a user may keep; stored keys outside it (from before the list) are dropped on read. */
export const SETTINGS_KEYS = Object.keys(settingsPatchFields.shape) as SettingsKey[];
/** The schema of one setting's value (null removes it), to check a stored value on read. */
export const settingSchema = (key: SettingsKey) => settingsPatchFields.shape[key];

/** The user's settings: the spec §3 defaults under what the user saved (also `model.s` of /api/auth). */
export const userSettings = z.strictObject({
  lang: z.enum(LANGUAGES).describe('Interface language'),
  notification: z.object({
    enabled: z.number().int().describe('Notification kinds shown (bit mask)'),
  }),
  dateFormat: z.enum(SETTINGS_DATE_FORMATS),
  timeFormat: z.enum(SETTINGS_TIME_FORMATS),
  layer: z.string().describe('Chosen base map'),
  help: settingsHelpWindow.optional(),
  dashboard: settingsDashboardLayout.optional().describe('Layout of the dashboard sections'),
  imports: importMappingSetting.optional().describe('Remembered import column mappings per kind'),
});
export type UserSettings = z.infer<typeof userSettings>;

// --- units ---

/** `GET /api/user/units`: the units the user can see, of any fleet or none (for admins). */
export const userUnitsReply = unitListReply;

// --- own password ---

/** Shortest password a user may choose ("at least 10 characters"). */
export const PASSWORD_MIN_LENGTH = 10;
/** Longest password accepted (as core session.ts `LOGIN_PASSWORD_MAX`; not imported: session.ts imports this file). */
export const PASSWORD_MAX_LENGTH = 1024;

/** A password being set (not a login attempt): first run, own change, an admin's set or reset. */
export const userNewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `At least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH)
  .describe(`Password, at least ${PASSWORD_MIN_LENGTH} characters`);

/**
 * `PUT /api/user/password`: the current password and the new one. A wrong `old` answers 400 error 4
 * with a detail on `body.old` (and counts as a failed login attempt); a short `new` a detail on
 * `body.new`. The caller's other sessions and API tokens end; the current session stays. A session
 * opened with an API token may not change the password (403).
 */
export const userPasswordBody = z.object({
  old: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  new: userNewPassword,
});
export type UserPasswordBody = z.infer<typeof userPasswordBody>;
