import { z } from 'zod';
import { acceptingReadOnly, flag, id } from './common.js';

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

export const adminAccountsReply = z.object({ accounts: z.array(adminAccountWire) });
export type AdminAccountsReply = z.infer<typeof adminAccountsReply>;

/** Fields of an account as read that its update ignores: only the activation can be set. */
export const ADMIN_ACCOUNT_READ_ONLY = ['id', 'n', 'parent', 'active', 'fleets'] as const;
/** `PUT /api/admin/accounts/{id}`: s = 1 activates, 0 suspends; the account as read is accepted too. */
export const adminAccountBody = acceptingReadOnly(z.object({ s: flag }), ADMIN_ACCOUNT_READ_ONLY);
