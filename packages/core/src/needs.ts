import { Acl } from './constants.js';
import { hasAll, hasAny, isAdminOnly, withDependencies } from './permissions.js';

/**
 * Named permission needs: the one table that says what each action asks of the caller (spec §6). The
 * server's route declarations and `requireFleet`, the websocket's visibility and the web's `useCan` all
 * read it, so a rule such as "line items need viewService or viewInterval" is written here once.
 *
 * A fleet need holds bits on one fleet: `all` (every bit, each with the bits it depends on in the
 * permission editor, spec §6 "dependencies") and/or `any` (at least one bit). A need of no bits asks for
 * any acl at all, i.e. membership. `operational` marks the screens spec §6 keeps from super users and
 * admin-only-fleet users (dashboard, items, units, reports, line items); the server needs no such flag
 * because neither holds the operational bits, but the web must not offer those screens to them.
 */
export interface FleetNeedRule {
  scope: 'fleet';
  all?: number;
  any?: number;
  operational?: boolean;
  /**
   * Telematics ingestion: the admin bit comes from the user even when an API token narrows the call,
   * since feeding positions is not administration (DESIGN §3 "JSON batch endpoint for gateways").
   */
  ingest?: boolean;
}

/** Needs that are not about one fleet: any signed-in user, an account admin, a super user. */
export interface OtherNeedRule {
  scope: 'user' | 'account' | 'su';
}

export type NeedRule = FleetNeedRule | OtherNeedRule;

const fleet = (rule: Omit<FleetNeedRule, 'scope'>): FleetNeedRule => ({
  scope: 'fleet',
  ...rule,
  ...(rule.all === undefined ? {} : { all: withDependencies(rule.all) }),
});

export const NEEDS = {
  /** Any acl on the fleet: its units, drivers, trailers, custom-field definitions. */
  'fleet.member': fleet({}),
  /** Fleet administration: settings, access list, bindings, custom fields (spec §6 "Admins set up"). */
  'fleet.admin': fleet({ all: Acl.admin }),
  /** Fleet administration and notification screens: admin or viewNotification (spec §6). */
  'fleet.settings': fleet({ any: Acl.admin | Acl.viewNotification }),
  /** Editing a service object's type, counters and custom fields (PRODUCT.md "Service objects"). */
  'object.edit': fleet({ any: Acl.admin | Acl.manageInterval | Acl.manageService }),
  /** Telematics gateway batch (DESIGN §3). */
  'telematics.ingest': fleet({ all: Acl.admin, ingest: true }),
  'map.view': fleet({ all: Acl.viewMap }),
  'interval.view': fleet({ all: Acl.viewInterval }),
  'interval.manage': fleet({ all: Acl.manageInterval }),
  'service.view': fleet({ all: Acl.viewService }),
  'service.manage': fleet({ all: Acl.manageService }),
  'archive.edit': fleet({ all: Acl.archiveEdit }),
  'archive.delete': fleet({ all: Acl.archiveDelete }),
  'fuel.view': fleet({ all: Acl.viewFuelFilling }),
  'fuel.manage': fleet({ all: Acl.manageFuelFilling }),
  'fuel.delete': fleet({ all: Acl.deleteFuelfilling }),
  /** A unit's meter history (PRODUCT.md "Service objects and counters"): any member reads it, as the counters. */
  'meter.view': fleet({}),
  /** Accepting a refused reading, entering a correction: manageService. */
  'meter.manage': fleet({ all: Acl.manageService }),
  /** A unit's fault codes (contracts/fault-codes.ts): any member reads them, as the unit itself. */
  'faultcode.view': fleet({}),
  /** Clearing a fault code: manageService, as the meter's changes (the workshop's call). */
  'faultcode.manage': fleet({ all: Acl.manageService }),
  /**
   * Adding a fuel filling: managing fillings, or the driver's add-only right (constants.ts
   * `addFuelFilling`), which a driver membership limits to the assigned units.
   */
  'fuel.add': fleet({ any: Acl.manageFuelFilling | Acl.addFuelFilling }),
  /** The workshop loop (docs/product.md "Workshop rights"): reading and reporting issues. */
  'issue.report': fleet({ all: Acl.reportIssue }),
  /** Editing, resolving, closing and deleting issues. */
  'issue.manage': fleet({ all: Acl.manageIssue }),
  'workorder.view': fleet({ all: Acl.viewWorkOrder }),
  'workorder.manage': fleet({ all: Acl.manageWorkOrder }),
  /** Reading the forms and submitting inspections, acknowledging the last report. */
  'inspection.submit': fleet({ all: Acl.submitInspection }),
  /** Inspection forms, certification of defects. */
  'inspection.manage': fleet({ all: Acl.manageInspection }),
  /** Vehicle assignments: any member reads them (the current driver shows in the lists); managing them. */
  'assignment.view': fleet({}),
  'assignment.manage': fleet({ all: Acl.manageAssignment }),
  /**
   * The store (docs/product.md "Store rights"): parts, stock locations, moves and purchase orders.
   * Using a part on a service or work-order line needs only the line's own right (the stock follows).
   */
  'part.view': fleet({ all: Acl.viewPart }),
  'part.manage': fleet({ all: Acl.managePart }),
  /** Documents of units, trailers and drivers, their renewals and types. */
  'document.view': fleet({ all: Acl.viewDocument }),
  'document.manage': fleet({ all: Acl.manageDocument }),
  /** Tyres and other components: mounting, dismounting, tread readings, retiring. */
  'component.view': fleet({ all: Acl.viewComponent }),
  'component.manage': fleet({ all: Acl.manageComponent }),
  'notification.view': fleet({ all: Acl.viewNotification }),
  /** Line items and the library: viewService or viewInterval to read (spec §6). */
  'lineitem.view': fleet({ any: Acl.viewService | Acl.viewInterval, operational: true }),
  'lineitem.manage': fleet({ any: Acl.manageService | Acl.manageInterval, operational: true }),
  /** Operational screens of spec §6 (dashboard, reports: viewService; items and units: any member). */
  'dashboard.view': fleet({ all: Acl.viewService, operational: true }),
  'report.view': fleet({ all: Acl.viewService, operational: true }),
  /**
   * Report mails: setting them up and "send now" (contracts/reportmails.ts decision 1): viewService to
   * see reports and the admin bit, as spec §6 has admins set up the fleet's e-mail notifications.
   */
  'report.mail': fleet({ all: Acl.admin | Acl.viewService, operational: true }),
  'items.view': fleet({ operational: true }),
  /** The caller's own things: settings, tokens, current fleet. */
  'user.self': { scope: 'user' },
  /** Account administration: super users, and account admins within their subtree. */
  'account.admin': { scope: 'account' },
  /** Platform configuration (map-provider keys): super users only. */
  'platform.su': { scope: 'su' },
} as const satisfies Record<string, NeedRule>;

export type NeedName = keyof typeof NEEDS;
export type FleetNeedName = {
  [K in NeedName]: (typeof NEEDS)[K] extends FleetNeedRule ? K : never;
}[NeedName];

export const NEED_NAMES = Object.keys(NEEDS) as NeedName[];

export function isNeedName(name: string): name is NeedName {
  return Object.hasOwn(NEEDS, name);
}

export function isFleetNeed(name: NeedName): name is FleetNeedName {
  return NEEDS[name].scope === 'fleet';
}

/** True when a fleet acl satisfies the bits of a fleet need (an acl of 0 never does). */
export function aclSatisfies(acl: number, need: FleetNeedName): boolean {
  const rule: FleetNeedRule = NEEDS[need];
  if (acl === 0) return false;
  if (rule.all !== undefined && !hasAll(acl, rule.all)) return false;
  if (rule.any !== undefined && !hasAny(acl, rule.any)) return false;
  return true;
}

/** Who asks, as the authentication reply describes them. */
export interface NeedSubject {
  su: boolean;
  admin: boolean;
}

/**
 * The one answer to "may this user do that in this fleet" for screens: the bits of the need, and for
 * operational needs the spec §6 rule that keeps super users and admin-only fleets out.
 */
export function can(subject: NeedSubject, need: NeedName, fleetAcl: number | undefined): boolean {
  const rule: NeedRule = NEEDS[need];
  switch (rule.scope) {
    case 'user':
      return true;
    case 'su':
      return subject.su;
    case 'account':
      return subject.su || subject.admin;
    case 'fleet': {
      const acl = fleetAcl ?? 0;
      // A super user works only in a fleet they are a member of (guards.ts `suOutside`).
      if (rule.operational && ((subject.su && (acl & ~Acl.admin) === 0) || isAdminOnly(acl))) return false;
      return aclSatisfies(acl, need as FleetNeedName);
    }
  }
}
