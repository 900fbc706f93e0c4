import { ACL_REQUIRES, Acl, withDependencies } from '@fleetkeep/core';

/**
 * Rules of the permission editor (spec §6 "Permission editor groups and dependencies"), pure and built on
 * core `ACL_REQUIRES`/`withDependencies`. Fuel fillings share the service bits and archiveDelete (spec §6),
 * so they get no boxes of their own: the Services group says so. Ticking a right switches on what it
 * requires, unticking one switches off what requires it. Spec §6 "granting manage rights hides the lower
 * ones" is shown as docs/product.md "Rights editor" decides: every box stays in place, and a right that
 * another ticked right requires shows ticked and cannot be unticked on its own (`implied`).
 */

/** One checkbox of the editor: its translation key and bit. */
export interface AclBox {
  key: string;
  bit: number;
}

/** One group of the editor (spec §6), in display order. */
export interface AclGroup {
  key: string;
  boxes: readonly AclBox[];
}

export const ACL_GROUPS: readonly AclGroup[] = [
  {
    key: 'intervals',
    boxes: [
      { key: 'view', bit: Acl.viewInterval },
      { key: 'manage', bit: Acl.manageInterval },
    ],
  },
  {
    key: 'services',
    boxes: [
      { key: 'view', bit: Acl.viewService },
      { key: 'manage', bit: Acl.manageService },
    ],
  },
  {
    key: 'archive',
    boxes: [
      { key: 'manage', bit: Acl.archiveEdit },
      { key: 'delete', bit: Acl.archiveDelete },
    ],
  },
  {
    key: 'issues',
    boxes: [
      { key: 'report', bit: Acl.reportIssue },
      { key: 'manage', bit: Acl.manageIssue },
    ],
  },
  {
    key: 'workOrders',
    boxes: [
      { key: 'view', bit: Acl.viewWorkOrder },
      { key: 'manage', bit: Acl.manageWorkOrder },
    ],
  },
  {
    key: 'inspections',
    boxes: [
      { key: 'submit', bit: Acl.submitInspection },
      { key: 'manage', bit: Acl.manageInspection },
    ],
  },
  { key: 'assignments', boxes: [{ key: 'manage', bit: Acl.manageAssignment }] },
  { key: 'fuel', boxes: [{ key: 'add', bit: Acl.addFuelFilling }] },
  {
    key: 'parts',
    boxes: [
      { key: 'view', bit: Acl.viewPart },
      { key: 'manage', bit: Acl.managePart },
    ],
  },
  {
    key: 'documents',
    boxes: [
      { key: 'view', bit: Acl.viewDocument },
      { key: 'manage', bit: Acl.manageDocument },
    ],
  },
  {
    key: 'components',
    boxes: [
      { key: 'view', bit: Acl.viewComponent },
      { key: 'manage', bit: Acl.manageComponent },
    ],
  },
  { key: 'geolocation', boxes: [{ key: 'view', bit: Acl.viewMap }] },
  { key: 'notifications', boxes: [{ key: 'view', bit: Acl.viewNotification }] },
  { key: 'admin', boxes: [{ key: 'admin', bit: Acl.admin }] },
];

/** The acl after ticking `bit`: the bit and everything it requires (core `withDependencies`). */
export function tick(acl: number, bit: number): number {
  return withDependencies(acl | bit);
}

/** The acl after unticking `bit`: the bit goes, and so does every right that requires it, transitively. */
export function untick(acl: number, bit: number): number {
  let out = acl & ~bit;
  let changed = true;
  while (changed) {
    changed = false;
    for (const [bitText, required] of Object.entries(ACL_REQUIRES)) {
      const dependent = Number(bitText);
      if (out & dependent && (out & required) !== required) {
        out &= ~dependent;
        changed = true;
      }
    }
  }
  return out;
}

/** Sets or clears a box. */
export function toggle(acl: number, bit: number, on: boolean): number {
  return on ? tick(acl, bit) : untick(acl, bit);
}

/**
 * Whether a ticked right is required by another ticked right (core `ACL_REQUIRES`): it shows ticked and
 * disabled, so the row never changes shape under the mouse; unticking the right that requires it frees
 * it again.
 */
export function implied(acl: number, bit: number): boolean {
  if ((acl & bit) === 0) return false;
  return Object.entries(ACL_REQUIRES).some(
    ([other, required]) => Number(other) !== bit && (acl & Number(other)) !== 0 && (required & bit) !== 0,
  );
}
