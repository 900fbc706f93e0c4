import { z } from 'zod';
import { LANGUAGES, Limits } from '../constants.js';
import { TZ_DST_EUROPE, TZ_DST_SOUTH } from '../timezone.js';
import { flag } from './common.js';
import { FLEET_CURRENCY_MAX } from './fleets.js';
import { LOGIN_NAME_MAX } from './session.js';
import { userNewPassword } from './user.js';

/**
 * Wire contracts of the first run: on a database without any user, `POST /api/setup`
 * creates the top account, the super user and a first fleet, once. The same rules serve the
 * `npm run admin -- create-superuser` command and the web's set-up form.
 */

/** Range of a fleet time zone's UTC offset in minutes (UTC−12:00 … UTC+14:00, spec §5 "Time zone"). */
export const SETUP_TZ_OFFSET_MIN = -12 * 60;
export const SETUP_TZ_OFFSET_MAX = 14 * 60;

/**
 * A fleet time-zone code as core `timezone.ts` reads it: the offset in minutes as a 16-bit two's
 * complement in the low bits, optionally the European or southern daylight-saving flag above; offsets
 * in quarter hours within UTC−12 … UTC+14. A negative JSON number is refused: its high bits would read
 * as daylight-saving flags.
 */
export function isSetupTz(tz: number): boolean {
  if (!Number.isInteger(tz) || tz < 0 || tz > 0xffffffff) return false;
  if ((tz & ~(0xffff | TZ_DST_EUROPE | TZ_DST_SOUTH)) !== 0) return false;
  const offset = (tz << 16) >> 16;
  return offset >= SETUP_TZ_OFFSET_MIN && offset <= SETUP_TZ_OFFSET_MAX && offset % 15 === 0;
}

/** `GET /api/setup` (public). */
export const setupStateReply = z.object({
  needed: z.boolean().describe('True while no user exists: the set-up screen is shown instead of the login'),
});
export type SetupStateReply = z.infer<typeof setupStateReply>;

/** `POST /api/setup` (public; only while no user exists). */
export const setupBody = z.object({
  organisation: z
    .string()
    .trim()
    .min(1)
    .max(Limits.stringMax)
    .describe('Organisation: the top account and the first fleet are named after it'),
  name: z.string().trim().min(1).max(Limits.stringMax).describe("The super user's full name"),
  login: z.string().trim().min(1).max(LOGIN_NAME_MAX).describe("The super user's login"),
  password: userNewPassword,
  lang: z.enum(LANGUAGES).describe("The super user's language"),
  ms: flag.describe('Distance unit of the first fleet: 0 km, 1 miles'),
  fm: z.union([z.literal(1), z.literal(2)]).describe('Fuel unit of the first fleet: 1 litres, 2 US gallons'),
  tz: z
    .number()
    .int()
    .refine(isSetupTz, 'Not a time-zone code')
    .describe('Time zone of the first fleet (spec §5 encoding: offset and daylight-saving flags)'),
  cur: z.string().trim().max(FLEET_CURRENCY_MAX).optional().describe('Currency text of the first fleet'),
});
export type SetupBody = z.infer<typeof setupBody>;
