import { ACL_ALL, Acl, type GuardUser } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { HELP_IDS, helpIdForPath, isVisibleId, visibleHelp } from './sections.ts';

const fleet = (acl: number) => ({ fleets: [{ id: 10, acl }], fid: 10 });
/** The demo users of DESIGN §8 as the auth reply describes them. */
const USERS: Record<string, GuardUser> = {
  root: { su: true, admin: false, fleets: [], fid: null },
  admin: { su: false, admin: true, ...fleet(Acl.admin) },
  manager: { su: false, admin: false, ...fleet(ACL_ALL) },
  mechanic: { su: false, admin: false, ...fleet(Acl.viewInterval | Acl.viewService | Acl.manageService) },
  viewer: { su: false, admin: false, ...fleet(Acl.viewInterval | Acl.viewService) },
  outsider: { su: false, admin: false, ...fleet(ACL_ALL) },
};

const ids = (user: GuardUser) => visibleHelp(user).flatMap((g) => [g.id, ...g.sections]);

const OPERATIONAL = [
  'dashboard',
  'dashboard.cost',
  'dashboard.charts',
  'items',
  'items.unit',
  'intervals',
  'intervals.general',
  'intervals.units',
  'intervals.import',
  'services',
  'services.general',
  'services.lineitems',
  'services.import',
  'reports',
  'lineitems',
  'lineitems.import',
  'settings',
];

describe('help sections per demo user (spec §2 "Help dialog")', () => {
  it('root (super user) sees administration with activation, and service objects', () => {
    expect(ids(USERS.root!)).toEqual([
      'administration',
      'administration.activation',
      'administration.fleet',
      'administration.units',
      'administration.notifications',
      'items',
      'items.unit',
    ]);
  });

  it('admin on an admin-only fleet sees administration with activation only', () => {
    expect(ids(USERS.admin!)).toEqual([
      'administration',
      'administration.activation',
      'administration.fleet',
      'administration.units',
      'administration.notifications',
      'items',
      'items.unit',
    ]);
  });

  it('manager (every right, admin bit included) sees administration without activation, and all the rest', () => {
    expect(ids(USERS.manager!)).toEqual([
      'administration',
      'administration.fleet',
      'administration.units',
      'administration.notifications',
      ...OPERATIONAL,
    ]);
    expect(ids(USERS.outsider!)).toEqual(ids(USERS.manager!));
  });

  it('mechanic and viewer see the operational sections, no administration', () => {
    expect(ids(USERS.mechanic!)).toEqual(OPERATIONAL);
    expect(ids(USERS.viewer!)).toEqual(OPERATIONAL);
  });

  it('viewInterval alone: intervals, line items, settings; viewService groups follow the needs table', () => {
    const intervals = { su: false, admin: false, ...fleet(Acl.viewInterval) };
    expect(visibleHelp(intervals).map((g) => g.id)).toEqual(['items', 'intervals', 'lineitems', 'settings']);
    // The needs of dashboard, services and reports ask viewService with the viewInterval it depends on
    // (spec §6 permission editor), so a bare viewService bit opens none of them.
    const bare = { su: false, admin: false, ...fleet(Acl.viewService) };
    expect(visibleHelp(bare).map((g) => g.id)).toEqual(['items', 'lineitems', 'settings']);
  });

  it('keeps the operational groups from a super user outside the current fleet (spec §6)', () => {
    const root = { su: true, admin: false, ...fleet(Acl.admin) };
    expect(visibleHelp(root).map((g) => g.id)).toEqual(['administration', 'items']);
    // A super user who is a member works there and reads every group (docs/product.md "Working alone").
    const member = { su: true, admin: false, ...fleet(ACL_ALL) };
    expect(visibleHelp(member).map((g) => g.id)).toEqual(expect.arrayContaining(['dashboard', 'services']));
  });

  it('an admin whose current fleet is not admin-only does not see activation', () => {
    const user = { su: false, admin: true, ...fleet(ACL_ALL) };
    expect(isVisibleId(user, 'administration.activation')).toBe(false);
    expect(isVisibleId(user, 'administration.fleet')).toBe(true);
  });

  it('maps routes to sections, and every mapped id exists', () => {
    expect(helpIdForPath('/intervals/import')).toBe('intervals.import');
    expect(helpIdForPath('/interval/5')).toBe('intervals.general');
    expect(helpIdForPath('/unit/3')).toBe('items.unit');
    expect(helpIdForPath('/tokens')).toBe('settings');
    expect(helpIdForPath('/nowhere')).toBeNull();
    for (const path of [
      '/admin',
      '/fleet/1',
      '/dashboard',
      '/services',
      '/service/1',
      '/reports',
      '/lineitems',
    ])
      expect(HELP_IDS).toContain(helpIdForPath(path));
    expect(isVisibleId(USERS.viewer!, 'administration')).toBe(false);
    expect(isVisibleId(USERS.viewer!, 'services.import')).toBe(true);
  });
});
