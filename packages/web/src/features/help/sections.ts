import {
  aclSatisfies,
  can,
  currentAcl,
  type GuardUser,
  isCurrentAdminOnly,
  type NeedName,
} from '@fleetkeep/core';

/**
 * The help sections of spec §2 "Help dialog" and who sees them, as pure rules over the acl of the
 * current fleet and the su/admin flags. Titles and texts are phrases of /helpi18n/{lang}.json:
 * `<group>.title`, `<group>.<section>.title` and `<group>.<section>.text` (a group without sections
 * has `<group>.text`).
 */

export type HelpGroupId =
  | 'administration'
  | 'dashboard'
  | 'items'
  | 'intervals'
  | 'services'
  | 'reports'
  | 'lineitems'
  | 'settings';

export interface HelpGroup {
  id: HelpGroupId;
  /** Section ids, each `<group>.<name>`; empty when the group is a single text. */
  sections: string[];
}

export const HELP_GROUPS: readonly HelpGroup[] = [
  {
    id: 'administration',
    sections: [
      'administration.activation',
      'administration.fleet',
      'administration.units',
      'administration.notifications',
    ],
  },
  { id: 'dashboard', sections: ['dashboard.cost', 'dashboard.charts'] },
  { id: 'items', sections: ['items.unit'] },
  { id: 'intervals', sections: ['intervals.general', 'intervals.units', 'intervals.import'] },
  { id: 'services', sections: ['services.general', 'services.lineitems', 'services.import'] },
  { id: 'reports', sections: [] },
  { id: 'lineitems', sections: ['lineitems.import'] },
  { id: 'settings', sections: [] },
];

/** Every id the dialog can be opened at: the groups and their sections. */
export const HELP_IDS: readonly string[] = HELP_GROUPS.flatMap((g) => [g.id, ...g.sections]);

export type HelpUser = GuardUser;

/** Activation: a super user, or an admin acting on an account whose access is admin (admin-only fleet). */
export function seesActivation(user: HelpUser): boolean {
  return user.su || (user.admin && isCurrentAdminOnly(user));
}

/** Whether the user sees a group at all: the need of its screens in the current fleet (core can()). */
export function seesGroup(user: HelpUser, id: HelpGroupId): boolean {
  const acl = currentAcl(user);
  const may = (need: NeedName) => can(user, need, acl);
  switch (id) {
    case 'administration':
      return may('account.admin') || may('fleet.admin');
    case 'dashboard':
      return may('dashboard.view');
    case 'services':
      return may('service.view');
    case 'reports':
      return may('report.view');
    case 'intervals':
      return may('interval.view');
    case 'lineitems':
      return may('lineitem.view');
    case 'settings':
      // Spec §2: the settings help needs viewService or viewInterval, the bits of the line items.
      return aclSatisfies(acl, 'lineitem.view');
    case 'items':
      return true;
  }
}

/** The groups and sections the user sees, in the order of the dialog. */
export function visibleHelp(user: HelpUser): HelpGroup[] {
  return HELP_GROUPS.filter((g) => seesGroup(user, g.id)).map((g) => ({
    id: g.id,
    sections: g.sections.filter((s) => s !== 'administration.activation' || seesActivation(user)),
  }));
}

/** The help id of a route path (the header help button opens the help of the current screen). */
export function helpIdForPath(path: string): string | null {
  const first = path.split('/')[1] ?? '';
  const map: Record<string, string> = {
    activation: 'administration.activation',
    admin: 'administration',
    fleet: 'administration.fleet',
    migration: 'administration',
    dashboard: 'dashboard',
    items: 'items',
    unit: 'items.unit',
    trailer: 'items',
    driver: 'items',
    intervals: path.startsWith('/intervals/import') ? 'intervals.import' : 'intervals',
    interval: 'intervals.general',
    services: path.startsWith('/services/import') ? 'services.import' : 'services',
    service: 'services.general',
    reports: 'reports',
    lineitems: path.startsWith('/lineitems/import') ? 'lineitems.import' : 'lineitems',
    settings: 'settings',
    tokens: 'settings',
  };
  return map[first] ?? null;
}

/** The group an id belongs to. */
export function groupOf(id: string): HelpGroupId {
  return id.split('.')[0] as HelpGroupId;
}

/** Whether a help id is visible to the user (an unknown or hidden id opens the list instead). */
export function isVisibleId(user: HelpUser, id: string): boolean {
  const group = visibleHelp(user).find((g) => g.id === groupOf(id));
  if (!group) return false;
  return id === group.id || group.sections.includes(id);
}
