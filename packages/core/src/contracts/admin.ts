import { z } from 'zod';
import { LANGUAGES } from '../constants.js';
import { acceptingReadOnly, flag, id, unixTime } from './common.js';
import { LOGIN_NAME_MAX } from './session.js';
import { userNewPassword } from './user.js';

/** Wire contracts of the admin API (spec §7 "Admin", §3 "Account"; DESIGN §3). See common.ts. */

/** An account's activation as `PUT /api/admin/accounts/{id}` answers it. */
export const adminAccountState = z.object({
  id,
  n: z.string().describe('Name'),
  parent: id.nullable().describe('Parent account; null for a top account'),
  s: z.number().int().min(0).max(1).describe('Own activation state: 1 active, 0 suspended'),
  active: flag.describe('Effective state: 0 when this account or one above it is suspended'),
});
export type AdminAccountState = z.infer<typeof adminAccountState>;

/** An account of `GET /api/admin/accounts`, with its fleets. */
export const adminAccountWire = adminAccountState.extend({
  fleets: z.array(z.object({ id, n: z.string().describe('Fleet name') })),
});
export type AdminAccountWire = z.infer<typeof adminAccountWire>;

export const adminAccountsReply = z.object({
  accounts: z.array(adminAccountWire),
  own: z
    .object({ id, n: z.string().describe('Name') })
    .describe(
      "The caller's own account: not in the list (it cannot suspend itself), its users are the caller's to manage",
    ),
});
export type AdminAccountsReply = z.infer<typeof adminAccountsReply>;

/** Longest account name. */
export const ADMIN_ACCOUNT_NAME_MAX = 128;
const accountName = z.string().trim().min(1).max(ADMIN_ACCOUNT_NAME_MAX).describe('Account name');

/** Fields of an account as read that its update ignores: only the activation and the name can be set. */
export const ADMIN_ACCOUNT_READ_ONLY = ['id', 'active', 'fleets'] as const;
/** The parent account: not moved by an update (refused unless equal to the stored one). */
export const ADMIN_ACCOUNT_FIXED = ['parent'] as const;
/**
 * `PUT /api/admin/accounts/{id}`: s = 1 activates, 0 suspends; `n` renames (unique among siblings, 409).
 * At least one of them; the account as read is accepted too.
 */
export const adminAccountBody = acceptingReadOnly(
  z.object({ s: flag.optional(), n: accountName.optional() }),
  ADMIN_ACCOUNT_READ_ONLY,
  ADMIN_ACCOUNT_FIXED,
);
export type AdminAccountBody = z.output<typeof adminAccountBody>;

// --- creating accounts (our route, spec §7 has none) ---

/**
 * `POST /api/admin/accounts`: a subordinate account, active. `parent` defaults to the caller's own
 * account; only a super user may pass null (a new top account). Names are unique among siblings (409).
 */
export const adminAccountCreateBody = z.object({
  n: accountName,
  parent: id.nullable().optional().describe("Parent account; default the caller's own, null: a top account"),
});
export type AdminAccountCreateBody = z.infer<typeof adminAccountCreateBody>;

// --- users of an account (our routes) ---

/** Longest full name (logins: `LOGIN_NAME_MAX` of session.ts). */
export const USER_FULL_NAME_MAX = 128;

/** A user of an account as `GET /api/admin/accounts/{id}/users` lists it. */
export const adminUserWire = z.object({
  id,
  nm: z.string().describe('Login, unique across the installation (case-insensitive)'),
  n: z.string().describe('Full name'),
  lang: z.enum(LANGUAGES).describe('Language'),
  admin: flag.describe('1: account admin (manages the accounts and users of its subtree)'),
  active: flag.describe('0: deactivated, cannot log in'),
  su: flag.describe('1: super user (read-only here)'),
  created: unixTime.describe('Created, Unix seconds'),
});
export type AdminUserWire = z.infer<typeof adminUserWire>;

export const adminUsersReply = z.object({ users: z.array(adminUserWire) });
export type AdminUsersReply = z.infer<typeof adminUsersReply>;

const userFields = {
  nm: z.string().trim().min(1).max(LOGIN_NAME_MAX).describe('Login'),
  n: z.string().trim().max(USER_FULL_NAME_MAX).describe('Full name'),
  lang: z.enum(LANGUAGES),
  admin: flag,
};

/** `POST /api/admin/accounts/{id}/users`: a new active user of the account. */
export const adminUserCreateBody = z.object({
  ...userFields,
  n: userFields.n.default(''),
  lang: userFields.lang.default('en'),
  admin: flag.default(0),
  password: userNewPassword,
});
export type AdminUserCreateBody = z.infer<typeof adminUserCreateBody>;

/** Fields of a user as read that its update ignores. */
export const ADMIN_USER_READ_ONLY = ['id', 'created'] as const;
/** The super-user flag is never set here: refused unless equal to the stored one. */
export const ADMIN_USER_FIXED = ['su'] as const;
/** `PUT /api/admin/users/{id}`: any of login, full name, language, admin, active; the user as read is accepted. */
export const adminUserUpdateBody = acceptingReadOnly(
  z.object({ ...userFields, active: flag }).partial(),
  ADMIN_USER_READ_ONLY,
  ADMIN_USER_FIXED,
);
export type AdminUserUpdateBody = z.output<typeof adminUserUpdateBody>;

/** `PUT /api/admin/users/{id}/password`: sets or resets it; ends that user's sessions and API tokens. */
export const adminUserPasswordBody = z.object({ password: userNewPassword });
