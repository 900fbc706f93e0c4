import type { FleetTransferDocument } from '@fleetkeep/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type Cut, group, pages } from './pages.js';
import {
  assignmentOut,
  channelSetupOut,
  correctionOut,
  type FuelRecord,
  fieldOut,
  fuelOut,
  inAppSetupOut,
  intervalOut,
  libraryOut,
  personOut,
  readingOut,
  type ServiceRecord,
  serviceOut,
  shiftOf,
  unitOut,
} from './records.js';

/**
 * The collections of a fleet as pages of export records (records.ts), read by keyset (pages.ts) and
 * cut at the export's start. Each page's line items and attachment descriptions come with it; the
 * attachments' bytes are read one file at a time by `attachmentData`.
 */

type Db = Kysely<Database>;
type Doc = FleetTransferDocument;
export interface Source {
  db: Db;
  fid: number;
  cut: Cut;
}

/** An attachment without its bytes. */
export interface FileMeta {
  id: number;
  owner_id: number;
  name: string;
  content_type: string;
  created_at: number;
}
export type WithFiles<T> = { record: T; files: FileMeta[] };

const SERVICE_OWNER = 'service';
const FUEL_OWNER = 'fuel';
const UNIT_OWNER = 'unit';

async function* mapped<R, T>(src: AsyncGenerator<R[]>, map: (rows: R[]) => Promise<T[]> | T[]) {
  for await (const rows of src) yield await map(rows);
}

/** The tables read whole, by the fleet's id: a keyset page is the same query on each. */
type FleetTable =
  | 'units'
  | 'drivers'
  | 'trailers'
  | 'custom_fields'
  | 'line_items'
  | 'intervals'
  | 'assignments'
  | 'fuel_fillings'
  | 'notification_setups'
  | 'channel_setups';

/** The fleet's rows of `table` up to the export's cut, page by page (pages.ts). */
function fleetPages<T extends FleetTable>(
  { db, fid, cut }: Source,
  table: T,
): AsyncGenerator<Selectable<Database[T]>[]> {
  type Row = Selectable<Database[T]> & { id: number };
  // Every table here has `id` and `fleet_id`; Kysely cannot see that through a generic table name.
  const keyed = db as unknown as Kysely<Record<FleetTable, { id: number; fleet_id: number }>>;
  return pages<Row>(
    table,
    (after, limit) =>
      keyed
        .selectFrom(table as FleetTable)
        .selectAll()
        .where('fleet_id', '=', fid)
        .where('id', '>', after)
        .where('id', '<=', cut[table])
        .orderBy('id')
        .limit(limit)
        .execute() as unknown as Promise<Row[]>,
  );
}

export function unitPages(src: Source): AsyncGenerator<Doc['units']> {
  return mapped(fleetPages(src, 'units'), (rows) => rows.map(unitOut));
}

/** Units with their photo (docs/product.md "The vehicle profile"), for the JSON document. */
export function unitPagesWithFiles(
  src: Source,
): AsyncGenerator<WithFiles<Omit<Doc['units'][number], 'attachments'>>[]> {
  return mapped(fleetPages(src, 'units'), async (rows) => {
    const files = await filesOf(
      src,
      UNIT_OWNER,
      rows.map((r) => r.id),
    );
    return rows.map((u) => {
      const { attachments: _none, ...record } = unitOut(u);
      return { record, files: files.get(u.id) ?? [] };
    });
  });
}

export function personPages(src: Source, table: 'drivers' | 'trailers'): AsyncGenerator<Doc['drivers']> {
  return mapped(fleetPages(src, table), (rows) => rows.map(personOut));
}

export function fieldPages(src: Source): AsyncGenerator<Doc['custom_fields']> {
  return mapped(fleetPages(src, 'custom_fields'), (rows) => rows.map(fieldOut));
}

export function libraryPages(src: Source): AsyncGenerator<Doc['line_items']> {
  return mapped(fleetPages(src, 'line_items'), (rows) => rows.map(libraryOut));
}

export function intervalPages(src: Source): AsyncGenerator<Doc['intervals']> {
  return mapped(fleetPages(src, 'intervals'), async (rows) => {
    const lines = group(
      await src.db
        .selectFrom('interval_line_items')
        .selectAll()
        .where(
          'interval_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('interval_id')
        .orderBy('position')
        .execute(),
      (l) => l.interval_id,
    );
    return rows.map((i) => intervalOut(i, lines.get(i.id) ?? []));
  });
}

export function assignmentPages(src: Source): AsyncGenerator<Doc['assignments']> {
  return mapped(fleetPages(src, 'assignments'), (rows) => rows.map(assignmentOut));
}

async function filesOf(src: Source, owner: string, ids: number[]): Promise<Map<number, FileMeta[]>> {
  const rows = await src.db
    .selectFrom('attachments')
    .select(['id', 'owner_id', 'name', 'content_type', 'created_at'])
    .where('fleet_id', '=', src.fid)
    .where('owner_type', '=', owner)
    .where('owner_id', 'in', ids)
    .where('id', '<=', src.cut.attachments)
    .orderBy('id')
    .execute();
  return group(rows, (a) => a.owner_id);
}

/** Open services (`archive` false) or the archive: closed and rejected ones (spec §4). */
export function servicePages(
  src: Source,
  archive: boolean,
  withFiles: boolean,
): AsyncGenerator<WithFiles<ServiceRecord>[]> {
  const { db, fid, cut } = src;
  const finished = sql<number>`(${sql.ref('f')} & 24)`;
  return mapped(
    pages(archive ? 'archive' : 'services', (after, limit) =>
      db
        .selectFrom('services')
        .selectAll()
        .where('fleet_id', '=', fid)
        .where(finished, archive ? '<>' : '=', 0)
        .where('id', '>', after)
        .where('id', '<=', cut.services)
        .orderBy('id')
        .limit(limit)
        .execute(),
    ),
    async (rows) => {
      const ids = rows.map((r) => r.id);
      const lines = group(
        await db
          .selectFrom('service_line_items')
          .selectAll()
          .where('service_id', 'in', ids)
          .orderBy('service_id')
          .orderBy('position')
          .execute(),
        (l) => l.service_id,
      );
      const files = withFiles ? await filesOf(src, SERVICE_OWNER, ids) : new Map<number, FileMeta[]>();
      return rows.map((s) => ({
        record: serviceOut(s, lines.get(s.id) ?? []),
        files: files.get(s.id) ?? [],
      }));
    },
  );
}

export function fuelPages(src: Source, withFiles: boolean): AsyncGenerator<WithFiles<FuelRecord>[]> {
  return mapped(fleetPages(src, 'fuel_fillings'), async (rows) => {
    const files = withFiles
      ? await filesOf(
          src,
          FUEL_OWNER,
          rows.map((r) => r.id),
        )
      : new Map<number, FileMeta[]>();
    return rows.map((f) => ({ record: fuelOut(f), files: files.get(f.id) ?? [] }));
  });
}

/** One attachment's bytes, read when the writer reaches it. */
export async function attachmentData(db: Db, id: number): Promise<Uint8Array> {
  const row = await db.selectFrom('attachments').select('data').where('id', '=', id).executeTakeFirst();
  return row ? row.data : new Uint8Array();
}

const shiftColumns = [
  'units.base_mileage',
  'units.base_engine_hours',
  'units.pulled_mileage',
  'units.pulled_engine_hours',
] as const;

/**
 * The meter history of the fleet's units: readings stored while the unit was in this fleet (as the
 * meter list shows them), in actual counters.
 */
export function readingPages({ db, fid, cut }: Source): AsyncGenerator<Doc['meter_readings']> {
  return mapped(
    pages('meter_readings', (after, limit) =>
      db
        .selectFrom('meter_readings')
        .innerJoin('units', 'units.id', 'meter_readings.unit_id')
        .leftJoin('users', 'users.id', 'meter_readings.accepted_by')
        .selectAll('meter_readings')
        .select([...shiftColumns, 'users.name as by_name'])
        .where('meter_readings.fleet_id', '=', fid)
        .where('units.fleet_id', '=', fid)
        .where('units.id', '<=', cut.units)
        .where('meter_readings.id', '>', after)
        .where('meter_readings.id', '<=', cut.meter_readings)
        .orderBy('meter_readings.id')
        .limit(limit)
        .execute(),
    ),
    (rows) => rows.map((r) => readingOut(r, shiftOf(r))),
  );
}

/** Hand corrections of the fleet's units since they joined it (as the meter list shows them). */
export function correctionPages({ db, fid, cut }: Source): AsyncGenerator<Doc['counter_corrections']> {
  return mapped(
    pages('counter_corrections', (after, limit) =>
      db
        .selectFrom('counter_corrections')
        .innerJoin('units', 'units.id', 'counter_corrections.unit_id')
        .leftJoin('users', 'users.id', 'counter_corrections.user_id')
        .selectAll('counter_corrections')
        .select([...shiftColumns, 'users.name as by_name'])
        .where('units.fleet_id', '=', fid)
        .where('units.id', '<=', cut.units)
        .where((eb) =>
          eb.or([
            eb('units.joined_at', 'is', null),
            eb('counter_corrections.tm', '>=', eb.ref('units.joined_at')),
          ]),
        )
        .where('counter_corrections.id', '>', after)
        .where('counter_corrections.id', '<=', cut.counter_corrections)
        .orderBy('counter_corrections.id')
        .limit(limit)
        .execute(),
    ),
    (rows) => rows.map((c) => correctionOut(c, shiftOf(c))),
  );
}

/** The in-app set-ups, then the e-mail, bot and webhook ones (notification-channels), without secrets. */
export async function* setupPages(src: Source): AsyncGenerator<Doc['notification_setups']> {
  for await (const rows of fleetPages(src, 'notification_setups')) {
    const ids = new Set<number>();
    for (const r of rows) {
      try {
        for (const u of JSON.parse(r.users) as unknown[]) if (typeof u === 'number') ids.add(u);
      } catch {
        // a broken list addresses nobody in particular
      }
    }
    const names = new Map(
      ids.size
        ? (
            await src.db
              .selectFrom('users')
              .select(['id', 'name'])
              .where('id', 'in', [...ids])
              .execute()
          ).map((u) => [u.id, u.name] as const)
        : [],
    );
    yield rows.map((r) => inAppSetupOut(r, names));
  }
  // Channel set-up ids follow the in-app ones', so that the two kinds never share an id in the document.
  const offset = src.cut.notification_setups;
  yield* mapped(fleetPages(src, 'channel_setups'), (rows) =>
    rows.map((r) => ({ ...channelSetupOut(r), id: offset + r.id })),
  );
}
