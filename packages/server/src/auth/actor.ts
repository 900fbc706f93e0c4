import { ACL_ALL } from '@fleetkeep/core';

/** The authenticated caller of a request, resolved once by the auth hook. */
export interface Actor {
  userId: number;
  name: string;
  accountId: number;
  su: boolean;
  admin: boolean;
  /** Session row id; null when the call is authorised by a personal API token directly. */
  sessionId: number | null;
  /** Acl bits the credential leaves to the user (all for a password login; narrowed for API tokens). */
  aclMask: number;
  /** Id of the API token behind the call, if any. */
  apiTokenId: number | null;
}

export const FULL_MASK = ACL_ALL;
