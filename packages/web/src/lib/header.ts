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
