import { z } from 'zod';
import { Limits } from '../constants.js';
import { id, objectType } from './common.js';
import { CUSTOM_VALUE_MAX, CUSTOM_VALUES_MAX } from './customfields.js';
import { SERVICE_ATTACHMENT_BYTES_MAX, SERVICE_ATTACHMENTS_MAX } from './services.js';

/**
 * Fleet export and import (issue 12 item 3; PRODUCT.md "Administration", migration; spec §2
 * `/migration/{fleetId}`, admin on that fleet only, spec §6) and the migration from LubeLogger's CSV
 * exports (issue 12 item 4).
 *
 * The export document is one JSON file holding a whole fleet. Values are written as they are stored
 * (ARCHITECTURE.md "Data rules"): times in Unix seconds, mileage in km, money, quantities and volumes as
 * integer thousandths, a fuel filling's volume and price in the fuel unit it was written in. Ids are the
 * source fleet's; an import remaps every one of them.
 */

export const FLEET_TRANSFER_FORMAT = 'fleetkeep-fleet';
export const FLEET_TRANSFER_VERSION = 1;
/** Body limit of `POST .../transfer` (the document with its attachments in base64). */
export const FLEET_TRANSFER_BODY_MAX = 256 * 1024 * 1024;
/** Records per collection of one document. */
export const FLEET_TRANSFER_ROWS_MAX = 200_000;
/** Line items per interval or service. */
export const FLEET_TRANSFER_LINES_MAX = 500;
/** Longest free text (descriptions, notes) of a record. */
export const FLEET_TRANSFER_TEXT_MAX = 10_000;
/** The collections of the CSV export (`GET .../export/{collection}.csv`). */
export const FLEET_TRANSFER_CSV_COLLECTIONS = [
  'units',
  'drivers',
  'trailers',
  'custom_fields',
  'line_items',
  'intervals',
  'assignments',
  'services',
  'archive',
  'fuel_fillings',
] as const;
export type FleetTransferCsvCollection = (typeof FLEET_TRANSFER_CSV_COLLECTIONS)[number];

const int = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const nonNeg = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const time = nonNeg;
const name = z.string().trim().min(1).max(Limits.stringMax);
const text = z.string().max(FLEET_TRANSFER_TEXT_MAX);
const num = z.number().finite().min(0).max(1e12);
const cf = z
  .array(z.object({ id, v: z.string().max(CUSTOM_VALUE_MAX) }))
  .max(CUSTOM_VALUES_MAX)
  .default([]);

/** A line item of an interval or a service: kind 1 labour, 2 part, 4 fuel; qty and cost in thousandths. */
export const transferLine = z.object({
  name,
  kind: z.union([z.literal(1), z.literal(2), z.literal(4)]),
  qty: int,
  cost: int,
});

/** A file of a service or a fuel filling; `data` is base64, within the per-owner caps (spec §5). */
export const transferAttachment = z.object({
  name: z.string().min(1).max(255),
  content_type: z.string().max(255),
  data: z.string().max(Math.ceil(SERVICE_ATTACHMENT_BYTES_MAX / 3) * 4),
  created_at: time,
});
const attachments = z.array(transferAttachment).max(SERVICE_ATTACHMENTS_MAX).default([]);

export const transferFleet = z.object({
  name: z.string().max(Limits.stringMax),
  tz: int,
  cur: z.string().max(Limits.stringMax),
  ms: int,
  fm: int,
});

/** A unit: its actual counters (total less the base at joining plus pulled history, km and hours). */
export const transferUnit = z.object({
  id,
  name,
  unit_type_id: id.nullable(),
  mileage: num,
  engine_hours: num,
  cf,
});

export const transferPerson = z.object({
  id,
  name,
  ds: z.string().max(FLEET_TRANSFER_TEXT_MAX),
  c: z.string().max(FLEET_TRANSFER_TEXT_MAX),
  cf,
});

export const transferCustomField = z.object({
  id,
  name,
  type: z.union([z.literal(1), z.literal(2)]),
  options: z.array(z.string().max(Limits.stringMax)).max(1000),
  owner_type: z.enum(['u', 'd', 't', 's', 'f']),
});

export const transferLibraryItem = z.object({
  id,
  name,
  kind: z.union([z.literal(1), z.literal(2), z.literal(4)]),
  cost: int,
});

export const transferInterval = z.object({
  id,
  name,
  description: text,
  cnme: int,
  cnmd: num,
  cnmo: num,
  cnehe: int,
  cnehd: num,
  cneho: num,
  de: int,
  dd: int,
  du: z.enum(['d', 'w', 'm', 'y']),
  do: int,
  created_at: time,
  updated_at: time,
  li: z.array(transferLine).max(FLEET_TRANSFER_LINES_MAX).default([]),
});

/** An interval's assignment to an object with its baseline (DESIGN §5 `lcnm`, `lceh`, `ltm`, `cnt`). */
export const transferAssignment = z.object({
  id,
  interval_id: id,
  object_type: objectType,
  object_id: id,
  lcnm: num,
  lceh: num,
  ltm: time,
  cnt: nonNeg,
});

const opt = <T extends z.ZodTypeAny>(s: T) => s.nullable();

/** A service (open ones in `services`, closed and rejected ones in `archive`, spec §4). */
export const transferService = z.object({
  id,
  object_type: objectType,
  object_id: id,
  interval_id: opt(id),
  assignment_id: opt(id),
  f: z.number().int().min(0).max(1023),
  name,
  description: text,
  created_at: time,
  updated_at: time,
  start_date: opt(time),
  end_date: opt(time),
  planned_date: opt(time),
  forecast_date: opt(time),
  limit_mileage: opt(num),
  limit_engine_hours: opt(num),
  last_date: opt(time),
  last_mileage: opt(num),
  last_engine_hours: opt(num),
  mileage: opt(num),
  engine_hours: opt(num),
  manual_cost: opt(int),
  notify_days: opt(int),
  cf,
  li: z.array(transferLine).max(FLEET_TRANSFER_LINES_MAX).default([]),
  attachments,
});

export const transferFuelFilling = z.object({
  id,
  unit_id: id,
  filled_at: time,
  fuel_type: z.string().max(Limits.stringMax),
  volume: int,
  volume_unit: z.union([z.literal(1), z.literal(2)]),
  price: opt(int),
  manual_cost: opt(int),
  total_cost: int,
  mileage: opt(num),
  full_tank: z.union([z.literal(0), z.literal(1)]),
  station: z.string().max(Limits.stringMax * 2),
  description: text,
  cf,
  created_at: time,
  updated_at: time,
  attachments,
});

const rows = <T extends z.ZodTypeAny>(s: T) => z.array(s).max(FLEET_TRANSFER_ROWS_MAX).default([]);

/** The whole export document. */
export const fleetTransferDocument = z.object({
  format: z.literal(FLEET_TRANSFER_FORMAT),
  version: z.literal(FLEET_TRANSFER_VERSION),
  exported_at: time,
  fleet: transferFleet,
  units: rows(transferUnit),
  drivers: rows(transferPerson),
  trailers: rows(transferPerson),
  custom_fields: rows(transferCustomField),
  line_items: rows(transferLibraryItem),
  intervals: rows(transferInterval),
  assignments: rows(transferAssignment),
  services: rows(transferService),
  archive: rows(transferService),
  fuel_fillings: rows(transferFuelFilling),
});
export type FleetTransferDocument = z.output<typeof fleetTransferDocument>;
export type TransferService = z.output<typeof transferService>;
export type TransferFuelFilling = z.output<typeof transferFuelFilling>;

/** `POST /api/fleets/{fid}/transfer`: a document to import into fleet `fid`. */
export const fleetTransferBody = z.object({ document: fleetTransferDocument });
export type FleetTransferBody = z.output<typeof fleetTransferBody>;

export const fleetTransferCsvParams = z.object({
  fid: z.coerce.number().int().positive().max(Limits.intSigned),
  /** `<collection>.csv`. */
  file: z.enum(
    FLEET_TRANSFER_CSV_COLLECTIONS.map((c) => `${c}.csv` as const) as [`${FleetTransferCsvCollection}.csv`],
  ),
});

const TRANSFER_COUNT_KEYS = [
  'units',
  'drivers',
  'trailers',
  'custom_fields',
  'line_items',
  'intervals',
  'assignments',
  'services',
  'archive',
  'fuel_fillings',
  'attachments',
] as const;
const counts = z.object(
  Object.fromEntries(TRANSFER_COUNT_KEYS.map((k) => [k, z.number().int()])) as Record<
    (typeof TRANSFER_COUNT_KEYS)[number],
    z.ZodNumber
  >,
);
export type TransferCounts = z.infer<typeof counts>;
const idPairs = z.array(z.tuple([z.number().int(), z.number().int()])).describe('[source id, new id]');

/**
 * The import's reply: per collection how many records were created, matched to existing ones (units,
 * drivers, trailers by name; intervals, custom fields and library items by name; assignments by
 * interval and object) and skipped, and the id map of the objects and intervals.
 */
export const fleetTransferReply = z.object({
  created: counts,
  matched: counts,
  skipped: counts,
  ids: z.object({ units: idPairs, drivers: idPairs, trailers: idPairs, intervals: idPairs }),
});
export type FleetTransferReply = z.infer<typeof fleetTransferReply>;

// --- LubeLogger (issue 12 item 4) ---

/** Record kinds of LubeLogger's CSV exports. */
export const LUBELOGGER_KINDS = ['service', 'repair', 'upgrade', 'fuel', 'odometer', 'reminder'] as const;
export type LubeLoggerKind = (typeof LUBELOGGER_KINDS)[number];
export const LUBELOGGER_FILES_MAX = 60;
/** Characters of one CSV file. */
export const LUBELOGGER_FILE_MAX = 5 * 1024 * 1024;
export const LUBELOGGER_ROWS_MAX = 50_000;
/** Rows of each kind shown in the preview. */
export const LUBELOGGER_PREVIEW_ROWS = 50;

export const lubeLoggerFile = z.object({
  name: z.string().trim().min(1).max(255),
  kind: z.enum(LUBELOGGER_KINDS),
  /** The vehicle of a file without a `VehicleId` column (older exports are per vehicle). */
  vehicle: z.string().trim().min(1).max(Limits.stringMax),
  content: z.string().max(LUBELOGGER_FILE_MAX),
});
export type LubeLoggerFile = z.infer<typeof lubeLoggerFile>;

/** How dates in the files are written: month first (LubeLogger's en-US default), day first, or ISO. */
export const LUBELOGGER_DATE_FORMATS = ['MDY', 'DMY', 'YMD'] as const;

export const lubeLoggerParseBody = z.object({
  files: z.array(lubeLoggerFile).min(1).max(LUBELOGGER_FILES_MAX),
  date_format: z.enum(LUBELOGGER_DATE_FORMATS).default('MDY'),
});
export type LubeLoggerParseBody = z.output<typeof lubeLoggerParseBody>;

/** Where a LubeLogger vehicle goes: an existing unit of the fleet, or a new unit of that name. */
export const lubeLoggerTarget = z.union([
  z.object({ vehicle: z.string().max(Limits.stringMax), unit: id }),
  z.object({ vehicle: z.string().max(Limits.stringMax), create: name }),
]);

export const lubeLoggerCommitBody = lubeLoggerParseBody.extend({
  vehicles: z.array(lubeLoggerTarget).min(1).max(1000),
});
export type LubeLoggerCommitBody = z.output<typeof lubeLoggerCommitBody>;

export const lubeLoggerPreviewRow = z.object({
  file: z.string(),
  line: z.number().int(),
  vehicle: z.string(),
  kind: z.enum(LUBELOGGER_KINDS),
  date: z.string().nullable().describe('YYYY-MM-DD'),
  odometer: z.number().nullable().describe('As written (the fleet distance unit)'),
  name: z.string(),
  cost: z.string().nullable(),
  volume: z.string().nullable(),
  error: z.string().nullable(),
});
export type LubeLoggerPreviewRow = z.infer<typeof lubeLoggerPreviewRow>;

const kindCounts = z.object(
  Object.fromEntries(LUBELOGGER_KINDS.map((k) => [k, z.number().int()])) as Record<
    LubeLoggerKind,
    z.ZodNumber
  >,
);

export const lubeLoggerParseReply = z.object({
  vehicles: z.array(
    z.object({
      vehicle: z.string(),
      rows: z.number().int(),
      /** A unit of the fleet with exactly this name, the mapping's default. */
      unit: z.number().int().nullable(),
    }),
  ),
  counts: kindCounts,
  errors: z.number().int(),
  rows: z.array(lubeLoggerPreviewRow),
});
export type LubeLoggerParseReply = z.infer<typeof lubeLoggerParseReply>;

export const lubeLoggerCommitReply = z.object({
  units_created: z.number().int(),
  services: z.number().int(),
  archive: z.number().int(),
  fuel_fillings: z.number().int(),
  odometer: z.number().int(),
});
export type LubeLoggerCommitReply = z.infer<typeof lubeLoggerCommitReply>;
