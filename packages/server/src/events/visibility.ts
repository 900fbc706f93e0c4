import { aclSatisfies, type Collection, type FleetNeedName, type LiveEvent } from '@fleetkeep/core';

/** The named need (core `needs.ts`) a session must hold in the event's fleet to receive a collection. */
export const COLLECTION_NEEDS: Record<Collection, FleetNeedName> = {
  fleet: 'fleet.member',
  avl_unit: 'fleet.member',
  driver: 'fleet.member',
  trailer: 'fleet.member',
  customfield: 'fleet.member',
  interval: 'interval.view',
  service: 'service.view',
  notification: 'service.view',
  lineitem: 'lineitem.view',
  fuelfilling: 'fuel.view',
  faultcode: 'faultcode.view',
  assignment: 'assignment.view',
  inspection: 'inspection.submit',
  user: 'fleet.member',
  issue: 'issue.report',
  workorder: 'workorder.view',
};

/**
 * True when a session of `userId` holding `acls` (fleet id → effective acl) may receive the event.
 * Events addressed to a user go to that user only.
 */
export function canReceive(event: LiveEvent, userId: number, acls: ReadonlyMap<number, number>): boolean {
  if (event.uid !== undefined) return event.uid === userId;
  if (event.fid === null) return false;
  const need = COLLECTION_NEEDS[event.s];
  return need !== undefined && aclSatisfies(acls.get(event.fid) ?? 0, need);
}
