import { can, type NeedName, type NeedSubject } from '@fleetkeep/core';

/**
 * The web's one permission idiom (spec §6): "may the user do that in the current fleet" is a named need
 * of core `needs.ts`, answered by core `can()`, which also applies the rule that keeps super users and
 * admin-only fleets out of the operational screens. Screens ask `useCan(need)` (lib/useCan.ts); pure
 * rules take a `Can` so that their tests stay free of React and of the session.
 */
export type Can = (need: NeedName) => boolean;

/** What the authentication reply says about the user, as far as permissions go. */
export interface PermissionSource {
  su: number | boolean;
  admin: number | boolean;
  fleets: readonly { id: number; acl: number }[];
  fid: number | null;
}

/** The acl of the user's current fleet (undefined without one). */
export function currentFleetAcl(auth: PermissionSource): number | undefined {
  return auth.fid === null ? undefined : auth.fleets.find((f) => f.id === auth.fid)?.acl;
}

/** The permission predicate of a user and one fleet acl. */
export function canWith(subject: NeedSubject, fleetAcl: number | undefined): Can {
  return (need) => can(subject, need, fleetAcl);
}

/** The permission predicate of a signed-in user in the current fleet; nothing is allowed without one. */
export function permissionsOf(auth: PermissionSource | null): Can {
  if (auth === null) return () => false;
  return canWith({ su: Boolean(auth.su), admin: Boolean(auth.admin) }, currentFleetAcl(auth));
}
