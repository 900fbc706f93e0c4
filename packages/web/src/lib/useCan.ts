import type { NeedName, RouteDef } from '@fleetkeep/core';
import { useMemo } from 'react';
import { permissionsOf } from './permissions.ts';
import { useSession } from './session.ts';

/** A named need (core needs.ts), or a route descriptor (core routes/) whose need is asked. */
export type Asked = NeedName | RouteDef;

/** Whether the signed-in user may do what is asked in the current fleet; a public route is open to all. */
export type CanAsk = (asked: Asked) => boolean;

/** The session's auth reply, or null before sign-in. */
function useAuth() {
  const session = useSession();
  return session.status === 'authenticated' ? session.auth : null;
}

/**
 * Whether the signed-in user may do `asked` in the current fleet (core `can()`, spec §6): the one way a
 * screen asks, by the route it is about to call (`useCan(routes.services.update)`) or by a need name
 * (`useCan('service.manage')`). Changes with the fleet switch and the auth reply.
 */
export function useCan(asked: Asked): boolean {
  return usePermissions()(asked);
}

/** The permission predicate of the current fleet, for screens that ask several needs or pass it to rules. */
export function usePermissions(): CanAsk {
  const auth = useAuth();
  return useMemo(() => {
    const can = permissionsOf(auth);
    return (asked: Asked) => {
      const need = typeof asked === 'string' ? asked : asked.need;
      return need === 'public' || can(need);
    };
  }, [auth]);
}
