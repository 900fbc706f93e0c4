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
  | 'user';

export type EventType = 'c' | 'u' | 'd' | 'e';

export interface LiveEvent<D = unknown> {
  t: EventType;
  s: Collection;
  /** Fleet the change belongs to; null for events addressed to users or accounts only. */
  fid: number | null;
  d: D;
  /** When set, only this user's sessions receive the event. */
  uid?: number;
}

/** Payload of a unit message event (`t: "e"`, `s: "avl_unit"`). */
export interface UnitMessageEvent {
  id: number;
  lmsg: { t: number; p: Record<string, unknown> } | null;
  pos: { t: number; y: number; x: number; s: number | null; c: number | null; z: number | null } | null;
  cnm: number;
  cneh: number;
}

/** User event types of spec §4: 32 forces logout, 64 means the current fleet was updated. */
export const UserEventType = { logout: 32, fleetChanged: 64 } as const;
