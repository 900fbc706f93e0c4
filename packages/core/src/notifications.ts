import { ALL_NOTIFICATION_KINDS, NotificationKind, ServiceFlag } from './constants.js';
import { aclSatisfies } from './needs.js';

/**
 * In-app notifications: who gets one for a service event, and which ones a user's
 * list shows. Pure rules; the server's outbox consumer (modules/notifications/consumer.ts) and routes
 * apply them. The wire shapes and the route decisions are in contracts/notifications.ts.
 */

/** The kind bits in the order of spec §4's table: due, in progress, overdue, closed, rejected. */
export const NOTIFICATION_KIND_BITS: readonly number[] = [
  NotificationKind.upcoming,
  NotificationKind.inProgress,
  NotificationKind.overdue,
  NotificationKind.closed,
  NotificationKind.rejected,
];

/** True for a single kind bit (DESIGN §6: 1, 2, 4, 8 or 16). */
export function isNotificationKind(value: number): boolean {
  return NOTIFICATION_KIND_BITS.includes(value);
}

/** The kind bits a mask holds, lowest first. */
export function kindsOf(mask: number): number[] {
  return NOTIFICATION_KIND_BITS.filter((k) => (mask & k) !== 0);
}

/**
 * A user's `notification.enabled` (spec §3 user settings; DESIGN §6: all kinds, 31, unless the user
 * saved another mask). Anything that is not an integer mask counts as unset.
 */
export function enabledKinds(settings: unknown): number {
  const enabled = (settings as { notification?: { enabled?: unknown } } | null)?.notification?.enabled;
  if (typeof enabled !== 'number' || !Number.isInteger(enabled) || enabled < 0) return ALL_NOTIFICATION_KINDS;
  return enabled & ALL_NOTIFICATION_KINDS;
}

/** A fleet's in-app set-up, as the rules read it. */
export interface InAppSetupRule {
  id: number;
  /** Switched on. */
  on: boolean;
  /** The kinds it announces (bit mask). */
  k: number;
  /** The users it addresses; empty: every member of the fleet. */
  users: readonly number[];
  /** When it was made, Unix seconds (see `setupExistedAt`). */
  since?: number;
}

/**
 * Whether a notification set-up (in-app, e-mail, bot or webhook) made at `since` hears an event of time
 * `at` (core domain-events `at`): only what happened at or after its creation. The outbox may hand over
 * events from before a set-up existed (a start's backlog, a consumer catching up): that is not news to
 * the set-up. Either time unknown: it hears it.
 */
export function setupExistedAt(since: number | undefined, at: number | undefined): boolean {
  return at === undefined || since === undefined || at >= since;
}

/**
 * The set-up that addresses `userId` for `kind`: the first switched-on one (lowest id) whose kinds and
 * users include them; `null` when the fleet has no set-up at all (a fleet without one announces every
 * kind to every member, so the bell works from the first day); `undefined` when the fleet's set-ups
 * leave the user out. With the event's time `at`, the fleet's set-ups are read as they stood then
 * (`setupExistedAt`): the answer does not depend on how late the event is handed over.
 */
export function setupFor(
  allSetups: readonly InAppSetupRule[],
  userId: number,
  kind: number,
  at?: number,
): number | null | undefined {
  const setups = allSetups.filter((s) => setupExistedAt(s.since, at));
  if (setups.length === 0) return null;
  const match = [...setups]
    .sort((a, b) => a.id - b.id)
    .find((s) => s.on && (s.k & kind) !== 0 && (s.users.length === 0 || s.users.includes(userId)));
  return match?.id;
}

/** A fleet member as the rules read them. */
export interface NotificationCandidate {
  userId: number;
  /** The user's effective acl on the fleet (0 when the fleet or the user's account is suspended). */
  acl: number;
  /** The user's `notification.enabled` (see `enabledKinds`). */
  enabled: number;
  /**
   * When the user could first see the fleet (joined it with the view right, or gained that right).
   * Events before it are not theirs (docs/product.md "Notifications of a new member"); absent: always.
   */
  since?: number;
}

export interface NotificationRecipient {
  userId: number;
  /** The set-up that addressed the user; null for the fleet default (no set-up). */
  setupId: number | null;
}

/**
 * Who gets an in-app notification of `kind` in a fleet (spec §4 "A notification is created only if the
 * user's notification.enabled mask includes its kind"; spec §6 "Notifications are initialised only if
 * the acl includes viewService"): members who may view services, whose mask includes the kind, and whom
 * a set-up of the fleet addresses for that kind (with the event's time `at`: as the set-ups stood then).
 */
export function notificationRecipients(
  kind: number,
  candidates: readonly NotificationCandidate[],
  setups: readonly InAppSetupRule[],
  at?: number,
): NotificationRecipient[] {
  if (!isNotificationKind(kind)) return [];
  const out: NotificationRecipient[] = [];
  const seen = new Set<number>();
  for (const c of candidates) {
    if (seen.has(c.userId)) continue;
    if (!aclSatisfies(c.acl, 'service.view')) continue;
    if ((c.enabled & kind) === 0) continue;
    if (at !== undefined && c.since !== undefined && at < c.since) continue;
    const setupId = setupFor(setups, c.userId, kind, at);
    if (setupId === undefined) continue;
    seen.add(c.userId);
    out.push({ userId: c.userId, setupId });
  }
  return out;
}

/** The kinds that warn about an open service (due, overdue). */
export const WARNING_KINDS = NotificationKind.upcoming | NotificationKind.overdue;
/** The service flags after which such a warning no longer applies (in progress, closed, rejected). */
export const SETTLED_FLAGS = ServiceFlag.inProgress | ServiceFlag.closed | ServiceFlag.rejected;

/**
 * Spec §4 "A notification view returns nothing for in-progress, closed or rejected records": a due or
 * overdue warning whose service has since gone in progress, closed or rejected shows nothing. (The
 * notifications of those very changes, kinds 2, 8 and 16, stay visible: read literally, the rule would
 * hide every one of them, and spec §4 lists them as kinds with titles.) `serviceFlags` null: the
 * notification names no service (a test notification), which always shows.
 */
export function isSettledWarning(kind: number, serviceFlags: number | null): boolean {
  if (serviceFlags === null) return false;
  return (kind & WARNING_KINDS) !== 0 && (serviceFlags & SETTLED_FLAGS) !== 0;
}

/**
 * The read time a new notification starts with: read at once for the user whose own change caused it
 * ("a change the user made themselves counts as read"; spec §4 "A new live notification counts
 * as read only if the current user created it"), unread (null) for everyone else.
 */
export function initialReadTime(recipientId: number, causedBy: number | null, at: number): number | null {
  return causedBy !== null && causedBy === recipientId ? at : null;
}

/** The path a notification entry links to (spec §2 "A notification entry links to /service/{id}"). */
export function notificationLink(serviceId: number | null): string | null {
  return serviceId === null ? null : `/service/${serviceId}`;
}

/** The kind a test notification of a set-up announces: its lowest kind. */
export function testKindOf(mask: number): number {
  return kindsOf(mask)[0] ?? NotificationKind.upcoming;
}
