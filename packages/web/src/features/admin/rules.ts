import { Acl, type FleetWire, hasAny, tzOffsetMinutes } from '@fleetkeep/core';
import { matchesSearch } from '../../components/search.ts';
import { TIME_ZONES, utcOffsetText } from '../../lib/timeZones.ts';

/**
 * Pure rules of the /admin screen (spec §2 "/admin", spec §6): which fleets it lists, what a row shows,
 * the filter and the order. No React, no session: the screen passes in what it read.
 */

/** A fleet of the admin list with what its row shows. */
export interface AdminFleetRow {
  id: number;
  name: string;
  /** Name of the owner account; '' when the user may not read the account tree. */
  account: string;
  /** 1 miles, otherwise km (fleet `ms`). */
  ms: number;
  /** 1 litres, 2 US gallons (fleet `fm`). */
  fm: number;
  tz: number;
  /** 0 while the owner account (or one above it) is suspended. */
  active: boolean;
}

/**
 * The fleets /admin lists: those the user administers or whose notifications they view (spec §2
 * "/fleet/{fleetId}" needs admin or viewNotification; spec §6 "the list of fleets a user can administer").
 * A super user's fleets all carry admin (server access.ts), so the super user sees every fleet.
 */
export function administeredFleets(fleets: readonly FleetWire[]): FleetWire[] {
  return fleets.filter((f) => hasAny(f.acl, Acl.admin | Acl.viewNotification));
}

/**
 * The rows of the list: account names from `GET /api/admin/accounts` when the user may read it. That list
 * holds the accounts below the user's own, not the own one: a fleet of an account it lacks is in the
 * user's own account (`ownAccount` names it).
 */
export function fleetRows(
  fleets: readonly FleetWire[],
  accounts: readonly { id: number; n: string }[] | undefined,
  ownAccount: string,
): AdminFleetRow[] {
  const names = new Map((accounts ?? []).map((a) => [a.id, a.n]));
  return administeredFleets(fleets).map((f) => ({
    id: f.id,
    name: f.n,
    account: accounts === undefined ? '' : (names.get(f.aid) ?? ownAccount),
    ms: f.ms,
    fm: f.fm,
    tz: f.tz,
    active: f.s === 1,
  }));
}

/** Rows whose name or account contains the filter text, ignoring case and accents (spec §5 "Select"). */
export function filterFleetRows(rows: readonly AdminFleetRow[], query: string): AdminFleetRow[] {
  return rows.filter((r) => matchesSearch(r.name, query) || matchesSearch(r.account, query));
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** By name (natural order: "Fleet 2" before "Fleet 10"), then by account, then by id. */
export function sortFleetRows(rows: readonly AdminFleetRow[]): AdminFleetRow[] {
  return [...rows].sort(
    (a, b) => collator.compare(a.name, b.name) || collator.compare(a.account, b.account) || a.id - b.id,
  );
}

/** The zone of a fleet as the time-zone list names it; a code the list lacks shows as its offset. */
export function timeZoneLabel(tz: number, summerTime: string): string {
  const zone = TIME_ZONES.find((z) => z.tz === tz);
  if (!zone) return utcOffsetText(tzOffsetMinutes(tz, 0));
  return `${utcOffsetText(zone.offset)} ${zone.cities}${zone.rule === 'none' ? '' : ` (${summerTime})`}`;
}

/** What the new-fleet form holds (PRODUCT.md "Administration"). */
export interface NewFleetForm {
  n: string;
  /** Owner account id as the select holds it; null for the user's own. */
  aid: string | null;
  tz: number;
  cur: string;
  ms: 0 | 1;
  fm: 1 | 2;
}

/** The `POST /api/fleets` body of the form (core `fleetCreateBody`). */
export function newFleetBody(form: NewFleetForm): {
  n: string;
  aid?: number;
  tz: number;
  cur: string;
  ms: 0 | 1;
  fm: 1 | 2;
} {
  return {
    n: form.n.trim(),
    ...(form.aid === null ? {} : { aid: Number(form.aid) }),
    tz: form.tz,
    cur: form.cur.trim(),
    ms: form.ms,
    fm: form.fm,
  };
}
