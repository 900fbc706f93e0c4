import { ACL_ALL, Acl, type NeedName } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { currentFleetAcl, type PermissionSource, permissionsOf } from './permissions.ts';

const member = (acl: number, extra: Partial<PermissionSource> = {}): PermissionSource => ({
  su: 0,
  admin: 0,
  fleets: [
    { id: 10, acl },
    { id: 11, acl: ACL_ALL },
  ],
  fid: 10,
  ...extra,
});

/** The demo users of DESIGN §8 as their auth replies describe them. */
const USERS = {
  // A super user outside the fleet: the role's admin bit only.
  root: { su: 1, admin: 0, fleets: [{ id: 10, acl: Acl.admin }], fid: 10 },
  // A super user who is a member with every right (the set-up's first user in the first fleet).
  rootMember: { su: 1, admin: 0, fleets: [{ id: 10, acl: ACL_ALL }], fid: 10 },
  admin: member(Acl.admin, { admin: 1 }),
  manager: member(ACL_ALL),
  mechanic: member(Acl.viewInterval | Acl.viewService | Acl.manageService),
  viewer: member(Acl.viewInterval | Acl.viewService),
  noFleet: member(ACL_ALL, { fid: null }),
} satisfies Record<string, PermissionSource>;

const WEB_NEEDS: NeedName[] = [
  'interval.manage',
  'service.manage',
  'archive.edit',
  'archive.delete',
  'object.edit',
  'fuel.manage',
  'map.view',
  'lineitem.manage',
  'account.admin',
];

const allowed = (user: PermissionSource) => WEB_NEEDS.filter((need) => permissionsOf(user)(need));

describe('permissions of the current fleet (spec §6, core can())', () => {
  it('reads the acl of the current fleet only', () => {
    expect(currentFleetAcl(USERS.viewer)).toBe(Acl.viewInterval | Acl.viewService);
    expect(currentFleetAcl(USERS.noFleet)).toBeUndefined();
    expect(currentFleetAcl({ ...USERS.viewer, fid: 99 })).toBeUndefined();
  });

  it('gives each demo user the needs of their acl', () => {
    expect(allowed(USERS.manager)).toEqual(WEB_NEEDS.filter((n) => n !== 'account.admin'));
    expect(allowed(USERS.mechanic)).toEqual([
      'service.manage',
      'object.edit',
      'fuel.manage',
      'lineitem.manage',
    ]);
    expect(allowed(USERS.viewer)).toEqual([]);
    expect(allowed(USERS.admin)).toEqual(['object.edit', 'account.admin']);
    expect(allowed(USERS.noFleet)).toEqual([]);
  });

  it('keeps super users outside the fleet out of the operational needs, not out of the others', () => {
    const root = permissionsOf(USERS.root);
    expect(root('lineitem.manage')).toBe(false);
    expect(root('items.view')).toBe(false);
    expect(root('fleet.admin')).toBe(true);
    expect(root('platform.su')).toBe(true);
  });

  it('lets a super user who is a member work in the fleet (docs/product.md "Working alone")', () => {
    const member = permissionsOf(USERS.rootMember);
    expect(member('items.view')).toBe(true);
    expect(member('lineitem.manage')).toBe(true);
    expect(member('service.manage')).toBe(true);
    expect(member('platform.su')).toBe(true);
  });

  it('allows nothing before sign-in', () => {
    expect(permissionsOf(null)('user.self')).toBe(false);
  });
});
