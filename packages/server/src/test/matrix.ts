import type { NeedName } from '@fleetkeep/core';
import type { Client, TestServer } from './harness.js';

/** Shared vocabulary of the permission matrix: users, outcomes, case shapes and user groups. */

export const MATRIX_USERS = ['root', 'admin', 'manager', 'mechanic', 'viewer', 'outsider'] as const;
export type MatrixUser = (typeof MATRIX_USERS)[number];

/** `ok`: a 2xx reply; `denied`: 403 `{error: 7}`; or an exact non-permission status and error code. */
export type Outcome = 'ok' | 'denied' | { status: number; error: number };

export interface MatrixFixtures {
  fleetId: number;
  otherFleetId: number;
  fleet: { cur: string };
  unit: { id: number; name: string; ut: number | null };
  driver: { id: number; c: string };
  trailer: { id: number; c: string };
  /** The drivers bound to the demo fleet, as seeded. */
  driverIds: number[];
  /** The demo fleet's access list, as seeded. */
  members: { id: number; acl: number; ao: number }[];
  demoAccountId: number;
  otherAccountId: number;
}

export interface CaseEnv {
  t: TestServer;
  fx: MatrixFixtures;
  user: MatrixUser;
  /** A session of `user`. */
  client: Client;
}

export interface CaseRequest {
  method: string;
  url: string;
  body?: unknown;
}

export interface RouteCase {
  /** Method and path exactly as registered in Fastify, e.g. `PUT /api/fleets/:fid/units/:id`. */
  route: string;
  /** What the case does, when a route has several cases. */
  label?: string;
  /** The call ends its session: the runner gives it a session of its own. */
  endsSession?: boolean;
  build(env: CaseEnv): CaseRequest | Promise<CaseRequest>;
  /**
   * What this case asks beyond the route's declared need, when its body asks for more (renaming a unit
   * needs fleet.admin where the route declares object.edit). The matrix checks that the declared need
   * (or this one) predicts every 'ok' and 'denied' outcome.
   */
  need?: NeedName;
  /** The case's 'ok' set is narrower than any need says, for the reason given (e.g. account subtrees). */
  narrower?: string;
  /** The case calls the outsider's fleet (Northwind) instead of the demo fleet. */
  otherFleet?: boolean;
  expect: Record<MatrixUser, Outcome>;
  /** Undoes what an allowed call changed, so that later cells see the seeded state. */
  restore?(env: CaseEnv): Promise<void>;
}

export const outcomes = (ok: readonly MatrixUser[], others: Outcome = 'denied') =>
  Object.fromEntries(MATRIX_USERS.map((u) => [u, ok.includes(u) ? 'ok' : others])) as Record<
    MatrixUser,
    Outcome
  >;

/** Any authenticated user: calls about the user's own things. */
export const EVERYONE = MATRIX_USERS;
/** Any acl on the demo fleet (requireFleet with no bits asked). */
export const FLEET_MEMBERS = ['root', 'admin', 'manager', 'mechanic', 'viewer'] as const;
/** The admin bit on the demo fleet: super user, account admin, and members granted admin (manager). */
export const FLEET_ADMINS = ['root', 'admin', 'manager'] as const;
/** EDIT_OBJECT = admin | manageInterval | manageService (modules/fleets/objects.ts). */
export const OBJECT_EDITORS = ['root', 'admin', 'manager', 'mechanic'] as const;
/** Super users, and account admins (the `admin` flag, not the fleet's admin bit: manager is not one). */
export const ACCOUNT_ADMINS = ['root', 'admin'] as const;
/** Platform configuration (map keys): super users only. */
export const SUPER_USERS = ['root'] as const;

export const fleetCannotBeSet = { status: 400, error: 3 };
/**
 * Routes without a fleet id answer a record of a fleet the user cannot see like an unknown one (404
 * error 5): the outsider gets that, not 403 (custom fields, drivers, trailers; http/needs.ts).
 */
export const unknownToOutsider = { outsider: { status: 404, error: 5 } } as const;
/** Line items: viewService or viewInterval to read, manageService or manageInterval to write (spec §6). */
export const LIBRARY_READERS = ['manager', 'mechanic', 'viewer'] as const;
export const LIBRARY_WRITERS = ['manager', 'mechanic'] as const;
/** Intervals: viewInterval to read, manageInterval to write (spec §6). */
export const INTERVAL_READERS = ['manager', 'mechanic', 'viewer'] as const;
export const INTERVAL_MANAGERS = ['manager'] as const;
