import {
  aclSatisfies,
  type Collection,
  type FleetNeedName,
  type LiveEvent,
  type LiveEventObject,
} from '@fleetkeep/core';

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
 * Per fleet, the unit ids a member limited to assigned units reaches (auth/reach.ts); a fleet missing
 * from the map (or null) means the member reaches every object of it.
 */
export type Reach = ReadonlyMap<number, readonly number[] | null>;

/** Collections whose events name no unit, driver or trailer: fleet settings, the library, forms. */
const FLEET_WIDE: ReadonlySet<Collection> = new Set(['fleet', 'customfield', 'lineitem', 'user']);

type Payload = Record<string, unknown> | null | undefined;
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const kind = (v: unknown): LiveEventObject['t'] | null => (v === 'u' || v === 'd' || v === 't' ? v : null);

/**
 * What a live event concerns (docs/product.md "Vehicle assignments"): an object (unit, driver record,
 * trailer), 'fleet' for a change of no object (a form, a setting, the fleet's list of critical codes),
 * or null when the event does not tell (a deletion by id without `on`).
 */
export function eventObject(event: LiveEvent): LiveEventObject | 'fleet' | null {
  if (event.on) return event.on;
  if (FLEET_WIDE.has(event.s)) return 'fleet';
  const d = event.d as Payload;
  if (!d || typeof d !== 'object') return null;
  switch (event.s) {
    case 'avl_unit':
      return num(d.id) !== null ? { t: 'u', id: d.id as number } : null;
    case 'faultcode':
      if (d.unitId === null) return 'fleet';
      return num(d.unitId) !== null ? { t: 'u', id: d.unitId as number } : null;
    case 'assignment':
    case 'fuelfilling':
      return num(d.uid) !== null ? { t: 'u', id: d.uid as number } : null;
    case 'service': {
      const t = kind(d.t);
      return t && num(d.uid) !== null ? { t, id: d.uid as number } : null;
    }
    case 'issue':
    case 'workorder': {
      const t = kind(d.object_type);
      return t && num(d.object_id) !== null ? { t, id: d.object_id as number } : null;
    }
    case 'inspection':
      // Forms and the retention setting belong to the fleet; a report names its object through `on`.
      return 'formId' in d || 'settings' in d ? 'fleet' : null;
    default:
      return null;
  }
}

/**
 * True when a session of `userId` holding `acls` (fleet id → effective acl) may receive the event.
 * Events addressed to a user go to that user only. A member limited to assigned units (`reach` names
 * the fleet) hears only of the units it reaches and of changes of no object; an event that does not
 * say what it concerns is not sent to such a member.
 */
export function canReceive(
  event: LiveEvent,
  userId: number,
  acls: ReadonlyMap<number, number>,
  reach?: Reach,
): boolean {
  if (event.uid !== undefined) return event.uid === userId;
  if (event.fid === null) return false;
  const need = COLLECTION_NEEDS[event.s];
  if (need === undefined || !aclSatisfies(acls.get(event.fid) ?? 0, need)) return false;
  const units = reach?.get(event.fid);
  if (!units) return true;
  const object = eventObject(event);
  if (object === 'fleet') return true;
  return object !== null && object.t === 'u' && units.includes(object.id);
}
