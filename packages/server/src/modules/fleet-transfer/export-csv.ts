import { CSV_BOM, csvLine, type FleetTransferCsvCollection } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { cutOf } from './pages.js';
import {
  assignmentPages,
  fieldPages,
  fuelPages,
  intervalPages,
  libraryPages,
  personPages,
  type Source,
  servicePages,
  unitPages,
  type WithFiles,
} from './readers.js';
import type { Line, ServiceRecord } from './records.js';

/**
 * One collection of the fleet export as CSV (core csv.ts: RFC 4180, BOM, formula cells neutralised),
 * written page by page as it is read, like the JSON document (export-json.ts).
 */

type Cell = string | number | null;
type Table = { head: string[]; rows: AsyncGenerator<Cell[][]> };

/** Money and volumes as decimals in CSV (thousandths → "12.345"). */
const dec = (v: number | null) => (v === null ? '' : (v / 1000).toFixed(3).replace(/\.?0+$/, ''));
const cfText = (cf: { id: number; v: string }[]) => cf.map((c) => `${c.id}=${c.v}`).join('; ');
const linesText = (li: Line[]) =>
  li.map((l) => `${l.name} (${l.kind}) ${dec(l.qty)} × ${dec(l.cost)}`).join('; ');
const names = (files: { name: string }[]) => files.map((a) => a.name).join('; ');

async function* rowsOf<T>(src: AsyncGenerator<T[]>, row: (r: T) => Cell[]): AsyncGenerator<Cell[][]> {
  for await (const page of src) yield page.map(row);
}

const SERVICE_HEAD = [
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
const serviceRow = ({ record: s, files }: WithFiles<ServiceRecord>): Cell[] => [
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
  names(files),
  cfText(s.cf),
];

function tableOf(src: Source, collection: FleetTransferCsvCollection): Table {
  switch (collection) {
    case 'units':
      return {
        head: [
          'id',
          'name',
          'unit_type_id',
          'mileage_km',
          'engine_hours',
          'cf',
          // The vehicle profile (docs/product.md "The vehicle profile").
          'vin',
          'make',
          'model',
          'year',
          'plate',
          'fuel_type',
          'tank_capacity',
          'tank_unit',
          'tags',
          'notes',
        ],
        rows: rowsOf(unitPages(src), (u) => [
          u.id,
          u.name,
          u.unit_type_id,
          u.mileage,
          u.engine_hours,
          cfText(u.cf),
          u.vp?.vin ?? '',
          u.vp?.mk ?? '',
          u.vp?.md ?? '',
          u.vp?.yr ?? null,
          u.vp?.pl ?? '',
          u.vp?.ft ?? '',
          u.vp?.tc ?? null,
          u.vp?.tu === 2 ? 'gal' : u.vp?.tu === 1 ? 'l' : '',
          (u.vp?.tg ?? []).join('; '),
          u.vp?.nt ?? '',
        ]),
      };
    case 'drivers':
    case 'trailers':
      return {
        head: ['id', 'name', 'ds', 'c', 'cf'],
        rows: rowsOf(personPages(src, collection), (p) => [p.id, p.name, p.ds, p.c, cfText(p.cf)]),
      };
    case 'custom_fields':
      return {
        head: ['id', 'name', 'type', 'owner_type', 'options'],
        rows: rowsOf(fieldPages(src), (f) => [f.id, f.name, f.type, f.owner_type, f.options.join('; ')]),
      };
    case 'line_items':
      return {
        head: ['id', 'name', 'kind', 'cost'],
        rows: rowsOf(libraryPages(src), (l) => [l.id, l.name, l.kind, dec(l.cost)]),
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
        rows: rowsOf(intervalPages(src), (i) => [
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
        rows: rowsOf(assignmentPages(src), (a) => [
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
      return {
        head: SERVICE_HEAD,
        rows: rowsOf(servicePages(src, collection === 'archive', true), serviceRow),
      };
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
        rows: rowsOf(fuelPages(src, true), ({ record: f, files }) => [
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
          names(files),
          cfText(f.cf),
        ]),
      };
  }
}

/** One collection of fleet `fid` as CSV text, page by page (no permission check: the caller's). */
export async function* collectionCsvText(
  db: Kysely<Database>,
  fid: number,
  collection: FleetTransferCsvCollection,
): AsyncGenerator<string> {
  const { head, rows } = tableOf({ db, fid, cut: await cutOf(db) }, collection);
  yield CSV_BOM + csvLine(head);
  for await (const page of rows) yield page.map((r) => csvLine(r)).join('');
}
