import { Acl } from './constants.js';
import { hasAll, hasAny, isAdminOnly } from './permissions.js';

/**
 * Route guards of spec §2 as pure rules: what the authentication reply says about the user (su, admin,
 * fleets with their acl, current fleet) plus the route and its params decide allow or redirect.
 * Data-dependent redirects (an unknown unit, a service the server does not know) belong to the screens.
 */

export interface GuardFleet {
  id: number;
  acl: number;
}

export interface GuardUser {
  su: boolean;
  admin: boolean;
  fleets: readonly GuardFleet[];
  /** Current fleet id of the auth reply. */
  fid: number | null;
}

export type RouteName =
  | 'index'
  | 'login'
  | 'activation'
  | 'admin'
  | 'fleet'
  | 'migration'
  | 'dashboard'
  | 'items'
  | 'unitsImport'
  | 'issuesImport'
  | 'unit'
  | 'trailer'
  | 'driver'
  | 'intervals'
  | 'intervalsImport'
  | 'interval'
  | 'services'
  | 'servicesClose'
  | 'servicesImport'
  | 'service'
  | 'fuelfillings'
  | 'fuelfillingsImport'
  | 'fuelfilling'
  | 'inspections'
  | 'reports'
  | 'lineitems'
  | 'lineitemsImport'
  | 'tokens'
  | 'settings'
  | 'issues'
  | 'issue'
  | 'workOrders'
  | 'workOrder'
  | 'documents'
  | 'document'
  | 'components'
  | 'component'
  | 'parts'
  | 'part'
  | 'purchaseOrder';

export interface RouteParams {
  /** The `{id}` path parameter, when the route has one. */
  id?: string;
  /** Whether the navigation state carries what the screen needs (import rows, selected services). */
  hasState?: boolean;
  /** The remembered origin, for /login. */
  origin?: string | null;
}

export type GuardResult = { kind: 'allow' } | { kind: 'redirect'; to: string };

const allow: GuardResult = { kind: 'allow' };
const redirect = (to: string): GuardResult => ({ kind: 'redirect', to });

/** The current fleet, when the user still sees it. */
export function currentFleet(user: GuardUser): GuardFleet | undefined {
  return user.fid === null ? undefined : user.fleets.find((f) => f.id === user.fid);
}

/** The acl of the current fleet (0 without one). */
export function currentAcl(user: GuardUser): number {
  return currentFleet(user)?.acl ?? 0;
}

/** The current fleet is admin-only (spec §6: acl equal to admin alone). */
export function isCurrentAdminOnly(user: GuardUser): boolean {
  const fleet = currentFleet(user);
  return fleet !== undefined && isAdminOnly(fleet.acl);
}

/** Fleets whose administration the user may open: admin or viewNotification (spec §2 /fleet). */
export function adminFleets(user: GuardUser): GuardFleet[] {
  return user.fleets.filter((f) => hasAny(f.acl, Acl.admin | Acl.viewNotification));
}

/**
 * A super user outside the current fleet: one with no right in it beyond the admin bit their role gives
 * (spec §6). A super user who is a member of the fleet (the set-up makes the first user the first
 * fleet's manager: docs/product.md "Working alone") works in it like any member.
 */
export function suOutside(user: GuardUser): boolean {
  return user.su && (currentAcl(user) & ~Acl.admin) === 0;
}

/**
 * The index redirector of spec §2, its four rules in order; rule 1's super user is one outside the
 * current fleet (`suOutside`).
 */
export function indexTarget(user: GuardUser): string {
  const fleet = currentFleet(user);
  if (
    suOutside(user) ||
    (user.admin && user.fleets.length === 0) ||
    (user.admin && fleet !== undefined && hasAll(fleet.acl, Acl.admin))
  )
    return '/activation';
  if ((fleet !== undefined && isAdminOnly(fleet.acl)) || (user.admin && fleet === undefined)) return '/admin';
  if (fleet !== undefined && !hasAll(fleet.acl, Acl.viewService) && isDriverAcl(fleet.acl)) return '/items';
  if (fleet !== undefined) return '/dashboard';
  return '/settings';
}

/**
 * A driver's rights: reporting, inspecting or adding fuel (the driver preset, constants.ts `ACL_DRIVER`)
 * without the spec's view rights; such a member starts at the units list.
 */
function isDriverAcl(acl: number): boolean {
  return (
    !hasAny(acl, Acl.viewService | Acl.viewInterval) &&
    hasAny(acl, Acl.reportIssue | Acl.submitInspection | Acl.addFuelFilling)
  );
}

/**
 * Who may open the activation screen (spec §6): a super user, an admin with no fleets, or an admin at an
 * admin-only fleet; it also admits every user the index sends there (an admin who is fleet-admin of the
 * current fleet), so that the two rules can never bounce a user between them.
 */
export function canOpenActivation(user: GuardUser): boolean {
  if (user.su) return true;
  if (!user.admin) return false;
  if (user.fleets.length === 0) return true;
  if (user.fleets.some((f) => isAdminOnly(f.acl))) return true;
  return hasAll(currentAcl(user), Acl.admin);
}

/**
 * Operational screens (dashboard, items, units, reports, line items) keep out super users outside the
 * fleet and admin-only users.
 */
function operational(user: GuardUser): boolean {
  return !suOutside(user) && currentFleet(user) !== undefined && !isCurrentAdminOnly(user);
}

/** Where fleet administration sends a user who may not open the fleet asked for. */
function fleetFallback(user: GuardUser): string {
  const eligible = adminFleets(user);
  if (user.su || eligible.length > 1) return '/admin';
  if (eligible.length === 1) return `/fleet/${eligible[0]!.id}`;
  return '/';
}

function fleetById(user: GuardUser, id: string | undefined): GuardFleet | undefined {
  if (id === undefined || !/^\d+$/.test(id)) return undefined;
  const n = Number(id);
  return user.fleets.find((f) => f.id === n);
}

/** Decides whether an authenticated user may open a route of spec §2. */
export function guardRoute(user: GuardUser, route: RouteName, params: RouteParams = {}): GuardResult {
  const acl = currentAcl(user);
  const has = (bits: number) => !suOutside(user) && currentFleet(user) !== undefined && hasAll(acl, bits);
  const need = (ok: boolean): GuardResult => (ok ? allow : redirect('/'));
  const withState = (ok: boolean): GuardResult => need(ok && params.hasState === true);
  const isNew = params.id === 'new';

  switch (route) {
    case 'index':
      return redirect(indexTarget(user));
    case 'login':
      return redirect(params.origin || '/');
    case 'activation':
      return need(canOpenActivation(user));
    case 'admin': {
      const eligible = adminFleets(user);
      if (!user.su && eligible.length === 1) return redirect(`/fleet/${eligible[0]!.id}`);
      return need(user.su || user.admin || eligible.length > 1);
    }
    case 'fleet': {
      const fleet = fleetById(user, params.id);
      if (fleet && hasAny(fleet.acl, Acl.admin | Acl.viewNotification)) return allow;
      return redirect(fleetFallback(user));
    }
    case 'migration': {
      const fleet = fleetById(user, params.id);
      if (fleet && hasAll(fleet.acl, Acl.admin)) return allow;
      return redirect(fleetFallback(user));
    }
    case 'dashboard':
    case 'unit':
    case 'trailer':
    case 'driver':
    case 'reports':
      return need(operational(user));
    case 'lineitems':
      return need(operational(user) && hasAny(acl, Acl.viewService | Acl.viewInterval));
    case 'lineitemsImport':
      return withState(operational(user) && hasAny(acl, Acl.viewService | Acl.viewInterval));
    case 'items':
      // A driver (the workshop bits without the spec's view bits) lists the units assigned to them
      // (docs/product.md "Vehicle assignments").
      return need(operational(user) && (has(Acl.viewService | Acl.viewInterval) || isDriverAcl(acl)));
    case 'unitsImport':
      // The import of units: as creating a unit (need fleet.admin), on the operational list /items.
      return withState(operational(user) && has(Acl.admin));
    case 'intervals':
      return need(has(Acl.viewInterval));
    case 'intervalsImport':
      return withState(has(Acl.manageInterval));
    case 'interval':
      return need(has(isNew ? Acl.viewInterval | Acl.manageInterval : Acl.viewInterval));
    case 'services':
      return need(has(Acl.viewService | Acl.viewInterval));
    case 'servicesClose':
      return withState(has(Acl.viewService | Acl.viewInterval));
    case 'servicesImport':
      return withState(has(Acl.manageService));
    case 'service':
      return need(
        has(
          isNew ? Acl.viewService | Acl.viewInterval | Acl.manageService : Acl.viewService | Acl.viewInterval,
        ),
      );
    case 'fuelfillings':
      return need(has(Acl.viewFuelFilling));
    case 'fuelfillingsImport':
      return withState(has(Acl.manageFuelFilling));
    case 'fuelfilling':
      // A new filling: managing fillings, or a driver's add-only right (needs.ts `fuel.add`).
      if (isNew) return need(has(Acl.viewFuelFilling | Acl.manageFuelFilling) || has(Acl.addFuelFilling));
      return need(has(Acl.viewFuelFilling));
    case 'inspections':
      return need(has(Acl.submitInspection));
    case 'tokens':
    case 'settings':
      return allow;
    case 'issues':
    case 'issue':
      return need(has(Acl.reportIssue));
    case 'issuesImport':
      // The import of issues: as resolving and closing them (need issue.manage).
      return withState(has(Acl.manageIssue));
    case 'workOrders':
    case 'workOrder':
      return need(has(Acl.viewWorkOrder));
    case 'documents':
    case 'document':
      return need(has(Acl.viewDocument));
    case 'components':
    case 'component':
      return need(has(Acl.viewComponent));
    case 'parts':
    case 'part':
    case 'purchaseOrder':
      return need(has(Acl.viewPart));
  }
}

/** Menu items of spec §2 "Header and menus", each shown per permission. */
export interface MenuVisibility {
  activation: boolean;
  /** The top menu's Administration: admin-only fleets (spec §2 "Menu items"). */
  administration: boolean;
  /**
   * The user menu's Administration (spec §2 "User menu"), for whoever may administer a fleet or the
   * account; not repeated where the top menu already has it (one Administration entry).
   */
  userAdministration: boolean;
  dashboard: boolean;
  items: boolean;
  fuelfillings: boolean;
  inspections: boolean;
  intervals: boolean;
  services: boolean;
  reports: boolean;
  lineitems: boolean;
  /** The workshop's issues (docs/product.md "Issues"): reportIssue. */
  issues: boolean;
  /** Work orders (docs/product.md "Work orders"): viewWorkOrder. */
  workOrders: boolean;
  /** Documents and renewals (docs/product.md "Documents"): viewDocument. */
  documents: boolean;
  /** Tyres and other components (docs/product.md "Components"): viewComponent. */
  components: boolean;
  /** Parts and stock (docs/product.md "Parts and stock"): viewPart. */
  parts: boolean;
}

export function menuVisibility(user: GuardUser): MenuVisibility {
  const ok = (route: RouteName) => guardRoute(user, route).kind === 'allow';
  const adminOnly = isCurrentAdminOnly(user);
  const acl = currentAcl(user);
  return {
    activation: user.su || (user.admin && adminOnly) || canOpenActivation(user),
    administration: adminOnly,
    userAdministration: !adminOnly && (user.su || adminFleets(user).length > 0),
    dashboard: ok('dashboard') && hasAll(acl, Acl.viewService),
    items: ok('items'),
    fuelfillings: ok('fuelfillings') && !adminOnly,
    inspections: ok('inspections') && !adminOnly,
    intervals: ok('intervals') && !adminOnly,
    services: ok('services') && !adminOnly,
    reports: ok('reports') && hasAll(acl, Acl.viewService),
    lineitems: ok('lineitems'),
    issues: ok('issues') && !adminOnly,
    workOrders: ok('workOrders') && !adminOnly,
    documents: ok('documents') && !adminOnly,
    components: ok('components') && !adminOnly,
    parts: ok('parts') && !adminOnly,
  };
}

/** The notification bell (spec §2): hidden for admin-only fleets, disabled notifications, no viewService. */
export function bellVisible(user: GuardUser, notificationMask: number): boolean {
  if (isCurrentAdminOnly(user) || notificationMask === 0) return false;
  return !suOutside(user) && hasAll(currentAcl(user), Acl.viewService);
}
