import type { NeedName } from '@fleetkeep/core';
import { useMemo } from 'react';
import { type Can, permissionsOf } from '../lib/permissions.ts';
import { useSession } from './session.ts';

/** The session's auth reply, or null before sign-in. */
function useAuth() {
  const session = useSession();
  return session.status === 'authenticated' ? session.auth : null;
}

/**
 * Whether the signed-in user may do `need` in the current fleet (core `can()`, spec §6): the one way a
 * screen asks, e.g. `useCan('service.manage')`. Changes with the fleet switch and the auth reply.
 */
export function useCan(need: NeedName): boolean {
  return usePermissions()(need);
}

/** The permission predicate of the current fleet, for screens that ask several needs or pass it to rules. */
export function usePermissions(): Can {
  const auth = useAuth();
  return useMemo(() => permissionsOf(auth), [auth]);
}
