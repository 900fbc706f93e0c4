import { describe, expect, it } from 'vitest';
import { ACL_ALL, ACL_DRIVER, Acl } from './constants.js';
import { bellVisible, type GuardUser, guardRoute, indexTarget, menuVisibility } from './guards.js';

const user = (over: Partial<GuardUser> = {}): GuardUser => ({
  su: false,
  admin: false,
  fleets: [{ id: 1, acl: ACL_ALL & ~Acl.admin }],
  fid: 1,
  ...over,
});
const VIEWER = Acl.viewInterval | Acl.viewService;
const su = user({ su: true, fleets: [], fid: null });
const adminOnly = user({ admin: true, fleets: [{ id: 1, acl: Acl.admin }], fid: 1 });
const memberAdminOnly = user({ fleets: [{ id: 1, acl: Acl.admin }], fid: 1 });
const noFleet = user({ fleets: [], fid: null });
const viewer = user({ fleets: [{ id: 1, acl: VIEWER }] });
const redirect = (to: string) => ({ kind: 'redirect', to });
const allow = { kind: 'allow' };

describe('a super user who is a member of the current fleet (docs/product.md "Working alone")', () => {
  const working = user({ su: true, fleets: [{ id: 1, acl: ACL_ALL }], fid: 1 });
  const outside = user({ su: true, fleets: [{ id: 1, acl: Acl.admin }], fid: 1 });
  it('works there like any member: dashboard, services, bell', () => {
    expect(indexTarget(working)).toBe('/dashboard');
    expect(guardRoute(working, 'dashboard')).toEqual(allow);
    expect(guardRoute(working, 'services')).toEqual(allow);
    expect(bellVisible(working, 31)).toBe(true);
    expect(menuVisibility(working)).toMatchObject({ activation: true, dashboard: true, services: true });
  });
  it('outside it, stays out of the operational screens (spec §6)', () => {
    expect(indexTarget(outside)).toBe('/activation');
    expect(guardRoute(outside, 'dashboard')).toEqual(redirect('/'));
    expect(bellVisible(outside, 31)).toBe(false);
  });
});

describe('index redirector (spec §2, rules in order)', () => {
  it('rule 1: super user, admin with no fleets, admin who is fleet-admin of the current fleet', () => {
    expect(indexTarget(su)).toBe('/activation');
    expect(indexTarget(user({ admin: true, fleets: [], fid: null }))).toBe('/activation');
    expect(indexTarget(adminOnly)).toBe('/activation');
    expect(indexTarget(user({ admin: true, fleets: [{ id: 1, acl: ACL_ALL }] }))).toBe('/activation');
  });
  it('rule 2: admin-only current fleet, or an admin without a current fleet', () => {
    expect(indexTarget(memberAdminOnly)).toBe('/admin');
    expect(indexTarget(user({ admin: true, fleets: [{ id: 2, acl: VIEWER }], fid: null }))).toBe('/admin');
    // rule 1 wins over rule 2 for an admin at an admin-only fleet
    expect(indexTarget(adminOnly)).toBe('/activation');
  });
  it('rule 3: a current fleet leads to the dashboard', () => {
    expect(indexTarget(viewer)).toBe('/dashboard');
    expect(indexTarget(user({ admin: true, fleets: [{ id: 1, acl: VIEWER }] }))).toBe('/dashboard');
  });
  it('rule 4: otherwise settings', () => {
    expect(indexTarget(noFleet)).toBe('/settings');
    expect(indexTarget(user({ fid: 9 }))).toBe('/settings');
  });
  it('guardRoute(index) redirects to the target', () => {
    expect(guardRoute(viewer, 'index')).toEqual(redirect('/dashboard'));
  });
});

describe('login', () => {
  it('an authenticated user goes to the remembered origin, else /', () => {
    expect(guardRoute(viewer, 'login', { origin: '/settings' })).toEqual(redirect('/settings'));
    expect(guardRoute(viewer, 'login')).toEqual(redirect('/'));
  });
});

describe('activation', () => {
  it('super users, admins with no fleets and admins at admin-only fleets', () => {
    expect(guardRoute(su, 'activation')).toEqual(allow);
    expect(guardRoute(user({ admin: true, fleets: [], fid: null }), 'activation')).toEqual(allow);
    expect(guardRoute(adminOnly, 'activation')).toEqual(allow);
  });
  it('everyone the index sends there may open it (no redirect loop)', () => {
    const fullAdmin = user({ admin: true, fleets: [{ id: 1, acl: ACL_ALL }] });
    expect(indexTarget(fullAdmin)).toBe('/activation');
    expect(guardRoute(fullAdmin, 'activation')).toEqual(allow);
  });
  it('others go to /', () => {
    expect(guardRoute(viewer, 'activation')).toEqual(redirect('/'));
    expect(guardRoute(memberAdminOnly, 'activation')).toEqual(redirect('/'));
  });
});

describe('admin overview and fleet administration', () => {
  it('/admin redirects to the one fleet whose notifications the user can view', () => {
    expect(guardRoute(memberAdminOnly, 'admin')).toEqual(redirect('/fleet/1'));
    const notif = user({ fleets: [{ id: 4, acl: VIEWER | Acl.viewNotification }], fid: 4 });
    expect(guardRoute(notif, 'admin')).toEqual(redirect('/fleet/4'));
  });
  it('/admin shows the list for super users and several eligible fleets', () => {
    expect(guardRoute(su, 'admin')).toEqual(allow);
    const two = user({
      fleets: [
        { id: 1, acl: Acl.admin },
        { id: 2, acl: ACL_ALL },
      ],
    });
    expect(guardRoute(two, 'admin')).toEqual(allow);
    expect(guardRoute(user({ admin: true, fleets: [], fid: null }), 'admin')).toEqual(allow);
  });
  it('/admin sends users without eligible fleets to /', () => {
    expect(guardRoute(viewer, 'admin')).toEqual(redirect('/'));
  });
  it('/fleet/{id} needs admin or viewNotification on that fleet', () => {
    expect(guardRoute(memberAdminOnly, 'fleet', { id: '1' })).toEqual(allow);
    const notif = user({ fleets: [{ id: 3, acl: VIEWER | Acl.viewNotification }], fid: 3 });
    expect(guardRoute(notif, 'fleet', { id: '3' })).toEqual(allow);
  });
  it('/fleet/{id} redirects: /admin (su or several), /fleet/{one}, or /', () => {
    expect(guardRoute(su, 'fleet', { id: '7' })).toEqual(redirect('/admin'));
    const two = user({
      fleets: [
        { id: 1, acl: Acl.admin },
        { id: 2, acl: ACL_ALL },
        { id: 3, acl: VIEWER },
      ],
    });
    expect(guardRoute(two, 'fleet', { id: '3' })).toEqual(redirect('/admin'));
    const one = user({
      fleets: [
        { id: 1, acl: Acl.admin },
        { id: 3, acl: VIEWER },
      ],
    });
    expect(guardRoute(one, 'fleet', { id: '3' })).toEqual(redirect('/fleet/1'));
    expect(guardRoute(one, 'fleet', { id: 'x' })).toEqual(redirect('/fleet/1'));
    expect(guardRoute(viewer, 'fleet', { id: '1' })).toEqual(redirect('/'));
  });
  it('/migration/{id} needs admin on that fleet, else redirects like fleet administration', () => {
    expect(guardRoute(memberAdminOnly, 'migration', { id: '1' })).toEqual(allow);
    const notif = user({ fleets: [{ id: 3, acl: VIEWER | Acl.viewNotification }], fid: 3 });
    expect(guardRoute(notif, 'migration', { id: '3' })).toEqual(redirect('/fleet/3'));
    expect(guardRoute(su, 'migration', { id: '3' })).toEqual(redirect('/admin'));
    expect(guardRoute(viewer, 'migration', { id: '1' })).toEqual(redirect('/'));
  });
});

describe('operational screens keep out su, no-fleet and admin-only users', () => {
  for (const route of ['dashboard', 'unit', 'trailer', 'driver', 'reports', 'lineitems', 'items'] as const) {
    it(route, () => {
      expect(guardRoute(viewer, route, { id: '5' })).toEqual(allow);
      expect(guardRoute(su, route, { id: '5' })).toEqual(redirect('/'));
      expect(guardRoute(noFleet, route, { id: '5' })).toEqual(redirect('/'));
      expect(guardRoute(adminOnly, route, { id: '5' })).toEqual(redirect('/'));
      expect(guardRoute(memberAdminOnly, route, { id: '5' })).toEqual(redirect('/'));
    });
  }
  it('items need viewService and viewInterval', () => {
    expect(guardRoute(user({ fleets: [{ id: 1, acl: Acl.viewInterval }] }), 'items')).toEqual(redirect('/'));
  });
  it('line items need viewService or viewInterval', () => {
    expect(guardRoute(user({ fleets: [{ id: 1, acl: Acl.viewInterval }] }), 'lineitems')).toEqual(allow);
    expect(guardRoute(user({ fleets: [{ id: 1, acl: Acl.viewMap }] }), 'lineitems')).toEqual(redirect('/'));
  });
});

describe('intervals, services, fuel fillings', () => {
  const viewIntervals = user({ fleets: [{ id: 1, acl: Acl.viewInterval }] });
  it('intervals need viewInterval', () => {
    expect(guardRoute(viewIntervals, 'intervals')).toEqual(allow);
    expect(guardRoute(user({ fleets: [{ id: 1, acl: Acl.viewMap }] }), 'intervals')).toEqual(redirect('/'));
    expect(guardRoute(su, 'intervals')).toEqual(redirect('/'));
  });
  it("'new' ids need the manage bit", () => {
    expect(guardRoute(viewer, 'interval', { id: '3' })).toEqual(allow);
    expect(guardRoute(viewer, 'interval', { id: 'new' })).toEqual(redirect('/'));
    expect(guardRoute(user(), 'interval', { id: 'new' })).toEqual(allow);
    expect(guardRoute(viewer, 'service', { id: '3' })).toEqual(allow);
    expect(guardRoute(viewer, 'service', { id: 'new' })).toEqual(redirect('/'));
    expect(guardRoute(user(), 'service', { id: 'new' })).toEqual(allow);
    expect(guardRoute(viewer, 'fuelfilling', { id: '3' })).toEqual(allow);
    expect(guardRoute(viewer, 'fuelfilling', { id: 'new' })).toEqual(redirect('/'));
    expect(guardRoute(user(), 'fuelfilling', { id: 'new' })).toEqual(allow);
    // A driver adds fillings without viewing them (docs/product.md "Vehicle assignments").
    const driver = user({ fleets: [{ id: 1, acl: ACL_DRIVER }] });
    expect(guardRoute(driver, 'fuelfilling', { id: 'new' })).toEqual(allow);
    expect(guardRoute(driver, 'fuelfilling', { id: '3' })).toEqual(redirect('/'));
    expect(guardRoute(driver, 'fuelfillings')).toEqual(redirect('/'));
    // The driver starts at the units list, the only list of theirs.
    expect(indexTarget(driver)).toBe('/items');
    expect(guardRoute(driver, 'items')).toEqual(allow);
    expect(guardRoute(driver, 'unit', { id: '3' })).toEqual(allow);
    expect(menuVisibility(driver)).toMatchObject({ items: true, dashboard: false, services: false });
    expect(guardRoute(user({ fleets: [{ id: 1, acl: Acl.viewMap }] }), 'items')).toEqual(redirect('/'));
  });
  it('services and service editor need viewService and viewInterval', () => {
    expect(guardRoute(viewer, 'services')).toEqual(allow);
    expect(guardRoute(viewIntervals, 'services')).toEqual(redirect('/'));
    expect(guardRoute(viewIntervals, 'service', { id: '1' })).toEqual(redirect('/'));
  });
  it('fuel fillings need viewFuelFilling', () => {
    expect(guardRoute(viewer, 'fuelfillings')).toEqual(allow);
    expect(guardRoute(viewIntervals, 'fuelfillings')).toEqual(redirect('/'));
  });
});

describe('routes needing navigation state', () => {
  const cases = [
    ['intervalsImport', user(), viewer],
    ['servicesImport', user(), viewer],
    ['fuelfillingsImport', user(), viewer],
    ['servicesClose', viewer, user({ fleets: [{ id: 1, acl: Acl.viewInterval }] })],
    ['lineitemsImport', viewer, su],
    ['unitsImport', user({ fleets: [{ id: 1, acl: ACL_ALL }] }), user()],
    ['issuesImport', user({ fleets: [{ id: 1, acl: Acl.manageIssue | Acl.reportIssue }] }), viewer],
  ] as const;
  for (const [route, allowed, denied] of cases) {
    it(route, () => {
      expect(guardRoute(allowed, route, { hasState: true })).toEqual(allow);
      expect(guardRoute(allowed, route, { hasState: false })).toEqual(redirect('/'));
      expect(guardRoute(allowed, route)).toEqual(redirect('/'));
      expect(guardRoute(denied, route, { hasState: true })).toEqual(redirect('/'));
    });
  }
});

describe('tokens and settings', () => {
  it('are open to every logged-in user', () => {
    for (const u of [su, noFleet, adminOnly, viewer]) {
      expect(guardRoute(u, 'tokens')).toEqual(allow);
      expect(guardRoute(u, 'settings')).toEqual(allow);
    }
  });
});

describe('menus and bell', () => {
  it('admin-only fleet shows Activation (for admins) and Administration, no operational items', () => {
    const m = menuVisibility(adminOnly);
    expect(m.activation).toBe(true);
    expect(m.administration).toBe(true);
    expect(m.userAdministration).toBe(false);
    expect(m.dashboard || m.items || m.services || m.intervals || m.reports).toBe(false);
  });
  it('a full member sees the operational items', () => {
    const m = menuVisibility(user());
    expect(m).toMatchObject({ dashboard: true, items: true, intervals: true, services: true, reports: true });
    expect(m.activation).toBe(false);
  });
  it('a fleet admin of a working fleet finds Administration once, in the user menu', () => {
    const m = menuVisibility(user({ fleets: [{ id: 1, acl: ACL_ALL }] }));
    expect(m).toMatchObject({ administration: false, userAdministration: true, services: true });
    expect(menuVisibility(su)).toMatchObject({ administration: false, userAdministration: true });
  });
  it('the bell hides for admin-only fleets, disabled notifications and without viewService', () => {
    expect(bellVisible(viewer, 31)).toBe(true);
    expect(bellVisible(viewer, 0)).toBe(false);
    expect(bellVisible(adminOnly, 31)).toBe(false);
    expect(bellVisible(user({ fleets: [{ id: 1, acl: Acl.viewInterval }] }), 31)).toBe(false);
  });
});
