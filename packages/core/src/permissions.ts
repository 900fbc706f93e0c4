import { ACL_ALL, Acl, type AclName } from './constants.js';

/**
 * Dependencies of the permission editor (spec §6 "Permission editor groups and dependencies"):
 * each bit lists the bits it cannot be granted without.
 */
export const ACL_REQUIRES: Readonly<Record<number, number>> = {
  [Acl.manageInterval]: Acl.viewInterval,
  [Acl.viewService]: Acl.viewInterval,
  [Acl.manageService]: Acl.viewService | Acl.viewInterval,
  [Acl.archiveEdit]: Acl.viewInterval | Acl.viewService | Acl.manageService,
  [Acl.archiveDelete]: Acl.archiveEdit | Acl.viewInterval | Acl.viewService | Acl.manageService,
  [Acl.viewNotification]: Acl.viewInterval | Acl.viewService,
  // The workshop bits (constants.ts): managing needs the lower right; a work order links issues and
  // due services, so managing one reads them.
  [Acl.manageIssue]: Acl.reportIssue,
  [Acl.manageWorkOrder]: Acl.viewWorkOrder | Acl.reportIssue | Acl.viewService | Acl.viewInterval,
  [Acl.manageInspection]: Acl.submitInspection,
  // The store bits: managing needs viewing.
  [Acl.managePart]: Acl.viewPart,
  [Acl.manageDocument]: Acl.viewDocument,
  [Acl.manageComponent]: Acl.viewComponent,
};

/**
 * The rights beyond spec §6 that follow its service and interval rights (docs/product.md "Workshop
 * rights", "Store rights"): who views services reports issues, views work orders, submits inspections
 * and reads parts, documents and components; who manages services manages all of the workshop, parts
 * and components and adds fuel fillings; who manages intervals (the planner) manages documents.
 * Migrations 033 and 038 gave existing members these, and API tokens derive theirs the same way.
 */
export function withWorkshopRights(acl: number): number {
  let out = acl;
  if (out & Acl.viewService)
    out |=
      Acl.reportIssue |
      Acl.viewWorkOrder |
      Acl.submitInspection |
      Acl.viewPart |
      Acl.viewDocument |
      Acl.viewComponent;
  if (out & Acl.manageService)
    out |=
      Acl.manageIssue |
      Acl.manageWorkOrder |
      Acl.manageInspection |
      Acl.manageAssignment |
      Acl.addFuelFilling |
      Acl.managePart |
      Acl.manageComponent;
  if (out & Acl.manageInterval && out & Acl.viewService) out |= Acl.manageDocument;
  return out;
}

/** True when `acl` holds every bit of `bits`. */
export function hasAll(acl: number, bits: number): boolean {
  return (acl & bits) === bits;
}

/** True when `acl` holds at least one bit of `bits`. */
export function hasAny(acl: number, bits: number): boolean {
  return (acl & bits) !== 0;
}

/** An acl equal to admin alone means an admin-only fleet (spec §6). */
export function isAdminOnly(acl: number): boolean {
  return acl === Acl.admin;
}

/** Resolves an access name; an unknown name is denied (spec §6), the caller logs it. */
export function aclBit(name: string): number | undefined {
  return Object.hasOwn(Acl, name) ? Acl[name as AclName] : undefined;
}

/** The bits of `acl` whose dependencies are missing, each with what it lacks. */
export function aclViolations(acl: number): { bit: number; missing: number }[] {
  const out: { bit: number; missing: number }[] = [];
  for (const [bitText, required] of Object.entries(ACL_REQUIRES)) {
    const bit = Number(bitText);
    if (acl & bit && !hasAll(acl, required)) out.push({ bit, missing: required & ~acl });
  }
  return out;
}

/** A membership acl is valid when it uses known bits only and satisfies the dependencies. */
export function isValidAcl(acl: number): boolean {
  return Number.isInteger(acl) && acl >= 0 && (acl & ~ACL_ALL) === 0 && aclViolations(acl).length === 0;
}

/** Adds whatever the granted bits depend on, as the permission editor does when a box is ticked. */
export function withDependencies(acl: number): number {
  let out = acl;
  for (const [bitText, required] of Object.entries(ACL_REQUIRES)) {
    if (out & Number(bitText)) out |= required;
  }
  // archiveDelete requires archiveEdit, whose own requirements were added in the same pass only if
  // archiveEdit came first; one more pass settles the chain.
  for (const [bitText, required] of Object.entries(ACL_REQUIRES)) {
    if (out & Number(bitText)) out |= required;
  }
  return out;
}

/** Rights of a personal API token per area (PRODUCT.md "API tokens"). */
export type TokenRight = 'none' | 'view' | 'manage';
export interface TokenRights {
  intervals: TokenRight;
  services: TokenRight;
  archive: TokenRight;
}

/**
 * The acl bits a personal API token leaves to its user in each fleet (PRODUCT.md "API tokens"). A
 * token never administers (telematics ingestion aside, see the server's access check); its rights
 * bring what they depend on (spec §6), so services 'view' also reads intervals, and archive 'manage'
 * also manages services.
 */
export function tokenAclMask(rights: TokenRights): number {
  let mask: number = Acl.viewMap;
  if (rights.intervals !== 'none') mask |= Acl.viewInterval;
  if (rights.intervals === 'manage') mask |= Acl.manageInterval;
  if (rights.services !== 'none') mask |= Acl.viewService;
  if (rights.services === 'manage') mask |= Acl.manageService;
  if (rights.archive === 'manage') mask |= Acl.archiveEdit | Acl.archiveDelete;
  mask = withWorkshopRights(withDependencies(mask));
  if (hasAll(mask, Acl.viewInterval | Acl.viewService)) mask |= Acl.viewNotification;
  return mask;
}

/**
 * The spec §6 names of the bits of a mask, in bit order ('viewInterval, viewService'); the fuel-filling
 * names share their bits with the service ones and are left out.
 */
export function aclNames(acl: number): string {
  const names: string[] = [];
  for (const [name, bit] of Object.entries(Acl)) {
    if (acl & bit && !names.some((n) => Acl[n as AclName] === bit)) names.push(name);
  }
  return names.sort((a, b) => Acl[a as AclName] - Acl[b as AclName]).join(', ');
}
