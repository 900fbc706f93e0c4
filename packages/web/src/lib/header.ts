import { NotificationKind } from '@fleetkeep/core';

/** Small display rules of the header (spec §2 "Header and menus", "Notification bell"; spec §9). */

/** A tooltip with the full name appears when the user name exceeds 14 characters... */
export const USER_NAME_TOOLTIP_OVER = 14;
/** ...or the fleet name is 15 or more. */
export const FLEET_NAME_TOOLTIP_FROM = 15;
/** The unread counter is capped at 99 (shown 99+). */
export const UNREAD_CAP = 99;

export function userNameNeedsTooltip(name: string): boolean {
  return name.length > USER_NAME_TOOLTIP_OVER;
}

export function fleetNameNeedsTooltip(name: string): boolean {
  return name.length >= FLEET_NAME_TOOLTIP_FROM;
}

/** The bell's badge: nothing for no unread notifications, else the count capped as 99+. */
export function unreadLabel(count: number): string | null {
  if (count <= 0) return null;
  return count > UNREAD_CAP ? `${UNREAD_CAP}+` : String(count);
}

/**
 * The translation key of each notification kind's title (spec §4 table), in the table's order: the bell,
 * the bubbles and the fleet's notification set-ups name kinds alike.
 */
export const NOTIFICATION_KIND_TITLE: Readonly<Record<number, string>> = {
  [NotificationKind.upcoming]: 'notifications.kindDue',
  [NotificationKind.inProgress]: 'notifications.kindInProgress',
  [NotificationKind.overdue]: 'notifications.kindOverdue',
  [NotificationKind.rejected]: 'notifications.kindRejected',
  [NotificationKind.closed]: 'notifications.kindClosed',
};
export const NOTIFICATION_KINDS: readonly number[] = [
  NotificationKind.upcoming,
  NotificationKind.inProgress,
  NotificationKind.overdue,
  NotificationKind.rejected,
  NotificationKind.closed,
];

export function kindTitleKey(kind: number): string {
  return NOTIFICATION_KIND_TITLE[kind] ?? 'notifications.kindDue';
}

/** The kinds a mask holds, in the order of spec §4's table. */
export function notificationKindsOf(mask: number): number[] {
  return NOTIFICATION_KINDS.filter((k) => (mask & k) !== 0);
}
