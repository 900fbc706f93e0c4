import { describe, expect, it } from 'vitest';
import { ACL_ALL, ACL_DRIVER, ACL_SPEC, Acl } from './constants.js';
import {
  aclBit,
  aclNames,
  aclViolations,
  hasAll,
  hasAny,
  isAdminOnly,
  isValidAcl,
  tokenAclMask,
  withDependencies,
  withWorkshopRights,
} from './permissions.js';

describe('acl (spec §6)', () => {
  it('knows an admin-only fleet', () => {
    expect(isAdminOnly(Acl.admin)).toBe(true);
    expect(isAdminOnly(Acl.admin | Acl.viewInterval)).toBe(false);
    expect(isAdminOnly(0)).toBe(false);
  });

  it('checks all and any bits', () => {
    expect(hasAll(Acl.viewInterval | Acl.viewService, Acl.viewService)).toBe(true);
    expect(hasAll(Acl.viewInterval, Acl.viewInterval | Acl.viewService)).toBe(false);
    expect(hasAny(Acl.viewInterval, Acl.viewService | Acl.viewInterval)).toBe(true);
    expect(hasAny(0, Acl.admin)).toBe(false);
  });

  it('denies unknown access names', () => {
    expect(aclBit('viewService')).toBe(64);
    expect(aclBit('deleteFuelfilling')).toBe(512);
    expect(aclBit('launchRockets')).toBeUndefined();
    expect(aclBit('toString')).toBeUndefined();
  });

  it.each([
    ['manageInterval without view', Acl.manageInterval, Acl.viewInterval],
    ['viewService without viewInterval', Acl.viewService, Acl.viewInterval],
    ['manageService alone', Acl.manageService, Acl.viewService | Acl.viewInterval],
    [
      'archiveEdit without manageService',
      Acl.archiveEdit | Acl.viewInterval | Acl.viewService,
      Acl.manageService,
    ],
    [
      'archiveDelete without archiveEdit',
      Acl.archiveDelete | Acl.viewInterval | Acl.viewService | Acl.manageService,
      Acl.archiveEdit,
    ],
    ['viewNotification alone', Acl.viewNotification, Acl.viewInterval | Acl.viewService],
  ])('reports %s', (_label, acl, missing) => {
    expect(isValidAcl(acl)).toBe(false);
    expect(aclViolations(acl).reduce((m, v) => m | v.missing, 0)).toBe(missing);
  });

  it('accepts the demo users’ masks and every mask completed with its dependencies', () => {
    for (const acl of [Acl.admin, ACL_ALL, 194, 66, Acl.viewMap, 0]) expect(isValidAcl(acl)).toBe(true);
    for (let acl = 0; acl <= 1023; acl++) {
      if (acl & 8) continue; // bit 8 is not a permission
      expect(isValidAcl(withDependencies(acl))).toBe(true);
    }
  });

  it('refuses unknown bits', () => {
    expect(isValidAcl(8)).toBe(false);
    expect(isValidAcl(1 << 24)).toBe(false);
    expect(isValidAcl(Acl.viewPart | Acl.managePart)).toBe(true);
    expect(isValidAcl(Acl.manageDocument)).toBe(false);
    expect(isValidAcl(Acl.reportIssue | Acl.manageIssue)).toBe(true);
    expect(isValidAcl(Acl.manageIssue)).toBe(false);
    expect(isValidAcl(-1)).toBe(false);
  });

  it('narrows by personal API token rights, never to administration', () => {
    const none = tokenAclMask({ intervals: 'none', services: 'none', archive: 'none' });
    expect(none).toBe(Acl.viewMap);
    const view = tokenAclMask({ intervals: 'view', services: 'view', archive: 'none' });
    expect(hasAll(view, Acl.viewInterval | Acl.viewService | Acl.viewNotification)).toBe(true);
    expect(hasAny(view, Acl.admin | Acl.manageInterval | Acl.manageService | Acl.archiveEdit)).toBe(false);
    const manage = tokenAclMask({ intervals: 'manage', services: 'manage', archive: 'manage' });
    expect(manage).toBe(ACL_ALL & ~Acl.admin);
  });

  it('keeps token masks within the spec §6 dependencies', () => {
    const rights = ['none', 'view', 'manage'] as const;
    for (const intervals of rights)
      for (const services of rights)
        for (const archive of rights) {
          expect(isValidAcl(tokenAclMask({ intervals, services, archive }))).toBe(true);
        }
    const servicesOnly = tokenAclMask({ intervals: 'none', services: 'view', archive: 'none' });
    expect(hasAll(servicesOnly, Acl.viewService | Acl.viewInterval)).toBe(true);
  });
});

describe('aclNames', () => {
  it('names each bit once, fuel-filling aliases left out, in bit order', () => {
    expect(aclNames(Acl.viewService | Acl.viewInterval)).toBe('viewInterval, viewService');
    expect(aclNames(Acl.archiveDelete | Acl.admin)).toBe('admin, archiveDelete');
    expect(aclNames(0)).toBe('');
  });
});

describe('workshop rights (docs/product.md "Workshop rights")', () => {
  it('follow the service rights', () => {
    expect(withWorkshopRights(Acl.viewInterval)).toBe(Acl.viewInterval);
    expect(withWorkshopRights(Acl.admin)).toBe(Acl.admin);
    const viewer = withWorkshopRights(Acl.viewInterval | Acl.viewService);
    expect(hasAll(viewer, Acl.reportIssue | Acl.viewWorkOrder | Acl.submitInspection)).toBe(true);
    expect(hasAny(viewer, Acl.manageIssue | Acl.manageWorkOrder | Acl.manageInspection)).toBe(false);
    const mechanic = withWorkshopRights(Acl.viewInterval | Acl.viewService | Acl.manageService);
    expect(isValidAcl(mechanic)).toBe(true);
    expect(hasAll(mechanic, Acl.manageWorkOrder | Acl.manageAssignment | Acl.addFuelFilling)).toBe(true);
    expect(withWorkshopRights(ACL_SPEC)).toBe(ACL_ALL);
  });

  it('give the store rights (docs/product.md "Store rights"): documents to the planner', () => {
    const viewer = withWorkshopRights(Acl.viewInterval | Acl.viewService);
    expect(hasAll(viewer, Acl.viewPart | Acl.viewDocument | Acl.viewComponent)).toBe(true);
    expect(hasAny(viewer, Acl.managePart | Acl.manageDocument | Acl.manageComponent)).toBe(false);
    const mechanic = withWorkshopRights(Acl.viewInterval | Acl.viewService | Acl.manageService);
    expect(hasAll(mechanic, Acl.managePart | Acl.manageComponent)).toBe(true);
    expect(hasAny(mechanic, Acl.manageDocument)).toBe(false);
    const planner = withWorkshopRights(Acl.viewInterval | Acl.manageInterval | Acl.viewService);
    expect(hasAll(planner, Acl.manageDocument | Acl.viewDocument)).toBe(true);
    expect(isValidAcl(planner)).toBe(true);
  });

  it('need their lower rights, as the spec §6 ones do', () => {
    expect(withDependencies(Acl.manageWorkOrder)).toBe(
      Acl.manageWorkOrder | Acl.viewWorkOrder | Acl.reportIssue | Acl.viewService | Acl.viewInterval,
    );
    expect(aclViolations(Acl.manageInspection)).toEqual([
      { bit: Acl.manageInspection, missing: Acl.submitInspection },
    ]);
    expect(isValidAcl(ACL_DRIVER)).toBe(true);
  });

  it('come with a managing API token', () => {
    const manage = tokenAclMask({ intervals: 'manage', services: 'manage', archive: 'manage' });
    expect(hasAll(manage, Acl.manageIssue | Acl.manageWorkOrder | Acl.manageInspection)).toBe(true);
    expect(
      hasAny(tokenAclMask({ intervals: 'view', services: 'none', archive: 'none' }), Acl.reportIssue),
    ).toBe(false);
  });
});
