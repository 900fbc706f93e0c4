import { Acl, type Collection, type LiveEvent } from '@fleetkeep/core';

/** Acl bits a session needs in the event's fleet to receive events of a collection (spec §6). */
const NEEDS: Record<Collection, { any?: number; all?: number }> = {
  fleet: {},
  avl_unit: {},
  driver: {},
  trailer: {},
  customfield: {},
  interval: { all: Acl.viewInterval },
  service: { all: Acl.viewService },
  notification: { all: Acl.viewService },
  lineitem: { any: Acl.viewService | Acl.viewInterval },
  user: {},
};

/**
 * True when a session of `userId` holding `acls` (fleet id → effective acl) may receive the event.
 * Events addressed to a user go to that user only.
 */
export function canReceive(event: LiveEvent, userId: number, acls: ReadonlyMap<number, number>): boolean {
  if (event.uid !== undefined) return event.uid === userId;
  if (event.fid === null) return false;
  const acl = acls.get(event.fid);
  if (!acl) return false;
  const need = NEEDS[event.s];
  if (!need) return false;
  if (need.all !== undefined && (acl & need.all) !== need.all) return false;
  if (need.any !== undefined && (acl & need.any) === 0) return false;
  return true;
}
