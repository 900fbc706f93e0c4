import type { FleetTransferDocument, TransferCounts } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import type { Database, FleetRow, LineItemRow } from '../../db/schema.js';
import type { syncIns } from '../services/effects.js';

/** The state of one import (import.ts) that its parts share: where, by whom, counts, id maps. */

export type Db = Kysely<Database>;
export type Doc = FleetTransferDocument;
export type ObjType = 'u' | 'd' | 't';

/** What the import changed, published after commit (publish.ts). */
export interface Published {
  units: number[];
  persons: { d: number[]; t: number[] };
  fields: number[];
  library: LineItemRow[];
  intervals: number[];
  assignments: number[];
  services: number[];
  fuel: number[];
  owners: Awaited<ReturnType<typeof syncIns>>;
  /** Existing units whose counters an import moved (LubeLogger odometers): live event, status engine. */
  counters: number[];
}

export const zeroCounts = (): TransferCounts => ({
  units: 0,
  drivers: 0,
  trailers: 0,
  custom_fields: 0,
  line_items: 0,
  intervals: 0,
  assignments: 0,
  services: 0,
  archive: 0,
  fuel_fillings: 0,
  attachments: 0,
  meter_readings: 0,
  counter_corrections: 0,
  notification_setups: 0,
  issues: 0,
  inspection_forms: 0,
  inspections: 0,
  work_orders: 0,
  vehicle_assignments: 0,
});

export const emptyPublished = (): Published => ({
  units: [],
  persons: { d: [], t: [] },
  fields: [],
  library: [],
  intervals: [],
  assignments: [],
  services: [],
  fuel: [],
  owners: [],
  counters: [],
});

export interface Run {
  ctx: AppContext;
  trx: Db;
  fleet: FleetRow;
  actor: Actor;
  /** The import's time, Unix seconds. */
  t: number;
  created: TransferCounts;
  matched: TransferCounts;
  skipped: TransferCounts;
  published: Published;
  /** Source id → id in the fleet, per collection. */
  maps: {
    fields: Map<number, number>;
    units: Map<number, number>;
    persons: Record<'d' | 't', Map<number, number>>;
    intervals: Map<number, number>;
    assignments: Map<number, number>;
    /** Services and archived ones (one id space), issues: for the workshop records (version 6). */
    services: Map<number, number>;
    issues: Map<number, number>;
  };
  /** Units that existed before the import (matched ones), as opposed to the ones it created. */
  existingUnits: Set<number>;
}

export const json = (v: unknown) => JSON.stringify(v);

/** Custom field values with their fields remapped; values of unknown fields are left out. */
export const cfOut = (run: Run, cf: { id: number; v: string }[]) =>
  json(cf.flatMap((v) => (run.maps.fields.has(v.id) ? [{ id: run.maps.fields.get(v.id)!, v: v.v }] : [])));

export const objectOf = (run: Run, type: ObjType, id: number) =>
  (type === 'u' ? run.maps.units : run.maps.persons[type]).get(id)!;

/** Login → user id of the fleet's members: who a document names is mapped to them (else the importer). */
export async function membersByName(run: Run): Promise<Map<string, number>> {
  const rows = await run.trx
    .selectFrom('fleet_users')
    .innerJoin('users', 'users.id', 'fleet_users.user_id')
    .select(['users.id', 'users.name'])
    .where('fleet_users.fleet_id', '=', run.fleet.id)
    .execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}
