import {
  engineChanges,
  type NewDomainEvent,
  type ServiceChange,
  type ServiceSubject,
  serviceWriteChanges,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database, FleetRow } from '../db/schema.js';
import { recordDomainEvents } from './outbox.js';

/**
 * Builders of the domain events (core domain-events.ts) from the rows the writers have at hand, and the
 * one-call recorders the modules use inside their transactions. After the commit the writer's unit of
 * work (events/unit-of-work.ts) publishes the outbox.
 */

/** The columns of a service row that its events carry. */
export interface ServiceState {
  id: number;
  fleet_id: number;
  object_type: string;
  object_id: number;
  interval_id: number | null;
  f: number;
}

export function serviceSubject(row: ServiceState): ServiceSubject {
  return {
    serviceId: row.id,
    objectType: row.object_type as ServiceSubject['objectType'],
    objectId: row.object_id,
    intervalId: row.interval_id,
    f: row.f,
  };
}

/** The events of `changes` for one service at `at`, caused by user `by` (null: the server itself). */
export function serviceEvents(
  changes: ServiceChange[],
  row: ServiceState,
  at: number,
  by: number | null,
): NewDomainEvent[] {
  const base = { fid: row.fleet_id, at, by, ...serviceSubject(row) };
  return changes.map((c) => ({ ...base, ...c }) as NewDomainEvent);
}

/**
 * A person's write of one service (modules/services write.ts), in its transaction: a creation
 * (`before` null) or an update from flags `before` to the row's flags. Nothing when the status stayed.
 */
export async function recordServiceWrite(
  trx: Kysely<Database>,
  before: number | null,
  row: ServiceState,
  by: number | null,
  at: number,
): Promise<void> {
  await recordDomainEvents(trx, serviceEvents(serviceWriteChanges(before, row.f), row, at, by));
}

/** The status engine's writes (engine/apply.ts): creations as Due and overdue flag changes. */
export function engineEvents(
  created: ServiceState[],
  changed: { row: ServiceState; from: number }[],
  at: number,
): NewDomainEvent[] {
  return [
    ...created.flatMap((row) => serviceEvents(engineChanges(null, row.f), row, at, null)),
    ...changed.flatMap(({ row, from }) => serviceEvents(engineChanges(from, row.f), row, at, null)),
  ];
}

/** A unit's counters after a change (telematics readings, hand corrections). */
export function countersChanged(
  unit: { id: number; fleetId: number; mileage: number; engineHours: number },
  at: number,
  by: number | null,
): NewDomainEvent {
  return {
    type: 'unit.counters',
    fid: unit.fleetId,
    at,
    by,
    unitId: unit.id,
    mileage: unit.mileage,
    engineHours: unit.engineHours,
  };
}

/** The fleet settings of PUT /api/fleets/{id}: column → wire name (spec §3). */
const FLEET_SETTINGS = {
  name: 'n',
  tz: 'tz',
  cur: 'cur',
  ms: 'ms',
  fm: 'fm',
  meter_daily_distance_max: 'mdd',
} as const;
type FleetSettings = Pick<FleetRow, keyof typeof FLEET_SETTINGS>;

/** "Fleet settings changed" for the settings `set` gives a new value; none when nothing changes. */
export function fleetSettingsEvents(
  before: FleetRow,
  set: Partial<FleetSettings>,
  at: number,
  by: number | null,
): NewDomainEvent[] {
  const columns = Object.keys(FLEET_SETTINGS) as (keyof FleetSettings)[];
  const changed = columns
    .filter((c) => set[c] !== undefined && set[c] !== before[c])
    .map((c) => FLEET_SETTINGS[c]);
  return changed.length ? [{ type: 'fleet.settings', fid: before.id, at, by, changed }] : [];
}

/**
 * "Fleet suspended" for each fleet that loses visibility when account `accountId` becomes inactive
 * (`active` 0): the fleets of the account and of the accounts below it that are active until then (an
 * account is active when it and all its ancestors are, as auth/access.ts reads the tree). Read inside
 * the writer's transaction, before its update, under the `accountState` lock (admin/service.ts).
 */
export async function fleetSuspendedEvents(
  trx: Kysely<Database>,
  accountId: number,
  active: 0 | 1,
  at: number,
  by: number | null,
): Promise<NewDomainEvent[]> {
  if (active === 1) return [];
  const accounts = await trx.selectFrom('accounts').select(['id', 'parent_id', 'active']).execute();
  const byId = new Map(accounts.map((a) => [a.id, a]));
  /** Ancestors first to last, the account itself first; bounded against a cycle. */
  const chain = (id: number) => {
    const out: typeof accounts = [];
    for (
      let a = byId.get(id);
      a && out.length < 64;
      a = a.parent_id === null ? undefined : byId.get(a.parent_id)
    )
      out.push(a);
    return out;
  };
  const losing = accounts
    .map((a) => chain(a.id))
    .filter((c) => c.some((a) => a.id === accountId) && c.every((a) => a.active === 1))
    .map((c) => c[0]!.id);
  if (losing.length === 0) return [];
  const fleets = await trx.selectFrom('fleets').select('id').where('account_id', 'in', losing).execute();
  return fleets.map((f) => ({ type: 'fleet.suspended', fid: f.id, at, by, accountId }));
}
