/** Live events over the websocket `/events` (DESIGN §6), shared by server and web. */

/** Client collections of spec §3. `user` carries events meant for one user (spec §4 type 32/64). */
export type Collection =
  | 'fleet'
  | 'avl_unit'
  | 'driver'
  | 'trailer'
  | 'interval'
  | 'service'
  | 'lineitem'
  | 'notification'
  | 'customfield'
  | 'fuelfilling'
  | 'faultcode'
  | 'assignment'
  | 'inspection'
  | 'user'
  | 'issue'
  | 'workorder';

export type EventType = 'c' | 'u' | 'd' | 'e';

export interface LiveEvent<D = unknown> {
  t: EventType;
  s: Collection;
  /** Fleet the change belongs to; null for events addressed to users or accounts only. */
  fid: number | null;
  d: D;
  /** When set, only this user's sessions receive the event. */
  uid?: number;
  /**
   * Server side only: the session whose request caused the change. It is never sent; the sockets of
   * that session receive `own: 1` instead, so that its page does not tell its user about their own
   * change ("other users of the fleet get the dialog").
   */
  by?: number | null;
  /** On the wire: the receiving session made this change itself. */
  own?: 1;
  /**
   * Server side only, never sent: the unit or trailer the change concerns when its payload does not
   * name it (a deletion by id, an inspection's `{id}`), so that members limited to their assigned units
   * hear only of those (server `events/visibility.ts`).
   */
  on?: LiveEventObject;
}

/** The object a live event concerns: a unit, a driver record or a trailer. */
export interface LiveEventObject {
  t: 'u' | 'd' | 't';
  id: number;
}

/**
 * Payload of a fault-code change (`t: "u"`, `s: "faultcode"`): a code of the unit appeared, reopened, was
 * seen again or was cleared, or the fleet's critical codes changed; the unit page reads the list again.
 */
export interface FaultCodeChangeEvent {
  /** The unit; null when the fleet's list of critical codes changed. */
  unitId: number | null;
}

/**
 * Payload of a vehicle assignment change (`s: "assignment"`, t c/u/d): the assignment as read (c, u) or
 * its id and unit (d); lists and unit pages read theirs again.
 */
export interface AssignmentChangeEvent {
  id: number;
  uid: number;
}

/** Payload of a unit message event (`t: "e"`, `s: "avl_unit"`). */
export interface UnitMessageEvent {
  id: number;
  lmsg: { t: number; p: Record<string, unknown> } | null;
  pos: { t: number; y: number; x: number; s: number | null; c: number | null; z: number | null } | null;
  cnm: number;
  cneh: number;
}

/**
 * User event types of spec §4: 32 forces logout, 64 means the current fleet was updated. 128 (ours, issue
 * 12) reports the progress of the user's running import: `ImportProgressEvent`.
 */
export const UserEventType = { logout: 32, fleetChanged: 64, importProgress: 128 } as const;

/**
 * Payload of an import's progress (`t: "e"`, `s: "user"`, type 128), sent to the importing user only while
 * the server checks and writes a batch import: `id` is the one the client named in its request, `phase`
 * what the server is doing, `done` of `total` rows checked, then records written (all or none: written
 * rows are committed together at the end).
 */
export interface ImportProgressEvent {
  type: typeof UserEventType.importProgress;
  id: string;
  fid: number;
  phase: 'check' | 'write';
  done: number;
  total: number;
}
