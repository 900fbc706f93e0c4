import {
  CSV_BOM,
  csvLine,
  FLEET_TRANSFER_FORMAT,
  FLEET_TRANSFER_VERSION,
  type FleetTransferCsvCollection,
  type FleetTransferDocument,
} from '@fleetkeep/core';
import type { Kysely, Selectable } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { AttachmentTable, Database, ServiceRow } from '../../db/schema.js';

/**
 * GET /api/fleets/{fid}/export (issue 12 item 3): the whole fleet as one JSON document (core
 * contracts/fleet-transfer.ts), and one collection of it as CSV. Values are written as stored, so an
 * import into an empty fleet gives the same document back (the round trip, modulo ids).
 */

type Db = Kysely<Database>;
type Doc = FleetTransferDocument;

const parse = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};
const cfOf = (text: string) => parse<{ id: number; v: string }[]>(text, []);
const round3 = (v: number) => Math.round(v * 1000) / 1000;
/** Finished services (closed 8 or rejected 16) form the archive (spec §4 "Finished group"). */
export const isFinished = (f: number) => (f & 24) !== 0;

const SERVICE_OWNER = 'service';
const FUEL_OWNER = 'fuel';
const IN_CHUNK = 500;

async function inChunks<T>(ids: number[], read: (part: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) out.push(...(await read(ids.slice(i, i + IN_CHUNK))));
  return out;
}

function group<T, K>(rows: T[], key: (r: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const list = out.get(key(r));
    if (list) list.push(r);
    else out.set(key(r), [r]);
  }
  return out;
}

type AttachmentRow = Selectable<AttachmentTable>;
const attachmentOut = (a: AttachmentRow) => ({
  name: a.name,
  content_type: a.content_type,
  data: Buffer.from(a.data).toString('base64'),
  created_at: a.created_at,
});

/** Reads the document of one fleet (no permission check: the caller checked `fleet.admin`). */
export async function buildDocument(db: Db, fleetId: number, withAttachments = true): Promise<Doc> {
  const fleet = await db.selectFrom('fleets').selectAll().where('id', '=', fleetId).executeTakeFirstOrThrow();
  const units = await db
    .selectFrom('units')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const drivers = await db
    .selectFrom('drivers')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const trailers = await db
    .selectFrom('trailers')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const fields = await db
    .selectFrom('custom_fields')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const library = await db
    .selectFrom('line_items')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const intervals = await db
    .selectFrom('intervals')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const intervalLines = group(
    await inChunks(
      intervals.map((i) => i.id),
      (part) =>
        db
          .selectFrom('interval_line_items')
          .selectAll()
          .where('interval_id', 'in', part)
          .orderBy('position')
          .execute(),
    ),
    (l) => l.interval_id,
  );
  const assignments = await db
    .selectFrom('assignments')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const services = await db
    .selectFrom('services')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const serviceLines = group(
    await inChunks(
      services.map((s) => s.id),
      (part) =>
        db
          .selectFrom('service_line_items')
          .selectAll()
          .where('service_id', 'in', part)
          .orderBy('service_id')
          .orderBy('position')
          .execute(),
    ),
    (l) => l.service_id,
  );
  const fuel = await db
    .selectFrom('fuel_fillings')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const files = withAttachments
    ? await db.selectFrom('attachments').selectAll().where('fleet_id', '=', fleetId).orderBy('id').execute()
    : [];
  const filesOf = group(files, (a) => `${a.owner_type}:${a.owner_id}`);

  const line = (l: { name: string; kind: number; qty: number; cost: number }) => ({
    name: l.name,
    kind: l.kind as 1 | 2 | 4,
    qty: l.qty,
    cost: l.cost,
  });
  const serviceOut = (s: ServiceRow) => ({
    id: s.id,
    object_type: s.object_type as 'u' | 'd' | 't',
    object_id: s.object_id,
    interval_id: s.interval_id,
    assignment_id: s.assignment_id,
    f: s.f,
    name: s.name,
    description: s.description,
    created_at: s.created_at,
    updated_at: s.updated_at,
    start_date: s.start_date,
    end_date: s.end_date,
    planned_date: s.planned_date,
    forecast_date: s.forecast_date,
    limit_mileage: s.limit_mileage,
    limit_engine_hours: s.limit_engine_hours,
    last_date: s.last_date,
    last_mileage: s.last_mileage,
    last_engine_hours: s.last_engine_hours,
    mileage: s.mileage,
    engine_hours: s.engine_hours,
    manual_cost: s.manual_cost,
    notify_days: s.notify_days,
    cf: cfOf(s.cf),
    li: (serviceLines.get(s.id) ?? []).map(line),
    attachments: (filesOf.get(`${SERVICE_OWNER}:${s.id}`) ?? []).map(attachmentOut),
  });
  const person = (p: { id: number; name: string; ds: string; c: string; cf: string }) => ({
    id: p.id,
    name: p.name,
    ds: p.ds,
    c: p.c,
    cf: cfOf(p.cf),
  });

  return {
    format: FLEET_TRANSFER_FORMAT,
    version: FLEET_TRANSFER_VERSION,
    exported_at: now(),
    fleet: { name: fleet.name, tz: fleet.tz, cur: fleet.cur, ms: fleet.ms, fm: fleet.fm },
    units: units.map((u) => ({
      id: u.id,
      name: u.name,
      unit_type_id: u.unit_type_id,
      // The actual counters (PRODUCT.md "Service objects and counters"): what the fleet shows.
      mileage: round3(u.mileage - u.base_mileage + u.pulled_mileage),
      engine_hours: round3(u.engine_hours - u.base_engine_hours + u.pulled_engine_hours),
      cf: cfOf(u.cf),
    })),
    drivers: drivers.map(person),
    trailers: trailers.map(person),
    custom_fields: fields.map((f) => ({
      id: f.id,
      name: f.name,
      type: f.type as 1 | 2,
      options: parse<string[]>(f.options, []),
      owner_type: f.owner_type as 'u' | 'd' | 't' | 's' | 'f',
    })),
    line_items: library.map((l) => ({ id: l.id, name: l.name, kind: l.kind as 1 | 2 | 4, cost: l.cost })),
    intervals: intervals.map((i) => ({
      id: i.id,
      name: i.name,
      description: i.description,
      cnme: i.cnme,
      cnmd: i.cnmd,
      cnmo: i.cnmo,
      cnehe: i.cnehe,
      cnehd: i.cnehd,
      cneho: i.cneho,
      de: i.de,
      dd: i.dd,
      du: i.du as 'd' | 'w' | 'm' | 'y',
      do: i.do,
      created_at: i.created_at,
      updated_at: i.updated_at,
      li: (intervalLines.get(i.id) ?? []).map(line),
    })),
    assignments: assignments.map((a) => ({
      id: a.id,
      interval_id: a.interval_id,
      object_type: a.object_type as 'u' | 'd' | 't',
      object_id: a.object_id,
      lcnm: a.lcnm,
      lceh: a.lceh,
      ltm: a.ltm,
      cnt: a.cnt,
    })),
    services: services.filter((s) => !isFinished(s.f)).map(serviceOut),
    archive: services.filter((s) => isFinished(s.f)).map(serviceOut),
    fuel_fillings: fuel.map((f) => ({
      id: f.id,
      unit_id: f.unit_id,
      filled_at: f.filled_at,
      fuel_type: f.fuel_type,
      volume: f.volume,
      volume_unit: f.volume_unit as 1 | 2,
      price: f.price,
      manual_cost: f.manual_cost,
      total_cost: f.total_cost,
      mileage: f.mileage,
      full_tank: f.full_tank ? 1 : 0,
      station: f.station,
      description: f.description,
      cf: cfOf(f.cf),
      created_at: f.created_at,
      updated_at: f.updated_at,
      attachments: (filesOf.get(`${FUEL_OWNER}:${f.id}`) ?? []).map(attachmentOut),
    })),
  };
}

/** A file name part from the fleet name: letters, digits and dashes. */
export function fileStem(fleetName: string): string {
  const stem = fleetName
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return stem || 'fleet';
}

export async function exportFleet(ctx: AppContext, actor: Actor, fleetId: number) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const document = await buildDocument(ctx.db.kysely, fleetId);
  return { name: `${fileStem(fleet.name)}-export.json`, data: Buffer.from(JSON.stringify(document)) };
}

/** Money and volumes as decimals in CSV (thousandths → "12.345"). */
const dec = (v: number | null) => (v === null ? '' : (v / 1000).toFixed(3).replace(/\.?0+$/, ''));
const cfText = (cf: { id: number; v: string }[]) => cf.map((c) => `${c.id}=${c.v}`).join('; ');
const linesText = (li: { name: string; kind: number; qty: number; cost: number }[]) =>
  li.map((l) => `${l.name} (${l.kind}) ${dec(l.qty)} × ${dec(l.cost)}`).join('; ');

/** The columns of each collection's CSV: header and cell of a record. */
function csvTable(doc: Doc, collection: FleetTransferCsvCollection): { head: string[]; rows: unknown[][] } {
  const serviceHead = [
    'id',
    'object_type',
    'object_id',
    'interval_id',
    'f',
    'name',
    'description',
    'start_date',
    'end_date',
    'limit_date',
    'limit_mileage',
    'limit_engine_hours',
    'mileage',
    'engine_hours',
    'manual_cost',
    'line_items',
    'attachments',
    'cf',
  ];
  const serviceRow = (s: TransferServiceOut) => [
    s.id,
    s.object_type,
    s.object_id,
    s.interval_id,
    s.f,
    s.name,
    s.description,
    s.start_date,
    s.end_date,
    s.planned_date,
    s.limit_mileage,
    s.limit_engine_hours,
    s.mileage,
    s.engine_hours,
    dec(s.manual_cost),
    linesText(s.li),
    s.attachments.map((a) => a.name).join('; '),
    cfText(s.cf),
  ];
  switch (collection) {
    case 'units':
      return {
        head: ['id', 'name', 'unit_type_id', 'mileage_km', 'engine_hours', 'cf'],
        rows: doc.units.map((u) => [u.id, u.name, u.unit_type_id, u.mileage, u.engine_hours, cfText(u.cf)]),
      };
    case 'drivers':
    case 'trailers':
      return {
        head: ['id', 'name', 'ds', 'c', 'cf'],
        rows: doc[collection].map((p) => [p.id, p.name, p.ds, p.c, cfText(p.cf)]),
      };
    case 'custom_fields':
      return {
        head: ['id', 'name', 'type', 'owner_type', 'options'],
        rows: doc.custom_fields.map((f) => [f.id, f.name, f.type, f.owner_type, f.options.join('; ')]),
      };
    case 'line_items':
      return {
        head: ['id', 'name', 'kind', 'cost'],
        rows: doc.line_items.map((l) => [l.id, l.name, l.kind, dec(l.cost)]),
      };
    case 'intervals':
      return {
        head: [
          'id',
          'name',
          'description',
          'cnme',
          'cnmd',
          'cnmo',
          'cnehe',
          'cnehd',
          'cneho',
          'de',
          'dd',
          'du',
          'do',
          'line_items',
        ],
        rows: doc.intervals.map((i) => [
          i.id,
          i.name,
          i.description,
          i.cnme,
          i.cnmd,
          i.cnmo,
          i.cnehe,
          i.cnehd,
          i.cneho,
          i.de,
          i.dd,
          i.du,
          i.do,
          linesText(i.li),
        ]),
      };
    case 'assignments':
      return {
        head: ['id', 'interval_id', 'object_type', 'object_id', 'lcnm', 'lceh', 'ltm', 'cnt'],
        rows: doc.assignments.map((a) => [
          a.id,
          a.interval_id,
          a.object_type,
          a.object_id,
          a.lcnm,
          a.lceh,
          a.ltm,
          a.cnt,
        ]),
      };
    case 'services':
    case 'archive':
      return { head: serviceHead, rows: doc[collection].map(serviceRow) };
    case 'fuel_fillings':
      return {
        head: [
          'id',
          'unit_id',
          'filled_at',
          'fuel_type',
          'volume',
          'volume_unit',
          'price',
          'total_cost',
          'mileage_km',
          'full_tank',
          'station',
          'description',
          'attachments',
          'cf',
        ],
        rows: doc.fuel_fillings.map((f) => [
          f.id,
          f.unit_id,
          f.filled_at,
          f.fuel_type,
          dec(f.volume),
          f.volume_unit,
          dec(f.price),
          dec(f.total_cost),
          f.mileage,
          f.full_tank,
          f.station,
          f.description,
          f.attachments.map((a) => a.name).join('; '),
          cfText(f.cf),
        ]),
      };
  }
}
type TransferServiceOut = Doc['services'][number];

/** One collection as CSV (core csv.ts: RFC 4180, BOM, formula cells neutralised). */
export async function exportCollectionCsv(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  collection: FleetTransferCsvCollection,
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const doc = await buildDocument(ctx.db.kysely, fleetId, false);
  const { head, rows } = csvTable(doc, collection);
  const text = CSV_BOM + csvLine(head) + rows.map((r) => csvLine(r as (string | number | null)[])).join('');
  return { name: `${fileStem(fleet.name)}-${collection}.csv`, data: Buffer.from(text) };
}
