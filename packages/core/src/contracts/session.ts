import { z } from 'zod';
import { LANGUAGES } from '../constants.js';
import { flag, id } from './common.js';
import { fleetWire } from './fleets.js';
import { userSettings } from './user.js';

/** Wire contracts of sessions (DESIGN §4; spec §3 "Session / user", §7 "Session and platform"). */

export const LOGIN_NAME_MAX = 128;
export const LOGIN_PASSWORD_MAX = 1024;
/** Longest login or API token `GET /api/auth` takes. */
export const ACCESS_TOKEN_MAX = 256;

/**
 * The login throttle (DESIGN §4 "rate limited per user name and address"), shared by every instance
 * through the database. Failed passwords are counted in three sliding windows:
 * - per user name and address: a guesser at one address, or the user's own typos;
 * - per address for any name: one address trying many names;
 * - per user name from all addresses, with a high limit: only a large distributed attack reaches it,
 *   so that a few addresses that know a login (root, admin) cannot lock its owner out (OWASP: lockout
 *   as denial of service). The right password from an address without failures signs in while the
 *   guessing addresses are throttled.
 * Once a count reaches its limit, the next try of that pair, address or name answers 429 `{error: 9}`
 * with `Retry-After` until the lock after the last failure ends; each further failure doubles the lock,
 * up to `LOGIN_LOCK_MAX_SECONDS`. A successful login clears the name's failures from its address.
 */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Failures of one user name from one address within the window that lock that pair. */
export const LOGIN_PAIR_FAILURES_MAX = 10;
/** Failures from one address, for any names, within the window that lock the address. */
export const LOGIN_ADDRESS_FAILURES_MAX = 30;
/** The window of the count of one user name from all addresses. */
export const LOGIN_NAME_WINDOW_SECONDS = 60 * 60;
/** Failures of one user name from all addresses within its window that lock the name. */
export const LOGIN_NAME_FAILURES_MAX = 100;
/** The first lock; it doubles with each failure over the limit. */
export const LOGIN_LOCK_SECONDS = 60;
/** The longest lock. */
export const LOGIN_LOCK_MAX_SECONDS = 5 * 60;

/** `POST /api/login`. */
export const sessionLoginBody = z.object({
  username: z.string().min(1).max(LOGIN_NAME_MAX),
  password: z.string().min(1).max(LOGIN_PASSWORD_MAX),
});
export const sessionLoginReply = z.object({
  access_token: z.string().describe('Login token for GET /api/auth; lives 30 days after its last use'),
});
export type SessionLoginReply = z.infer<typeof sessionLoginReply>;

/** `GET /api/auth?access_token=`: a login token or a personal API token. */
export const sessionAuthQuery = z.object({ access_token: z.string().min(1).max(ACCESS_TOKEN_MAX) });

const localizedLink = z.object({ url: z.string(), langs: z.array(z.string()) });

/** The authentication reply of spec §3. */
export const sessionAuthReply = z.object({
  session: z.string().describe('Session id: send as `Authorization: SSID <session>`'),
  classes: z
    .object({ avl_unit: z.number().int(), driver: z.number().int(), trailer: z.number().int() })
    .describe('Class codes of the service objects'),
  features: z.object({ fuel_fillings: flag, reports: flag, migration: flag }),
  user: z.object({ id, nm: z.string().describe('Full name, else the login') }),
  admin: z.number().int().describe('1 for an account admin'),
  su: z.number().int().describe('1 for a super user'),
  unit_types: z.array(z.object({ id, n: z.string() })),
  docs: localizedLink.nullable().describe('Documentation site; null when not configured'),
  gis: z.object({ url: z.string().nullable().describe('Platform tile layer; null without GIS_URL') }),
  gis_sid: z.string().nullable().describe('Session id for tile requests; null without a tile layer'),
  model: z.object({ s: userSettings }),
  is_local: z.literal(1),
  langs: z.array(z.enum(LANGUAGES)),
  fleets: z.array(fleetWire),
  fid: id.nullable().describe('Current fleet'),
  config: z.object({
    notification: z
      .record(z.string(), z.string())
      .nullable()
      .describe('Operator notice per language; null when none'),
    shutdownNotification: z
      .object({
        sdf: z.number().int().describe('From, Unix seconds'),
        sdt: z.number().int().nullable().describe('To, Unix seconds; null when open'),
      })
      .nullable(),
    forum: localizedLink.nullable(),
    trackers: z
      .object({
        url: z
          .string()
          .describe('Public address of the server (PUBLIC_URL); OsmAnd readings go to /api/ingest/osmand'),
        osmand: z
          .number()
          .int()
          .nullable()
          .describe('OsmAnd / Traccar Client port (OSMAND_PORT); null when off'),
        teltonika: z
          .number()
          .int()
          .nullable()
          .describe('Teltonika TCP port, Codec 8 / 8 Extended (TELTONIKA_PORT); null when off'),
      })
      .describe('Where trackers send their readings (DESIGN §3), for the getting-started checklist'),
  }),
});
export type SessionAuthReply = z.infer<typeof sessionAuthReply>;

/** Session properties the platform call takes (spec §7). */
export const SESSION_PROPERTIES = ['skip_nonactive_items'] as const;
/** `POST /api/remoteapi/core/set_session_property`. */
export const sessionPropertyBody = z.object({
  prop_name: z.enum(SESSION_PROPERTIES),
  prop_value: z.union([z.number(), z.string()]),
});
